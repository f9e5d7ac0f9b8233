// ClickHouse SQL for typed expressions. Representation: datetime = Int64 nanoseconds since the
// epoch (stored `DateTime64(9)` columns are read as such), timespan = Int64 nanoseconds, dynamic =
// JSON text (String), long = Int64, real = Float64, bool = Bool. Computing on nanosecond integers
// keeps datetime arithmetic exact and the same as the DuckDB dialect's. User text reaches SQL only
// through `quoteLiteral`, never raw.
import { quoteLiteral } from '../../../events/clickhouse/layout';
import type { LiteralValue } from '../../syntax/ast';
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import { callSql } from './functions';
import { operatorCallSql } from './operator-calls';

export const SQL_TYPE: Record<AplType, string> = {
  bool: 'Bool',
  int: 'Int64',
  real: 'Float64',
  string: 'String',
  datetime: 'Int64',
  timespan: 'Int64',
  dynamic: 'String',
  null: 'String',
};

/** The Nullable type of an APL type (every value may be null). */
export const nullableType = (type: AplType) => `Nullable(${SQL_TYPE[type]})`;

export class ExprWriter {
  /** SQL of a whole plan node, for expressions holding a subquery (`x in (T)`). */
  relationSql?: (rel: Rel) => string;

  /** @param column SQL for a column id (qualified inside joins). */
  constructor(readonly column: (id: string) => string) {}

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
    const writer = new ExprWriter(column);
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
        return operatorCallSql(this, expr) ?? callSql(this, expr);
    }
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

/** The literal string value of an expression, when it is one (for compile-time regexes). */
export function literalString(expr: TExpr): string | undefined {
  return expr.kind === 'literal' && expr.value.type === 'string' ? expr.value.value : undefined;
}
