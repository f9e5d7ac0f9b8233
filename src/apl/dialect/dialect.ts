// What a SQL dialect offers the engine: compile a typed plan into one statement whose result
// columns line up with the plan's output columns, values in a form `decodeValue` understands.
import type { Rel, RelColumn } from '../semantic/plan';

/** A value bound to a statement parameter. */
export type SqlValue = string | number | bigint | boolean | null;

export interface CompiledSql {
  sql: string;
  params: SqlValue[];
  /**
   * Set when the statement needs values only the server computes (functions the engine's SQL
   * cannot express, see clickhouse/server-calls.ts): `sql` is then not to be run; run each
   * lookup, answer it, and run what `complete` writes with the answers.
   */
  pending?: PendingStatement;
  /**
   * Result columns the server computes from the rows: the statement returns the text of the
   * function's argument at `position`, and the server puts the function's answer in its place.
   */
  serverColumns?: { position: number; fn: string }[];
}

/** A function the server evaluates for the statement, over the texts `statement` returns (one column). */
export interface ServerLookup {
  /** The canonical call name (`json_canonical`, `geo_info`, ...). */
  fn: string;
  statement: CompiledSql;
}

export interface PendingStatement {
  lookups: ServerLookup[];
  /** The statement with each lookup's answers (argument text → value, in `lookups` order) written in. */
  complete(answers: ReadonlyMap<string, string | number | bigint | null>[]): CompiledSql;
}

export interface CompileOptions {
  /** Longest string the statement may compute; a longer one fails it (see STRING_TOO_LONG). */
  maxStringBytes?: number;
  /**
   * The instants (epoch nanoseconds, ascending) at which any model's price period starts or
   * ends, in the price table the statement will read; lets sums of costs be priced per era.
   */
  priceBoundaries?: readonly bigint[];
}

/** The text of the error a statement raises when a computed string passes `maxStringBytes`. */
export const STRING_TOO_LONG = 'a string computed by the query is longer than';

/** The text of the error a ClickHouse statement raises for JSON nested deeper than ClickHouse reads. */
export const JSON_TOO_DEEP = 'a JSON text the query reads nests deeper than the';

export interface SqlDialect {
  readonly name: string;
  /** A statement returning `columns` (in order) of the relation. */
  compile(rel: Rel, columns: RelColumn[], options?: CompileOptions): CompiledSql;
}
