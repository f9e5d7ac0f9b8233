// DuckDB SQL for typed expressions. Representation: datetime = TIMESTAMP_NS, timespan = BIGINT
// nanoseconds, dynamic = JSON text, long = BIGINT, real = DOUBLE. User text reaches SQL only
// through `quoteLiteral` (or a statement parameter), never raw.
import { quoteLiteral } from '../../../events/layout';
import type { LiteralValue } from '../../syntax/ast';
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import type { SqlValue } from '../dialect';
import { callSql } from './functions';
import { operatorCallSql } from './operator-calls';
import { SQL_TYPE } from './values';

export { literalString, SQL_TYPE } from './values';

export class ExprWriter {
  /** SQL of a whole plan node, for expressions holding a subquery (`x in (T)`). */
  relationSql?: (rel: Rel) => string;

  constructor(
    private readonly params: SqlValue[],
    /** SQL for a column id (qualified inside joins). */
    readonly column: (id: string) => string,
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

  /** A string constant the planner must see (regex, JSON path, format), safely quoted. */
  constant(value: string): string {
    return quoteLiteral(value);
  }

  /** Writes a child expression with another column resolver (join keys). */
  withColumns(column: (id: string) => string): ExprWriter {
    const writer = new ExprWriter(this.params, column, this.lookupColumns);
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
