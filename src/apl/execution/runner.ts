// The seam between the engine and the database that holds the events: the engine hands over
// one compiled statement and gets rows back. The event store implements it over its DuckDB
// connections; tests and benchmarks use `createDuckDBRunner` over an instance of their own.
import type { CompiledSql } from '../dialect/dialect';

/** A value as the runner returns it: BIGINT as bigint, DOUBLE as number, text as string. */
export type RowValue = string | number | bigint | boolean | null;

export interface RunOptions {
  /** Cancel the statement after this long, failing with `timedOut(...)`. */
  timeoutMs: number;
  /** Cancel when the caller goes away (client disconnect). */
  signal?: AbortSignal;
  /** Refuse a result larger than this many bytes (a `limit_exceeded` domain error). */
  maxResultBytes?: number;
}

export interface QueryRunner {
  run(statement: CompiledSql, options: RunOptions): Promise<{ rows: RowValue[][] }>;
}
