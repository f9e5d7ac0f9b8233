// The ClickHouse dialect: turns a typed plan into one SELECT over the dataset tables, beside the
// DuckDB dialect and from the same plan. Each plan node becomes a subquery whose columns are
// aliased by plan column id; ClickHouse pushes filters down to the scans, where the bounds on
// `_time` select the granules of the (`_time`, `_rowId`) order key.
import { columnIdentifier, dateTime64Sql, quoteIdentifier } from '../../../events/clickhouse/layout';
import { keptPositions, type Rel, type RelColumn, requiredColumns, type TExpr } from '../../semantic/plan';
import type { CompiledSql, CompileOptions, SqlDialect } from '../dialect';
import { aggregateSql } from './aggregates';
import { ExprWriter } from './expressions';
import { nullableType } from './values';
import { keepsOrder } from '../price-lookups';
import { joinPriceLookups } from './pricing';
import { rolledUpPricing } from './pricing-rollup';
import { expandSql, seriesSql, windowSql } from './relations';

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

class Generator {
  private readonly writer: ExprWriter;
  private lookups = 0;

  /** Per node, the columns something above reads; scans and projections leave out the rest. */
  constructor(
    private readonly required: Map<Rel, Set<string>>,
    private readonly options: CompileOptions,
  ) {
    this.writer = new ExprWriter(id, options.maxStringBytes);
    this.writer.relationSql = (rel) => this.rel(rel);
  }

  private kept(rel: Rel): number[] {
    return keptPositions(rel, this.required.get(rel));
  }

  expr(expr: TExpr): string {
    return this.writer.write(expr);
  }

  /**
   * `(input) AS alias`, with the price table joined when `exprs` (what the node computes over
   * its input) look models up (see ./pricing.ts). Call it before writing `exprs`.
   */
  private from(input: Rel, exprs: readonly TExpr[], alias = 't'): string {
    const sql = this.rel(input);
    return joinPriceLookups(this.writer, sql, alias, exprs, () => this.lookups++, keepsOrder(input, ORDERED)) ?? `(${sql}) AS ${alias}`;
  }

  rel(rel: Rel): string {
    switch (rel.op) {
      case 'scan':
        return this.scan(rel);
      case 'filter': {
        // Filters one over another become one WHERE, so long chains of `where` nest no deeper.
        const predicates = [rel.predicate];
        let input = rel.input;
        while (input.op === 'filter') {
          predicates.unshift(input.predicate);
          input = input.input;
        }
        const from = this.from(input, predicates);
        const where = predicates.length === 1 ? this.expr(rel.predicate) : predicates.map((predicate) => `(${this.expr(predicate)})`).join(' AND ');
        return `SELECT * FROM ${from} WHERE ${where}`;
      }
      case 'project': {
        const kept = this.kept(rel);
        const from = this.from(rel.input, kept.map((i) => rel.exprs[i]!));
        const items = kept.map((i) => `${this.expr(rel.exprs[i]!)} AS ${id(rel.columns[i]!.id)}`);
        return `SELECT ${items.join(', ')} FROM ${from}`;
      }
      case 'aggregate': {
        const rolled = rolledUpPricing(this.writer, rel, () => this.rel(rel.input), this.options.priceBoundaries, () => this.lookups++);
        if (rolled !== undefined) return rolled;
        const from = this.from(rel.input, [...rel.groups, ...rel.aggregates.flatMap((agg) => (agg.filter ? [...agg.args, agg.filter] : agg.args))]);
        const groups = rel.groups.map((group, i) => `${this.expr(group)} AS ${id(rel.columns[i]!.id)}`);
        const aggregates = rel.aggregates.map((agg, i) => `${aggregateSql(this.writer, agg)} AS ${id(rel.columns[rel.groups.length + i]!.id)}`);
        const groupBy = rel.groups.length ? ` GROUP BY ${rel.groups.map((_, i) => id(rel.columns[i]!.id)).join(', ')}` : '';
        return `SELECT ${[...groups, ...aggregates].join(', ')} FROM ${from}${groupBy}`;
      }
      case 'sort':
        return this.sort(rel);
      case 'limit': {
        if (rel.input.op === 'sort') return `${this.sort(rel.input)} LIMIT ${rel.count}`;
        return `SELECT * FROM (${this.rel(rel.input)}) AS t LIMIT ${rel.count}`;
      }
      case 'sample': {
        if (rel.fraction !== undefined) return `SELECT * FROM (${this.rel(rel.input)}) AS t WHERE randCanonical() < ${rel.fraction}`;
        return `SELECT * FROM (${this.rel(rel.input)}) AS t ORDER BY rand() LIMIT ${rel.rows}`;
      }
      case 'union':
        return rel.inputs
          .map((input) => {
            const kept = this.kept(rel);
            const from = this.from(input.rel, kept.map((i) => input.exprs[i]!));
            const items = kept.map((i) => `CAST(${this.expr(input.exprs[i]!)} AS ${nullableType(rel.columns[i]!.type)}) AS ${id(rel.columns[i]!.id)}`);
            return `SELECT ${items.join(', ')} FROM ${from}`;
          })
          .map((sql) => `(${sql})`)
          .join(' UNION ALL ');
      case 'join':
        return this.join(rel);
      case 'values':
        return this.values(rel);
      case 'window': {
        const items = rel.functions.map((fn, i) => `${windowSql(this.writer, fn)} AS ${id(rel.columns[rel.input.columns.length + i]!.id)}`);
        return `SELECT *, ${items.join(', ')} FROM (${this.rel(rel.input)}) AS t`;
      }
      case 'expand': {
        const kept = this.kept(rel);
        const reads = [...rel.expansions.map((expansion) => expansion.expr), ...kept.flatMap((i) => (rel.outputs[i]!.kind === 'input' ? [rel.outputs[i]!.expr] : []))];
        const input = this.rel(rel.input);
        const joined = joinPriceLookups(this.writer, input, 't', reads, () => this.lookups++, keepsOrder(rel.input, ORDERED));
        return expandSql(this.writer, rel, kept, joined ? `SELECT * FROM ${joined}` : input);
      }
      case 'series':
        return seriesSql(this.writer, rel, this.rel(rel.input));
    }
  }

  private scan(rel: Extract<Rel, { op: 'scan' }>): string {
    const time = columnIdentifier(rel.sourceColumns.get(rel.timeColumnId)!);
    const rowId = columnIdentifier(rel.sourceColumns.get(rel.rowIdColumnId)!);
    const items = this.kept(rel).map((i) => {
      const column = rel.columns[i]!;
      const source = columnIdentifier(rel.sourceColumns.get(column.id)!);
      // Datetimes are computed on as nanoseconds (see expressions.ts).
      const value = column.type === 'datetime' ? `toUnixTimestamp64Nano(${source})` : source;
      return `${value} AS ${id(column.id)}`;
    });
    const where: string[] = [];
    if (rel.range?.startNanos !== undefined) where.push(`${time} >= ${dateTime64Sql(rel.range.startNanos)}`);
    if (rel.range?.endNanos !== undefined) where.push(`${time} <= ${dateTime64Sql(rel.range.endNanos)}`);
    if (rel.cursor) {
      const { timeNanos, rowId: cursorRowId, direction, inclusive } = rel.cursor;
      const timeOp = direction === 'desc' ? '<' : '>';
      const rowOp = `${timeOp}${inclusive ? '=' : ''}`;
      const at = dateTime64Sql(timeNanos);
      // The bare bound on _time selects granules by the order key; the pair makes the order total.
      where.push(`${time} ${timeOp}= ${at}`);
      where.push(`(${time} ${timeOp} ${at} OR (${time} = ${at} AND ${rowId} ${rowOp} ${cursorRowId.toString()}))`);
    }
    const table = quoteIdentifier(rel.dataset.table);
    return `SELECT ${items.join(', ')} FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  }

  private sort(rel: Extract<Rel, { op: 'sort' }>): string {
    const from = this.from(rel.input, rel.keys.map((key) => key.expr));
    const keys = rel.keys.map((key) => `${this.expr(key.expr)} ${key.desc ? 'DESC' : 'ASC'} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`);
    return `SELECT * FROM ${from} ORDER BY ${keys.join(', ')}`;
  }

  /** The SQL of a join side, with the price table joined when its keys look models up. */
  private side(input: Rel, keys: readonly TExpr[]): string {
    const sql = this.rel(input);
    const joined = joinPriceLookups(this.writer, sql, 't', keys, () => this.lookups++);
    return joined ? `SELECT * FROM ${joined}` : sql;
  }

  private join(rel: Extract<Rel, { op: 'join' }>): string {
    const leftSql = this.side(rel.left, rel.keys.map((key) => key.left));
    let rightSql = this.side(rel.right, rel.keys.map((key) => key.right));
    // Right semi and anti joins are written as their left forms with the sides swapped.
    const swapped = rel.kind === 'rightsemi' || rel.kind === 'rightanti';
    const leftAlias = swapped ? 'r' : 'l';
    const rightAlias = swapped ? 'l' : 'r';
    const left = this.writer.withColumns((columnId) => `l.${id(columnId)}`);
    const right = this.writer.withColumns((columnId) => `r.${id(columnId)}`);
    const on = rel.keys
      .map((key) => (rel.nullSafe ? `isNotDistinctFrom(${left.write(key.left)}, ${right.write(key.right)})` : `${left.write(key.left)} = ${right.write(key.right)}`))
      .join(' AND ');
    if (rel.kind === 'innerunique') {
      // One right row per key: the first match, as Axiom describes innerunique.
      rightSql = `SELECT * FROM (${rightSql}) AS t LIMIT 1 BY ${rel.keys.map((key) => this.expr(key.right)).join(', ')}`;
    }
    const items = this.kept(rel).map((i) => {
      const source = rel.sources[i]!;
      return `${source.side === 'left' ? 'l' : 'r'}.${id(source.id)} AS ${id(rel.columns[i]!.id)}`;
    });
    const kinds: Record<typeof rel.kind, string> = {
      inner: 'INNER JOIN',
      innerunique: 'INNER JOIN',
      leftouter: 'LEFT OUTER JOIN',
      rightouter: 'RIGHT OUTER JOIN',
      fullouter: 'FULL OUTER JOIN',
      leftsemi: 'LEFT SEMI JOIN',
      rightsemi: 'LEFT SEMI JOIN',
      leftanti: 'LEFT ANTI JOIN',
      rightanti: 'LEFT ANTI JOIN',
    };
    const first = `(${swapped ? rightSql : leftSql}) AS ${leftAlias}`;
    const second = `(${swapped ? leftSql : rightSql}) AS ${rightAlias}`;
    if (!on) return `SELECT ${items.join(', ')} FROM ${first} CROSS JOIN ${second}`;
    return `SELECT ${items.join(', ')} FROM ${first} ${kinds[rel.kind]} ${second} ON ${on}`;
  }

  private values(rel: Extract<Rel, { op: 'values' }>): string {
    if (rel.rows.length === 0) {
      const items = rel.columns.map((column) => `CAST(NULL AS ${nullableType(column.type)}) AS ${id(column.id)}`);
      return `SELECT ${items.join(', ')} WHERE 0`;
    }
    // Rows that look models up (`print genai_cost(...)`) are each a SELECT over one row with the
    // price table joined, numbered so that they come back in order.
    const lookups = rel.rows.map((row) => joinPriceLookups(this.writer, 'SELECT 1 AS one', 't', row, () => this.lookups++));
    if (lookups.some((from) => from !== undefined)) {
      const selects = rel.rows.map((row, r) => {
        const items = row.map((value, i) => `CAST(${this.expr(value)} AS ${nullableType(rel.columns[i]!.type)}) AS ${id(rel.columns[i]!.id)}`);
        return `(SELECT ${r} AS __row, ${items.join(', ')} FROM ${lookups[r] ?? '(SELECT 1 AS one) AS t'})`;
      });
      return `SELECT ${rel.columns.map((column) => id(column.id)).join(', ')} FROM (${selects.join(' UNION ALL ')}) AS t ORDER BY __row`;
    }
    // Each value is cast to its column's type so every row agrees. One array of row tuples keeps
    // the rows in order (the branches of a UNION ALL may come back in any order).
    const tuples = rel.rows.map((row) => `tuple(${row.map((value, i) => `CAST(${this.expr(value)} AS ${nullableType(rel.columns[i]!.type)})`).join(', ')})`);
    const items = rel.columns.map((column, i) => `r.${i + 1} AS ${id(column.id)}`);
    return `SELECT ${items.join(', ')} FROM (SELECT arrayJoin([${tuples.join(', ')}]) AS r) AS t`;
  }
}

/** Sources whose rows come in order: sorts, and literal rows (read back in order by `values` above). */
const ORDERED: ReadonlySet<Rel['op']> = new Set(['sort', 'values']);

export const clickhouseDialect: SqlDialect = {
  name: 'clickhouse',
  compile(rel: Rel, columns: RelColumn[], options: CompileOptions = {}): CompiledSql {
    const generator = new Generator(requiredColumns(rel, columns), options);
    const body = generator.rel(rel);
    // Datetimes are already nanoseconds and dynamic values JSON text: columns leave as they are.
    const sql = `SELECT ${columns.map((column) => id(column.id)).join(', ')} FROM (${body}) AS result`;
    return { sql, params: [] };
  },
};
