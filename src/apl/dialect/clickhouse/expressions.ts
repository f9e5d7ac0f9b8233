// ClickHouse SQL for typed expressions. Representation: datetime = Int64 nanoseconds since the
// epoch (stored `DateTime64(9)` columns are read as such), timespan = Int64 nanoseconds, dynamic =
// JSON text (String), long = Int64, real = Float64, bool = Bool. Computing on nanosecond integers
// keeps datetime arithmetic exact and the same as the DuckDB dialect's. User text reaches SQL only
// through `quoteLiteral`, never raw. The walk is ../base/expressions.ts.
import { quoteLiteral } from '../../../engines/clickhouse/layout';
import type { AplType } from '../../semantic/plan';
import { type CallExpr, type RealText, SqlExprWriter } from '../base/expressions';
import { STRING_TOO_LONG } from '../dialect';
import { callSql } from './functions';
import { operatorCallSql } from './operator-calls';
import { nullableType } from './values';

export class ExprWriter extends SqlExprWriter<ExprWriter> {
  /** A string value as a literal (ClickHouse literals carry any text, NUL included). */
  text(value: string): string {
    return quoteLiteral(value);
  }

  constant(value: string): string {
    return quoteLiteral(value);
  }

  protected fork(column: (id: string) => string): ExprWriter {
    return new ExprWriter(column, this.maxStringBytes, this.lookupColumns);
  }

  protected callSql(expr: CallExpr): string {
    return operatorCallSql(this, expr) ?? callSql(this, expr);
  }

  /** The lambda evaluates the call once. */
  protected boundedSql(sql: string): string {
    return `arrayMap(bounded -> if(${this.tooLong('length(bounded)')} = 0, bounded, bounded), [${sql}])[1]`;
  }

  /** 0, or fails the statement when `lengthSql` passes `maxStringBytes`. */
  private tooLong(lengthSql: string): string {
    const limit = Math.floor(this.maxStringBytes ?? 0);
    return `throwIf(${lengthSql} > ${limit}, ${quoteLiteral(`${STRING_TOO_LONG} ${limit} bytes (APL_MAX_STRING_BYTES)`)})`;
  }

  /**
   * `sql`, checked first against the length it would build (for calls that multiply their
   * input, such as strrep), so nothing longer than `maxStringBytes` is ever built.
   */
  lengthGuarded(lengthSql: string, sql: string): string {
    if (this.maxStringBytes === undefined) return sql;
    return `if(${this.tooLong(lengthSql)} = 0, ${sql}, '')`;
  }

  protected nullLiteral(type: AplType): string {
    return `CAST(NULL AS ${nullableType(type)})`;
  }

  protected boolLiteral(value: boolean): string {
    return value ? 'true' : 'false';
  }

  protected intLiteral(digits: string): string {
    return `toInt64(${digits})`;
  }

  protected realLiteral(value: RealText): string {
    return typeof value === 'string' ? value : `toFloat64(${value.finite})`;
  }

  protected datetimeLiteral(nanos: bigint): string {
    return `toInt64(${nanos.toString()})`;
  }

  protected timespanLiteral(nanos: bigint): string {
    return `toInt64(${nanos.toString()})`;
  }

  protected dynamicLiteral(json: string): string {
    return this.text(json);
  }
}
