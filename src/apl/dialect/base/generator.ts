// The relation writer every dialect shares: turns a typed plan into one SELECT, each plan node a
// subquery whose columns are aliased by plan column id. Scan, filter, project, aggregate, sort,
// limit, union, window, join and the price-table joins are written here once, in portable SQL; an
// engine subclass gives what its SQL spells differently (identifiers, time literals, stored
// columns, sampling, null-safe equality, literal rows, the output form of each column), sets the
// feature flags below, and names its writers of the nodes with engine-specific SQL (aggregations,
// expansions, series). Expressions go through the engine's writer (./expressions.ts).
import { type AggregateCall, keptPositions, type Rel, type RelColumn, type SortKeyPlan, type TExpr, type WindowCall } from '../../semantic/plan';
import type { CompiledSql, CompileOptions, SqlValue } from '../dialect';
import { keepsOrder } from '../price-lookups';
import type { SqlExprWriter } from './expressions';

export type ScanRel = Extract<Rel, { op: 'scan' }>;
export type AggregateRel = Extract<Rel, { op: 'aggregate' }>;
export type JoinRel = Extract<Rel, { op: 'join' }>;
export type ValuesRel = Extract<Rel, { op: 'values' }>;
export type ExpandRel = Extract<Rel, { op: 'expand' }>;
export type SeriesRel = Extract<Rel, { op: 'series' }>;
export type SampleRel = Extract<Rel, { op: 'sample' }>;
export type JoinKind = JoinRel['kind'];

/** Syntax an engine has or lacks, where the portable form would not do. */
export interface GeneratorFeatures {
  /** Filters one over another become one WHERE (so long chains of `where` nest no deeper). */
  mergeFilterChains: boolean;
  /** GROUP BY names the group columns by position (`GROUP BY 1, 2`) rather than by alias. */
  groupByPosition: boolean;
  /** Each branch of a UNION ALL sits in parentheses. */
  parenthesizedUnionBranches: boolean;
  /** A join without keys is a CROSS JOIN (rather than `ON TRUE`). */
  crossJoinWithoutKeys: boolean;
  /** The operator kinds whose rows come in order, which joins must keep. */
  orderedSources: ReadonlySet<Rel['op']>;
  /** The keywords of a (left) semi join and a (left) anti join; right ones are swapped to left ones. */
  semiJoin: string;
  antiJoin: string;
}

/** The engine's writers of what a node computes beyond plain SQL (each in its own module). */
export interface NodeWriters<W> {
  /** The FROM item of `inputSql` with the price table joined for the lookups in `exprs`, or undefined when they make none (../price-lookups.ts). */
  joinPriceLookups(writer: W, inputSql: string, alias: string, exprs: readonly TExpr[], nextLookup: () => number, ordered: boolean): string | undefined;
  /** The SQL of an aggregate node priced per era (./pricing-rollup.ts), or undefined when it does not qualify. */
  rolledUpPricing(writer: W, rel: AggregateRel, inputSql: () => string, boundaries: readonly bigint[] | undefined, nextLookup: () => number): string | undefined;
  aggregateSql(writer: W, agg: AggregateCall): string;
  windowSql(writer: W, call: WindowCall): string;
  expandSql(writer: W, rel: ExpandRel, kept: number[], inputSql: string): string;
  seriesSql(writer: W, rel: SeriesRel, inputSql: string): string;
}

/** The join written for each APL join kind: standard SQL, but for semi and anti joins (the engine's). */
function joinKeyword(kind: JoinKind, features: GeneratorFeatures): string {
  switch (kind) {
    case 'inner':
    case 'innerunique':
      return 'INNER JOIN';
    case 'leftouter':
      return 'LEFT OUTER JOIN';
    case 'rightouter':
      return 'RIGHT OUTER JOIN';
    case 'fullouter':
      return 'FULL OUTER JOIN';
    case 'leftsemi':
    case 'rightsemi':
      return features.semiJoin;
    case 'leftanti':
    case 'rightanti':
      return features.antiJoin;
  }
}

/** Sort keys as `ORDER BY` writes them, nulls placed explicitly. */
export function orderKeysSql(writer: { write(expr: TExpr): string }, keys: readonly SortKeyPlan[]): string {
  return keys.map((key) => `${writer.write(key.expr)} ${key.desc ? 'DESC' : 'ASC'} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ');
}

export abstract class SqlGenerator<W extends SqlExprWriter<W>> {
  private lookups = 0;
  protected abstract readonly features: GeneratorFeatures;
  protected abstract readonly nodes: NodeWriters<W>;

  /** Per node, the columns something above reads; scans and projections leave out the rest. */
  constructor(
    protected readonly writer: W,
    private readonly required: Map<Rel, Set<string>>,
    protected readonly options: CompileOptions,
  ) {
    writer.relationSql = (rel) => this.rel(rel);
  }

  /** A plan column id (or any name the generator makes up) as an identifier. */
  protected abstract id(columnId: string): string;

  /** A stored column read as the column `column` of the plan (in the form the engine computes with). */
  protected abstract scanItem(column: RelColumn, source: string): string;
  /** A stored system column (time, row id) as the scan's bounds compare it. */
  protected abstract storedColumn(source: string): string;
  /** An instant in the stored time column's type. */
  protected abstract storedInstant(nanos: bigint): string;
  protected abstract sample(rel: SampleRel, inputSql: string): string;
  /** `l = r` where nulls match nulls. */
  protected abstract nullSafeEquals(left: string, right: string): string;
  /** The right side of an `innerunique` join: one row per key (the first match). */
  protected abstract firstPerKey(rightSql: string, keys: string[]): string;
  protected abstract values(rel: ValuesRel): string;
  /** How a result column leaves the database (a form `decodeValue` understands). */
  protected abstract outputColumn(column: RelColumn): string;
  /** Parameters bound to the statement (none unless the engine binds some). */
  protected params(): SqlValue[] {
    return [];
  }

  protected tableName(table: string): string {
    return this.id(table);
  }

  /** The value one branch of a union gives a column of the union (the engine may need a common type). */
  protected unionItem(sql: string, _column: RelColumn): string {
    return sql;
  }

  /** Positions of the node's columns to write: those required, at least one. */
  protected kept(rel: Rel): number[] {
    return keptPositions(rel, this.required.get(rel));
  }

  protected expr(expr: TExpr): string {
    return this.writer.write(expr);
  }

  private readonly nextLookup = () => this.lookups++;

  /**
   * `(input) AS alias`, with the price table joined when `exprs` (what the node computes over
   * its input) look models up. Call it before writing `exprs`.
   */
  protected from(input: Rel, exprs: readonly TExpr[], alias = 't'): string {
    const sql = this.rel(input);
    return this.joinPrices(sql, alias, exprs, this.keepsOrder(input)) ?? `(${sql}) AS ${alias}`;
  }

  /** The FROM item of `inputSql` with the price table joined for the lookups in `exprs`, or undefined when they make none. */
  protected joinPrices(inputSql: string, alias: string, exprs: readonly TExpr[], ordered: boolean): string | undefined {
    return this.nodes.joinPriceLookups(this.writer, inputSql, alias, exprs, this.nextLookup, ordered);
  }

  /** True when the rows of `rel` come in an order the nodes above must keep. */
  protected keepsOrder(rel: Rel): boolean {
    return keepsOrder(rel, this.features.orderedSources);
  }

  /**
   * A SELECT of every column of `input`, with the price table joined when `exprs` look models
   * up: a join side (`role` 'join') or the input of an expansion.
   */
  protected lookupInput(input: Rel, exprs: readonly TExpr[], _role: 'join' | 'expand'): string {
    return `SELECT * FROM ${this.from(input, exprs)}`;
  }

  rel(rel: Rel): string {
    switch (rel.op) {
      case 'scan':
        return this.scan(rel);
      case 'filter':
        return this.filter(rel);
      case 'project': {
        const kept = this.kept(rel);
        const from = this.from(rel.input, kept.map((i) => rel.exprs[i]!));
        const items = kept.map((i) => `${this.expr(rel.exprs[i]!)} AS ${this.id(rel.columns[i]!.id)}`);
        return `SELECT ${items.join(', ')} FROM ${from}`;
      }
      case 'aggregate':
        return this.aggregate(rel);
      case 'sort':
        return this.sort(rel);
      case 'limit': {
        // ORDER BY + LIMIT in one SELECT lets the engine run a top-N instead of a full sort.
        if (rel.input.op === 'sort') return `${this.sort(rel.input)} LIMIT ${rel.count}`;
        return `SELECT * FROM (${this.rel(rel.input)}) AS t LIMIT ${rel.count}`;
      }
      case 'sample':
        return this.sample(rel, this.rel(rel.input));
      case 'union':
        return this.union(rel);
      case 'join':
        return this.join(rel);
      case 'values':
        return this.values(rel);
      case 'window': {
        const items = rel.functions.map((fn, i) => `${this.nodes.windowSql(this.writer, fn)} AS ${this.id(rel.columns[rel.input.columns.length + i]!.id)}`);
        return `SELECT *, ${items.join(', ')} FROM (${this.rel(rel.input)}) AS t`;
      }
      case 'expand': {
        const kept = this.kept(rel);
        const reads = [...rel.expansions.map((expansion) => expansion.expr), ...kept.flatMap((i) => (rel.outputs[i]!.kind === 'input' ? [rel.outputs[i]!.expr] : []))];
        return this.nodes.expandSql(this.writer, rel, kept, this.lookupInput(rel.input, reads, 'expand'));
      }
      case 'series':
        return this.nodes.seriesSql(this.writer, rel, this.rel(rel.input));
    }
  }

  private filter(rel: Extract<Rel, { op: 'filter' }>): string {
    const predicates = [rel.predicate];
    let input = rel.input;
    while (this.features.mergeFilterChains && input.op === 'filter') {
      predicates.unshift(input.predicate);
      input = input.input;
    }
    const from = this.from(input, predicates);
    const where = predicates.length === 1 ? this.expr(rel.predicate) : predicates.map((predicate) => `(${this.expr(predicate)})`).join(' AND ');
    return `SELECT * FROM ${from} WHERE ${where}`;
  }

  private aggregate(rel: AggregateRel): string {
    const rolled = this.nodes.rolledUpPricing(this.writer, rel, () => this.rel(rel.input), this.options.priceBoundaries, this.nextLookup);
    if (rolled !== undefined) return rolled;
    const from = this.from(rel.input, [...rel.groups, ...rel.aggregates.flatMap((agg) => (agg.filter ? [...agg.args, agg.filter] : agg.args))]);
    const groups = rel.groups.map((group, i) => `${this.expr(group)} AS ${this.id(rel.columns[i]!.id)}`);
    const aggregates = rel.aggregates.map((agg, i) => `${this.nodes.aggregateSql(this.writer, agg)} AS ${this.id(rel.columns[rel.groups.length + i]!.id)}`);
    const keys = rel.groups.map((_, i) => (this.features.groupByPosition ? String(i + 1) : this.id(rel.columns[i]!.id)));
    const groupBy = keys.length ? ` GROUP BY ${keys.join(', ')}` : '';
    return `SELECT ${[...groups, ...aggregates].join(', ')} FROM ${from}${groupBy}`;
  }

  private union(rel: Extract<Rel, { op: 'union' }>): string {
    const branches = rel.inputs.map((input) => {
      const kept = this.kept(rel);
      const from = this.from(input.rel, kept.map((i) => input.exprs[i]!));
      const items = kept.map((i) => `${this.unionItem(this.expr(input.exprs[i]!), rel.columns[i]!)} AS ${this.id(rel.columns[i]!.id)}`);
      return `SELECT ${items.join(', ')} FROM ${from}`;
    });
    return (this.features.parenthesizedUnionBranches ? branches.map((sql) => `(${sql})`) : branches).join(' UNION ALL ');
  }

  private scan(rel: ScanRel): string {
    const items = this.kept(rel).map((i) => {
      const column = rel.columns[i]!;
      return `${this.scanItem(column, rel.sourceColumns.get(column.id)!)} AS ${this.id(column.id)}`;
    });
    const where = this.scanConditions(rel);
    return `SELECT ${items.join(', ')} FROM ${this.tableName(rel.dataset.table)}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  }

  /** The conditions of a scan's WHERE: its time range and its cursor. */
  protected scanConditions(rel: ScanRel): string[] {
    const time = this.storedColumn(rel.sourceColumns.get(rel.timeColumnId)!);
    const rowId = this.storedColumn(rel.sourceColumns.get(rel.rowIdColumnId)!);
    const where: string[] = [];
    if (rel.range?.startNanos !== undefined) where.push(`${time} >= ${this.storedInstant(rel.range.startNanos)}`);
    if (rel.range?.endNanos !== undefined) where.push(`${time} <= ${this.storedInstant(rel.range.endNanos)}`);
    if (rel.cursor) {
      const { timeNanos, rowId: cursorRowId, direction, inclusive } = rel.cursor;
      const timeOp = direction === 'desc' ? '<' : '>';
      const rowOp = `${timeOp}${inclusive ? '=' : ''}`;
      const at = this.storedInstant(timeNanos);
      // The bare bound on _time lets the engine skip row groups (granules); the pair makes the order total.
      where.push(`${time} ${timeOp}= ${at}`);
      where.push(`(${time} ${timeOp} ${at} OR (${time} = ${at} AND ${rowId} ${rowOp} ${cursorRowId.toString()}))`);
    }
    return where;
  }

  private sort(rel: Extract<Rel, { op: 'sort' }>): string {
    const from = this.from(rel.input, rel.keys.map((key) => key.expr));
    return `SELECT * FROM ${from} ORDER BY ${orderKeysSql(this.writer, rel.keys)}`;
  }

  private join(rel: JoinRel): string {
    // Each side with the price table joined when its keys look models up.
    const leftSql = this.lookupInput(rel.left, rel.keys.map((key) => key.left), 'join');
    let rightSql = this.lookupInput(rel.right, rel.keys.map((key) => key.right), 'join');
    // Right semi and anti joins are written as their left forms with the sides swapped.
    const swapped = rel.kind === 'rightsemi' || rel.kind === 'rightanti';
    const leftAlias = swapped ? 'r' : 'l';
    const rightAlias = swapped ? 'l' : 'r';
    const left = this.writer.withColumns((columnId) => `l.${this.id(columnId)}`);
    const right = this.writer.withColumns((columnId) => `r.${this.id(columnId)}`);
    const on = rel.keys.map((key) => (rel.nullSafe ? this.nullSafeEquals(left.write(key.left), right.write(key.right)) : `${left.write(key.left)} = ${right.write(key.right)}`)).join(' AND ');
    // One right row per key: the first match, as Axiom describes innerunique.
    if (rel.kind === 'innerunique') rightSql = this.firstPerKey(rightSql, rel.keys.map((key) => this.expr(key.right)));
    const items = this.kept(rel).map((i) => {
      const source = rel.sources[i]!;
      return `${source.side === 'left' ? 'l' : 'r'}.${this.id(source.id)} AS ${this.id(rel.columns[i]!.id)}`;
    });
    const first = `(${swapped ? rightSql : leftSql}) AS ${leftAlias}`;
    const second = `(${swapped ? leftSql : rightSql}) AS ${rightAlias}`;
    if (!on && this.features.crossJoinWithoutKeys) return `SELECT ${items.join(', ')} FROM ${first} CROSS JOIN ${second}`;
    return `SELECT ${items.join(', ')} FROM ${first} ${joinKeyword(rel.kind, this.features)} ${second} ON ${on || 'TRUE'}`;
  }

  /** The rows of a literal table with no rows: one typed null per column, filtered out. */
  protected emptyValues(rel: ValuesRel, typeOf: (column: RelColumn) => string, falseSql: string): string {
    const items = rel.columns.map((column) => `CAST(NULL AS ${typeOf(column)}) AS ${this.id(column.id)}`);
    return `SELECT ${items.join(', ')} WHERE ${falseSql}`;
  }

  /**
   * Per row of a literal table, the FROM item with the price table joined when the row looks
   * models up (`print genai_cost(...)`); undefined when no row does.
   */
  protected valuesLookups(rel: ValuesRel): (string | undefined)[] | undefined {
    const lookups = rel.rows.map((row) => this.joinPrices('SELECT 1 AS one', 't', row, false));
    return lookups.some((from) => from !== undefined) ? lookups : undefined;
  }

  /** The whole statement: the plan's `columns`, in order, in the form results are decoded from. */
  compile(rel: Rel, columns: RelColumn[]): CompiledSql {
    const body = this.rel(rel);
    const sql = `SELECT ${columns.map((column) => this.outputColumn(column)).join(', ')} FROM (${body}) AS result`;
    return { sql, params: this.params() };
  }
}
