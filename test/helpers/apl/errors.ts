// The client error a piece of APL handling throws: synchronously (parser and lexer tests), or as
// the rejection of a query that runs.
import { expect } from 'vitest';
import { DomainError } from '../../../src/errors';

export function errorOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

/** What a query rejects with, checked to be a client error of `kind` (a query that answers fails the check). */
export async function rejectionOf(run: Promise<unknown>, kind: DomainError['kind'] = 'invalid_input'): Promise<DomainError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe(kind);
  return error as DomainError;
}
