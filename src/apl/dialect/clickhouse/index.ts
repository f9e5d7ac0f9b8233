// The ClickHouse dialect: turns a typed plan into one SELECT over the dataset tables, beside the
// DuckDB dialect and from the same plan. Each plan node becomes a subquery whose columns are
// aliased by plan column id; ClickHouse pushes filters down to the scans, where the bounds on
// `_time` select the granules of the (`_time`, `_rowId`) order key. The relation writer is
// ../base/generator.ts; this file gives ClickHouse's spellings.
import { columnIdentifier, dateTime64Sql, quoteIdentifier } from '../../../engines/clickhouse/layout';
import { type Rel, type RelColumn, requiredColumns, type TExpr } from '../../semantic/plan';
import { type GeneratorFeatures, type NodeWriters, orderKeysSql, type SampleRel, SqlGenerator, type ValuesRel } from '../base/generator';
import type { CompiledSql, CompileOptions, SqlDialect } from '../dialect';
import { aggregateSql } from './aggregates';
import { ExprWriter } from './expressions';
import { nullableType } from './values';
import { joinPriceLookups } from './pricing';
import { rolledUpPricing } from './pricing-rollup';
import { compileAnsweringServerCalls } from './server-statement';
import { expandSql, seriesSql, windowSql } from './relations';
import { type FilteredScan, type FlatAggregate, type FlatScan, flatAggregateOf, flatScanOf } from './flat-scans';

const id = (columnId: string) => quoteIdentifier(columnId);

/** Settings the dialect's statements need: outer joins give nulls, unaligned expansions pad. */
export const CLICKHOUSE_QUERY_SETTINGS = {
  join_use_nulls: 1,
  enable_unaligned_array_join: 1,
  enable_extended_results_for_datetime_functions: 1,
  output_format_json_escape_forward_slashes: 0,
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_denormals: 0,
  // APL bounds a query's nesting and operators (src/apl/limits.ts); each operator is a
  // subquery here, so ClickHouse's own depth limits are set past what APL allows.
  max_parser_depth: 20000,
  max_ast_depth: 20000,
  max_subquery_depth: 2000,
};

const FEATURES: GeneratorFeatures = {
  mergeFilterChains: true,
  groupByPosition: false,
  parenthesizedUnionBranches: true,
  crossJoinWithoutKeys: true,
  semiJoin: 'LEFT SEMI JOIN',
  antiJoin: 'LEFT ANTI JOIN',
  // Sorts, and literal rows (read back in order by `values` below).
  orderedSources: new Set(['sort', 'values']),
};

const NODES: NodeWriters<ExprWriter> = { joinPriceLookups, rolledUpPricing, aggregateSql, windowSql, expandSql, seriesSql };

class Generator extends SqlGenerator<ExprWriter> {
  protected readonly features = FEATURES;
  protected readonly nodes = NODES;

  constructor(required: Map<Rel, Set<string>>, options: CompileOptions) {
    super(new ExprWriter(id, options.maxStringBytes), required, options);
  }

  protected id(columnId: string): string {
    return id(columnId);
  }

  /** Filters, a sort by time, a summarize and a limit straight over a scan are written as one SELECT (./flat-scans.ts). */
  override rel(rel: Rel): string {
    const flat = flatScanOf(rel);
    // A bare scan is the base writer's.
    if (flat && (flat.predicates.length > 0 || flat.order !== undefined || flat.limit !== undefined)) {
      return this.flatScanSql(flat, this.kept(flat.scan).map((i) => flat.scan.columns[i]!));
    }
    const aggregate = flatAggregateOf(rel);
    if (aggregate) return this.flatAggregateSql(aggregate);
    return super.rel(rel);
  }

  /**
   * A flat statement whose columns are the statement's, in its order, is the whole statement: the
   * SELECT that would pick them from it is left out (ClickHouse plans each SELECT anew).
   */
  override compile(rel: Rel, columns: RelColumn[]): CompiledSql {
    const ids = columns.map((column) => column.id);
    const flat = flatScanOf(rel);
    if (flat) {
      const scanColumns = new Set(flat.scan.columns.map((column) => column.id));
      const kept = this.kept(flat.scan).map((i) => flat.scan.columns[i]!.id);
      if (new Set(ids).size === ids.length && ids.every((columnId) => scanColumns.has(columnId)) && kept.every((columnId) => ids.includes(columnId))) {
        return { sql: this.flatScanSql(flat, columns), params: [] };
      }
    }
    const aggregate = flatAggregateOf(rel);
    if (aggregate && aggregate.aggregate.columns.length === ids.length && aggregate.aggregate.columns.every((column, i) => column.id === ids[i])) {
      return { sql: this.flatAggregateSql(aggregate), params: [] };
    }
    return super.compile(rel, columns);
  }

  /** The table and the WHERE of a flat statement: the scan's range and cursor, and the filters. */
  private flatSource({ scan, predicates }: FilteredScan): string {
    const where = [...this.scanConditions(scan), ...predicates.map((predicate) => `(${this.expr(predicate)})`)];
    return `${this.tableName(scan.dataset.table)}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  }

  /** Scan items, as the base writer writes them. */
  private scanItems(scan: FilteredScan['scan'], items: readonly RelColumn[]): string[] {
    return items.map((column) => `${this.scanItem(column, scan.sourceColumns.get(column.id)!)} AS ${id(column.id)}`);
  }

  /** `SELECT <items of the scan> FROM <table> WHERE <range, cursor, filters> ORDER BY ... LIMIT ...`. */
  private flatScanSql(flat: FlatScan, items: readonly RelColumn[]): string {
    const order = flat.order !== undefined ? ` ORDER BY ${flat.order}` : '';
    const limit = flat.limit !== undefined ? ` LIMIT ${flat.limit}` : '';
    return `SELECT ${this.scanItems(flat.scan, items).join(', ')} FROM ${this.flatSource(flat)}${order}${limit}`;
  }

  /**
   * `WITH <items of the scan> SELECT <groups>, <aggregates> FROM <table> WHERE ... GROUP BY ...
   * ORDER BY ... LIMIT ...`: the scan's items are named in WITH, where the groups, aggregates and
   * filters read them as they read the scan's columns.
   */
  private flatAggregateSql({ aggregate, under, sort, limit }: FlatAggregate): string {
    const { scan } = under;
    const scanItems = this.scanItems(scan, this.kept(scan).map((i) => scan.columns[i]!));
    const groups = aggregate.groups.map((group, i) => `${this.expr(group)} AS ${id(aggregate.columns[i]!.id)}`);
    const aggregates = aggregate.aggregates.map((agg, i) => `${this.nodes.aggregateSql(this.writer, agg)} AS ${id(aggregate.columns[aggregate.groups.length + i]!.id)}`);
    const groupBy = groups.length ? ` GROUP BY ${aggregate.groups.map((_, i) => id(aggregate.columns[i]!.id)).join(', ')}` : '';
    const order = sort ? ` ORDER BY ${orderKeysSql(this.writer, sort)}` : '';
    const limited = limit !== undefined ? ` LIMIT ${limit}` : '';
    return `WITH ${scanItems.join(', ')} SELECT ${[...groups, ...aggregates].join(', ')} FROM ${this.flatSource(under)}${groupBy}${order}${limited}`;
  }

  /** An input without lookups is read as it is; join sides need not come back in order. */
  protected override lookupInput(input: Rel, exprs: readonly TExpr[], role: 'join' | 'expand'): string {
    const sql = this.rel(input);
    const joined = this.joinPrices(sql, 't', exprs, role === 'expand' && this.keepsOrder(input));
    return joined ? `SELECT * FROM ${joined}` : sql;
  }

  /** Datetimes are computed on as nanoseconds (see expressions.ts). */
  protected scanItem(column: RelColumn, source: string): string {
    const stored = columnIdentifier(source);
    return column.type === 'datetime' ? `toUnixTimestamp64Nano(${stored})` : stored;
  }

  protected storedColumn(source: string): string {
    return columnIdentifier(source);
  }

  protected storedInstant(nanos: bigint): string {
    return dateTime64Sql(nanos);
  }

  protected sample(rel: SampleRel, inputSql: string): string {
    if (rel.fraction !== undefined) return `SELECT * FROM (${inputSql}) AS t WHERE randCanonical() < ${rel.fraction}`;
    return `SELECT * FROM (${inputSql}) AS t ORDER BY rand() LIMIT ${rel.rows}`;
  }

  /** Branches agree on one Nullable type per column. */
  protected override unionItem(sql: string, column: RelColumn): string {
    return `CAST(${sql} AS ${nullableType(column.type)})`;
  }

  protected nullSafeEquals(left: string, right: string): string {
    return `isNotDistinctFrom(${left}, ${right})`;
  }

  protected firstPerKey(rightSql: string, keys: string[]): string {
    return `SELECT * FROM (${rightSql}) AS t LIMIT 1 BY ${keys.join(', ')}`;
  }

  protected values(rel: ValuesRel): string {
    const type = (column: RelColumn) => nullableType(column.type);
    if (rel.rows.length === 0) return this.emptyValues(rel, type, '0');
    // Rows that look models up are each a SELECT over one row with the price table joined,
    // numbered so that they come back in order.
    const lookups = this.valuesLookups(rel);
    if (lookups) {
      const selects = rel.rows.map((row, r) => {
        const items = row.map((value, i) => `CAST(${this.expr(value)} AS ${type(rel.columns[i]!)}) AS ${id(rel.columns[i]!.id)}`);
        return `(SELECT ${r} AS __row, ${items.join(', ')} FROM ${lookups[r] ?? '(SELECT 1 AS one) AS t'})`;
      });
      return `SELECT ${rel.columns.map((column) => id(column.id)).join(', ')} FROM (${selects.join(' UNION ALL ')}) AS t ORDER BY __row`;
    }
    // Each value is cast to its column's type so every row agrees. One array of row tuples keeps
    // the rows in order (the branches of a UNION ALL may come back in any order).
    const tuples = rel.rows.map((row) => `tuple(${row.map((value, i) => `CAST(${this.expr(value)} AS ${type(rel.columns[i]!)})`).join(', ')})`);
    const items = rel.columns.map((column, i) => `r.${i + 1} AS ${id(column.id)}`);
    return `SELECT ${items.join(', ')} FROM (SELECT arrayJoin([${tuples.join(', ')}]) AS r) AS t`;
  }

  /** Datetimes are already nanoseconds and dynamic values JSON text: columns leave as they are. */
  protected outputColumn(column: RelColumn): string {
    return id(column.id);
  }
}

/** The statement of a plan whose every call has its SQL (server calls answered). */
function compileStatement(rel: Rel, columns: RelColumn[], options: CompileOptions): CompiledSql {
  return new Generator(requiredColumns(rel, columns), options).compile(rel, columns);
}

export const clickhouseDialect: SqlDialect = {
  name: 'clickhouse',
  compile(rel: Rel, columns: RelColumn[], options: CompileOptions = {}): CompiledSql {
    // Functions ClickHouse cannot express are answered by the server (./server-statement.ts).
    return compileAnsweringServerCalls(rel, columns, options, compileStatement);
  },
};
