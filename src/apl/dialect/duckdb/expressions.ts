// DuckDB SQL for typed expressions. Representation: datetime = TIMESTAMP_NS, timespan = BIGINT
// nanoseconds, dynamic = JSON text, long = BIGINT, real = DOUBLE. User text reaches SQL only
// through `quoteLiteral` (or a statement parameter), never raw.
import { quoteLiteral } from '../../../events/layout';
import type { LiteralValue } from '../../syntax/ast';
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import { STRING_TOO_LONG, type SqlValue } from '../dialect';
import { callSql } from './functions';
import { operatorCallSql } from './operator-calls';
import { SQL_TYPE } from './values';

export { literalString, SQL_TYPE } from './values';

const TEXT_TYPES: ReadonlySet<AplType> = new Set(['string', 'dynamic']);

export class ExprWriter {
  /** SQL of a whole plan node, for expressions holding a subquery (`x in (T)`). */
  relationSql?: (rel: Rel) => string;

  constructor(
    private readonly params: SqlValue[],
    /** SQL for a column id (qualified inside joins). */
    readonly column: (id: string) => string,
    /** Longest string a call may produce (unbounded when undefined). */
    readonly maxStringBytes?: number,
    /** The joined columns that answer each price lookup call (see ./pricing.ts). */
    readonly lookupColumns = new Map<TExpr, string>(),
  ) {}

  /**
   * A string value: an escaped literal the planner can fold and push into scans, or a
   * statement parameter for the rare text a literal cannot carry (NUL characters).
   */
  text(value: string): string {
    if (!value.includes('\0')) return quoteLiteral(value);
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** A value that must not appear in the SQL text (key material): always a statement parameter. */
  param(value: string): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /**
   * A string constant the planner should see (regex, JSON path, format), safely quoted; one
   * with a NUL character, which no SQL literal can hold, goes as a parameter instead.
   */
  constant(value: string): string {
    return value.includes('\0') ? this.text(value) : quoteLiteral(value);
  }

  /** Writes a child expression with another column resolver (join keys). */
  withColumns(column: (id: string) => string): ExprWriter {
    const writer = new ExprWriter(this.params, column, this.maxStringBytes, this.lookupColumns);
    if (this.relationSql) writer.relationSql = this.relationSql;
    return writer;
  }

  write(expr: TExpr): string {
    switch (expr.kind) {
      case 'column':
        return this.column(expr.id);
      case 'literal':
        return this.literal(expr.value, expr.type);
      case 'call':
        return this.bounded(expr, operatorCallSql(this, expr) ?? callSql(this, expr));
    }
  }

  /**
   * Text built from text (strcat, replace, strrep, JSON packing, ...) can grow with every call,
   * and DuckDB does not count strings against its memory limit: such a call's result fails the
   * statement once it is longer than `maxStringBytes`, so no chain of calls can build more. The
   * lambda evaluates the call once (a CASE would evaluate it twice, and nested calls
   * exponentially often).
   */
  private bounded(expr: Extract<TExpr, { kind: 'call' }>, sql: string): string {
    if (this.maxStringBytes === undefined || !TEXT_TYPES.has(expr.type) || !expr.args.some((arg) => TEXT_TYPES.has(arg.type))) return sql;
    return `list_transform([${sql}], bounded -> CASE ${this.lengthGuard('strlen(bounded)')} ELSE bounded END)[1]`;
  }

  /**
   * `WHEN <length> > limit THEN error(...)`, for calls that multiply their input (strrep) to
   * check the length they would build before building it; empty when strings are unbounded.
   */
  lengthGuard(lengthSql: string): string {
    if (this.maxStringBytes === undefined) return '';
    const limit = Math.floor(this.maxStringBytes);
    return `WHEN ${lengthSql} > ${limit} THEN error(${quoteLiteral(`${STRING_TOO_LONG} ${limit} bytes (APL_MAX_STRING_BYTES)`)})`;
  }

  literal(value: LiteralValue, type: AplType): string {
    switch (value.type) {
      case 'null':
        return `CAST(NULL AS ${SQL_TYPE[type]})`;
      case 'bool':
        return value.value ? 'TRUE' : 'FALSE';
      case 'int':
        return `CAST(${value.value.toString()} AS BIGINT)`;
      case 'real':
        if (Number.isNaN(value.value)) return `CAST('nan' AS DOUBLE)`;
        if (!Number.isFinite(value.value)) return `CAST('${value.value > 0 ? 'inf' : '-inf'}' AS DOUBLE)`;
        return `CAST(${String(value.value)} AS DOUBLE)`;
      case 'string':
        return this.text(value.value);
      case 'datetime':
        return `make_timestamp_ns(CAST(${value.nanos.toString()} AS BIGINT))`;
      case 'timespan':
        return `CAST(${value.nanos.toString()} AS BIGINT)`;
      case 'dynamic':
        return `CAST(${this.text(JSON.stringify(value.value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))} AS JSON)`;
    }
  }
}
