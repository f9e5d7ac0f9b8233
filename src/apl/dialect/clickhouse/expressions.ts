// ClickHouse SQL for typed expressions. Representation: datetime = Int64 nanoseconds since the
// epoch (stored `DateTime64(9)` columns are read as such), timespan = Int64 nanoseconds, dynamic =
// JSON text (String), long = Int64, real = Float64, bool = Bool. Computing on nanosecond integers
// keeps datetime arithmetic exact and the same as the DuckDB dialect's. User text reaches SQL only
// through `quoteLiteral`, never raw.
import { quoteLiteral } from '../../../events/clickhouse/layout';
import type { LiteralValue } from '../../syntax/ast';
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import { STRING_TOO_LONG } from '../dialect';
import { callSql } from './functions';
import { operatorCallSql } from './operator-calls';
import { nullableType } from './values';

const TEXT_TYPES: ReadonlySet<AplType> = new Set(['string', 'dynamic']);

export class ExprWriter {
  /** SQL of a whole plan node, for expressions holding a subquery (`x in (T)`). */
  relationSql?: (rel: Rel) => string;

  /**
   * @param column SQL for a column id (qualified inside joins).
   * @param maxStringBytes Longest string a call may produce (unbounded when undefined).
   */
  constructor(
    readonly column: (id: string) => string,
    readonly maxStringBytes?: number,
    /** The joined columns that answer each price lookup call (see ./pricing.ts). */
    readonly lookupColumns = new Map<TExpr, string>(),
  ) {}

  /** A string value as a literal (ClickHouse literals carry any text, NUL included). */
  text(value: string): string {
    return quoteLiteral(value);
  }

  /** A string constant (regex, JSON key, format), safely quoted. */
  constant(value: string): string {
    return quoteLiteral(value);
  }

  /** Writes a child expression with another column resolver (join keys). */
  withColumns(column: (id: string) => string): ExprWriter {
    const writer = new ExprWriter(column, this.maxStringBytes, this.lookupColumns);
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
   * Text built from text (strcat, replace, strrep, JSON packing, ...) can grow with every call:
   * such a call's result fails the statement once it is longer than `maxStringBytes`, as on the
   * DuckDB dialect, so no chain of calls can build more. The lambda evaluates the call once.
   */
  private bounded(expr: Extract<TExpr, { kind: 'call' }>, sql: string): string {
    if (this.maxStringBytes === undefined || !TEXT_TYPES.has(expr.type) || !expr.args.some((arg) => TEXT_TYPES.has(arg.type))) return sql;
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

  literal(value: LiteralValue, type: AplType): string {
    switch (value.type) {
      case 'null':
        return `CAST(NULL AS ${nullableType(type)})`;
      case 'bool':
        return value.value ? 'true' : 'false';
      case 'int':
        return `toInt64(${value.value.toString()})`;
      case 'real':
        if (Number.isNaN(value.value)) return 'nan';
        if (!Number.isFinite(value.value)) return value.value > 0 ? 'inf' : '-inf';
        return `toFloat64(${String(value.value)})`;
      case 'string':
        return this.text(value.value);
      case 'datetime':
      case 'timespan':
        return `toInt64(${value.nanos.toString()})`;
      case 'dynamic':
        return this.text(JSON.stringify(value.value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
    }
  }
}
