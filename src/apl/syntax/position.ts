// Where something sits in the query text, and the positioned errors the front end raises.
import { invalidInput } from '../../errors';

export interface Position {
  /** 0-based character offset. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

export const START: Position = { offset: 0, line: 1, column: 1 };

/**
 * A 400 whose message says where (line, column), what was found and what was expected.
 * `details` repeats the facts for clients that want to underline the spot.
 */
export function syntaxError(at: Position, found: string, expected: string) {
  return invalidInput(`syntax error at line ${at.line}, column ${at.column}: expected ${expected}, found ${found}`, {
    line: at.line,
    column: at.column,
    found,
    expected,
  });
}

/** A semantic error tied to a place in the query (unknown field, wrong argument type, ...). */
export function semanticError(at: Position, message: string, details: Record<string, unknown> = {}) {
  return invalidInput(`line ${at.line}, column ${at.column}: ${message}`, { line: at.line, column: at.column, ...details });
}
