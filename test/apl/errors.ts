// The client error a piece of synchronous APL handling throws (parser and lexer tests).
import { DomainError } from '../../src/errors';

export function errorOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected an error');
}
