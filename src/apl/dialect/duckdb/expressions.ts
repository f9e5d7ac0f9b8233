// DuckDB SQL for typed expressions. Representation: datetime = TIMESTAMP_NS, timespan = BIGINT
// nanoseconds, dynamic = JSON text, long = BIGINT, real = DOUBLE. User text reaches SQL only
// through `quoteLiteral` (or a statement parameter), never raw. The walk is ../base/expressions.ts.
import { quoteLiteral } from '../../../engines/duckdb/layout';
import type { AplType, TExpr } from '../../semantic/plan';
import { type CallExpr, type RealText, SqlExprWriter } from '../base/expressions';
import { STRING_TOO_LONG, type SqlValue } from '../dialect';
import { callSql } from './functions';
import { operatorCallSql } from './operator-calls';
import { SQL_TYPE } from './values';

export { literalString, SQL_TYPE } from './values';

export class ExprWriter extends SqlExprWriter<ExprWriter> {
  constructor(
    readonly params: SqlValue[],
    column: (id: string) => string,
    maxStringBytes?: number,
    lookupColumns = new Map<TExpr, string>(),
  ) {
    super(column, maxStringBytes, lookupColumns);
  }

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

  /** A constant with a NUL character, which no SQL literal can hold, goes as a parameter instead. */
  constant(value: string): string {
    return value.includes('\0') ? this.text(value) : quoteLiteral(value);
  }

  protected fork(column: (id: string) => string): ExprWriter {
    return new ExprWriter(this.params, column, this.maxStringBytes, this.lookupColumns);
  }

  protected callSql(expr: CallExpr): string {
    return operatorCallSql(this, expr) ?? callSql(this, expr);
  }

  /**
   * DuckDB does not count strings against its memory limit, so the length is checked on every
   * growing call. The lambda evaluates the call once (a CASE would evaluate it twice, and nested
   * calls exponentially often).
   */
  protected boundedSql(sql: string): string {
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

  protected nullLiteral(type: AplType): string {
    return `CAST(NULL AS ${SQL_TYPE[type]})`;
  }

  protected boolLiteral(value: boolean): string {
    return value ? 'TRUE' : 'FALSE';
  }

  protected intLiteral(digits: string): string {
    return `CAST(${digits} AS BIGINT)`;
  }

  protected realLiteral(value: RealText): string {
    return typeof value === 'string' ? `CAST('${value}' AS DOUBLE)` : `CAST(${value.finite} AS DOUBLE)`;
  }

  protected datetimeLiteral(nanos: bigint): string {
    return `make_timestamp_ns(CAST(${nanos.toString()} AS BIGINT))`;
  }

  protected timespanLiteral(nanos: bigint): string {
    return `CAST(${nanos.toString()} AS BIGINT)`;
  }

  protected dynamicLiteral(json: string): string {
    return `CAST(${this.text(json)} AS JSON)`;
  }
}
