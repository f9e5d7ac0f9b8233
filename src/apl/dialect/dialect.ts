// What a SQL dialect offers the engine: compile a typed plan into one statement whose result
// columns line up with the plan's output columns, values in a form `decodeValue` understands.
import type { Rel, RelColumn } from '../semantic/plan';

/** A value bound to a statement parameter. */
export type SqlValue = string | number | bigint | boolean | null;

export interface CompiledSql {
  sql: string;
  params: SqlValue[];
}

export interface SqlDialect {
  readonly name: string;
  /** A statement returning `columns` (in order) of the relation. */
  compile(rel: Rel, columns: RelColumn[]): CompiledSql;
}
