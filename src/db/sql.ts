// The little SQL interface the repository layer is written against, so each hot-path statement
// is written once, in SQL that SQLite and PostgreSQL both accept, and runs on either.
//
// Rules for portable statements: `?` placeholders (turned into `$1, $2, ...` for PostgreSQL);
// TRUE/FALSE for booleans (never 0/1); `ON CONFLICT ... DO UPDATE SET col = excluded.col` for
// upserts; RETURNING where a write must report what it did. Values come back as the driver
// gives them, so read them with the helpers below (booleans as 0/1 or true/false, times as text
// or Date). Parameters are strings, numbers, null or Dates (written as UTC times).

export type SqlDialect = 'sqlite' | 'postgresql';
export type SqlValue = string | number | null | Date;

export interface SqlStatement {
  sql: string;
  params?: readonly SqlValue[];
}

export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** Every row of a query. */
  rows<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  row<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a write; returns the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs writes in one transaction: all of them or none. */
  batch(statements: readonly SqlStatement[]): Promise<void>;
}

/** A boolean column as either driver returns it. */
export function readBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === '1' || value === 't';
}

/** A DateTime column: a Date from PostgreSQL, text from SQLite (as Prisma writes it, or SQLite's CURRENT_TIMESTAMP). */
export function readTime(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const text = String(value);
  const hasZone = /(?:Z|[+-]\d\d:?\d\d)$/i.test(text);
  return new Date(hasZone ? text : `${text.replace(' ', 'T')}Z`);
}

export function readOptionalTime(value: unknown): Date | null {
  return value === null || value === undefined ? null : readTime(value);
}

/** Rows per multi-row INSERT: well below both engines' limits on bound parameters. */
export const ROWS_PER_INSERT = 200;

/** `(?, ?, ?), (?, ?, ?)` for `rows` rows of `columns` values each. */
export function valuesPlaceholders(rows: number, columns: number): string {
  const one = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => one).join(', ');
}

/** Splits rows into chunks of `ROWS_PER_INSERT`. */
export function chunked<T>(items: readonly T[], size = ROWS_PER_INSERT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
