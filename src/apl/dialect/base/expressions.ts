// The expression writer every dialect shares: walks a typed expression, writes columns through a
// resolver (qualified inside joins), literals through the engine's spelling of each type, and
// calls through the engine's rule tables, guarding text that grows past `maxStringBytes`. An
// engine subclass gives the spellings; the walk, the resolver swap and the guard's placement are
// written once here.
import type { LiteralValue } from '../../syntax/ast';
import type { AplType, Rel, TExpr } from '../../semantic/plan';

export type CallExpr = Extract<TExpr, { kind: 'call' }>;

const TEXT_TYPES: ReadonlySet<AplType> = new Set(['string', 'dynamic']);

/** The spelling of a finite real literal, or of one of the three special values. */
export type RealText = 'nan' | 'inf' | '-inf' | { finite: string };

/** JSON text of a dynamic literal (longs as plain digits). */
export const dynamicJson = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

export abstract class SqlExprWriter<W extends SqlExprWriter<W>> {
  /** SQL of a whole plan node, for expressions holding a subquery (`x in (T)`). */
  relationSql?: (rel: Rel) => string;

  constructor(
    /** SQL for a column id (qualified inside joins). */
    readonly column: (id: string) => string,
    /** Longest string a call may produce (unbounded when undefined). */
    readonly maxStringBytes?: number,
    /** The joined columns that answer each price lookup call (see ../price-lookups.ts). */
    readonly lookupColumns = new Map<TExpr, string>(),
  ) {}

  /** A string value, safely quoted (or bound, where the engine's literals cannot carry it). */
  abstract text(value: string): string;

  /** A string constant the planner should see (regex, JSON path, format), safely quoted. */
  abstract constant(value: string): string;

  /** A writer sharing everything with this one but the column resolver. */
  protected abstract fork(column: (id: string) => string): W;

  /** The SQL of a call: an operator's internal call or a function, from the engine's rules. */
  protected abstract callSql(expr: CallExpr): string;

  /** `sql` (a text-valued call) failing the statement once its result passes `maxStringBytes` (set). */
  protected abstract boundedSql(sql: string): string;

  /** A null of the given type. */
  protected abstract nullLiteral(type: AplType): string;
  protected abstract boolLiteral(value: boolean): string;
  protected abstract intLiteral(digits: string): string;
  protected abstract realLiteral(value: RealText): string;
  /** An instant, as epoch nanoseconds. */
  protected abstract datetimeLiteral(nanos: bigint): string;
  protected abstract timespanLiteral(nanos: bigint): string;
  /** A dynamic value from its JSON text. */
  protected abstract dynamicLiteral(json: string): string;

  /** Writes a child expression with another column resolver (join keys). */
  withColumns(column: (id: string) => string): W {
    const writer = this.fork(column);
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
        return this.bounded(expr, this.callSql(expr));
    }
  }

  /**
   * Text built from text (strcat, replace, strrep, JSON packing, ...) can grow with every call:
   * such a call's result fails the statement once it is longer than `maxStringBytes`, so no
   * chain of calls can build more. Calls over no text cannot grow text and are left alone.
   */
  private bounded(expr: CallExpr, sql: string): string {
    if (this.maxStringBytes === undefined || !TEXT_TYPES.has(expr.type) || !expr.args.some((arg) => TEXT_TYPES.has(arg.type))) return sql;
    return this.boundedSql(sql);
  }

  literal(value: LiteralValue, type: AplType): string {
    switch (value.type) {
      case 'null':
        return this.nullLiteral(type);
      case 'bool':
        return this.boolLiteral(value.value);
      case 'int':
        return this.intLiteral(value.value.toString());
      case 'real':
        if (Number.isNaN(value.value)) return this.realLiteral('nan');
        if (!Number.isFinite(value.value)) return this.realLiteral(value.value > 0 ? 'inf' : '-inf');
        return this.realLiteral({ finite: String(value.value) });
      case 'string':
        return this.text(value.value);
      case 'datetime':
        return this.datetimeLiteral(value.nanos);
      case 'timespan':
        return this.timespanLiteral(value.nanos);
      case 'dynamic':
        return this.dynamicLiteral(dynamicJson(value.value));
    }
  }
}
