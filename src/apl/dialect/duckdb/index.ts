// The DuckDB dialect: turns a typed plan into one SELECT over the dataset tables. Each plan
// node becomes a subquery whose columns are aliased by plan column id; DuckDB's optimizer
// flattens them, pushes filters into the scans and fuses ORDER BY + LIMIT into top-N.
import { columnReadSql, quoteIdentifier } from '../../../events/layout';
import { keptPositions, type Rel, type RelColumn, requiredColumns, type TExpr } from '../../semantic/plan';
import type { CompiledSql, CompileOptions, SqlDialect, SqlValue } from '../dialect';
import { aggregateSql } from './aggregates';
import { ExprWriter, SQL_TYPE } from './expressions';
import { keepsOrder } from '../price-lookups';
import { joinPriceLookups } from './pricing';
import { rolledUpPricing } from './pricing-rollup';
import { expandSql, seriesSql, windowSql } from './relations';

const id = (columnId: string) => quoteIdentifier(columnId);
const ts = (nanos: bigint) => `make_timestamp_ns(CAST(${nanos.toString()} AS BIGINT))`;

class Generator {
  readonly params: SqlValue[] = [];
  private readonly writer: ExprWriter;
  private lookups = 0;

  /** Per node, the columns something above reads; scans and projections leave out the rest. */
  constructor(
    private readonly required: Map<Rel, Set<string>>,
    private readonly options: CompileOptions,
  ) {
    this.writer = new ExprWriter(this.params, id, options.maxStringBytes);
    this.writer.relationSql = (rel) => this.rel(rel);
  }

  /** Positions of the node's columns to write: those required, at least one. */
  private kept(rel: Rel): number[] {
    return keptPositions(rel, this.required.get(rel));
  }

  expr(expr: TExpr): string {
    return this.writer.write(expr);
  }

  /**
   * `(input) AS alias`, with the price table joined when `exprs` (what the node computes over
   * its input) look models up. Call it before writing `exprs`.
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
        const from = this.from(rel.input, [rel.predicate]);
        return `SELECT * FROM ${from} WHERE ${this.expr(rel.predicate)}`;
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
        const groupBy = rel.groups.length ? ` GROUP BY ${rel.groups.map((_, i) => i + 1).join(', ')}` : '';
        return `SELECT ${[...groups, ...aggregates].join(', ')} FROM ${from}${groupBy}`;
      }
      case 'sort':
        return this.sort(rel);
      case 'limit': {
        // ORDER BY + LIMIT in one SELECT lets DuckDB run a top-N instead of a full sort.
        if (rel.input.op === 'sort') return `${this.sort(rel.input)} LIMIT ${rel.count}`;
        return `SELECT * FROM (${this.rel(rel.input)}) AS t LIMIT ${rel.count}`;
      }
      case 'sample': {
        const clause = rel.fraction !== undefined ? `${rel.fraction * 100} PERCENT (bernoulli)` : `reservoir(${rel.rows} ROWS) REPEATABLE (7)`;
        return `SELECT * FROM (${this.rel(rel.input)}) AS t USING SAMPLE ${clause}`;
      }
      case 'union':
        return rel.inputs
          .map((input) => {
            const kept = this.kept(rel);
            const from = this.from(input.rel, kept.map((i) => input.exprs[i]!));
            const items = kept.map((i) => `${this.expr(input.exprs[i]!)} AS ${id(rel.columns[i]!.id)}`);
            return `SELECT ${items.join(', ')} FROM ${from}`;
          })
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
        return expandSql(this.writer, rel, kept, `SELECT * FROM ${this.from(rel.input, reads)}`);
      }
      case 'series':
        return seriesSql(this.writer, rel, this.rel(rel.input));
    }
  }

  private scan(rel: Extract<Rel, { op: 'scan' }>): string {
    const items = this.kept(rel).map((i) => {
      const column = rel.columns[i]!;
      const source = rel.sourceColumns.get(column.id)!;
      // Stored fields are read in the form the engine computes with (mixed fields as JSON).
      return `${column.stored ? columnReadSql({ column: source, ...(column.stored.storedAs ? { storedAs: column.stored.storedAs } : {}) }) : quoteIdentifier(source)} AS ${id(column.id)}`;
    });
    const time = quoteIdentifier(rel.sourceColumns.get(rel.timeColumnId)!);
    const rowId = quoteIdentifier(rel.sourceColumns.get(rel.rowIdColumnId)!);
    const where: string[] = [];
    if (rel.range?.startNanos !== undefined) where.push(`${time} >= ${ts(rel.range.startNanos)}`);
    if (rel.range?.endNanos !== undefined) where.push(`${time} <= ${ts(rel.range.endNanos)}`);
    if (rel.cursor) {
      const { timeNanos, rowId: cursorRowId, direction, inclusive } = rel.cursor;
      const before = direction === 'desc';
      const timeOp = before ? '<' : '>';
      const rowOp = `${timeOp}${inclusive ? '=' : ''}`;
      // The bare bound on _time lets DuckDB skip row groups; the pair makes the order total.
      where.push(`${time} ${timeOp}= ${ts(timeNanos)}`);
      where.push(`(${time} ${timeOp} ${ts(timeNanos)} OR (${time} = ${ts(timeNanos)} AND ${rowId} ${rowOp} ${cursorRowId.toString()}))`);
    }
    const table = quoteIdentifier(rel.dataset.table);
    return `SELECT ${items.join(', ')} FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  }

  private sort(rel: Extract<Rel, { op: 'sort' }>): string {
    const from = this.from(rel.input, rel.keys.map((key) => key.expr));
    const keys = rel.keys.map((key) => `${this.expr(key.expr)} ${key.desc ? 'DESC' : 'ASC'} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`);
    return `SELECT * FROM ${from} ORDER BY ${keys.join(', ')}`;
  }

  private join(rel: Extract<Rel, { op: 'join' }>): string {
    // Each side with the price table joined when its keys look models up.
    const leftSql = `SELECT * FROM ${this.from(rel.left, rel.keys.map((key) => key.left))}`;
    let rightSql = `SELECT * FROM ${this.from(rel.right, rel.keys.map((key) => key.right))}`;
    // Right semi and anti joins are written as their left forms with the sides swapped.
    const swapped = rel.kind === 'rightsemi' || rel.kind === 'rightanti';
    const leftAlias = swapped ? 'r' : 'l';
    const rightAlias = swapped ? 'l' : 'r';
    const left = this.writer.withColumns((columnId) => `l.${id(columnId)}`);
    const right = this.writer.withColumns((columnId) => `r.${id(columnId)}`);
    const equals = rel.nullSafe ? 'IS NOT DISTINCT FROM' : '=';
    const on = rel.keys.map((key) => `${left.write(key.left)} ${equals} ${right.write(key.right)}`).join(' AND ');
    if (rel.kind === 'innerunique') {
      // One right row per key: the first match, as Axiom describes innerunique.
      const partition = rel.keys.map((key) => this.expr(key.right)).join(', ');
      rightSql = `SELECT * FROM (${rightSql}) AS t QUALIFY row_number() OVER (PARTITION BY ${partition}) = 1`;
    }
    const items = this.kept(rel).map((i) => {
      const source = rel.sources[i]!;
      return `${source.side === 'left' ? 'l' : 'r'}.${id(source.id)} AS ${id(rel.columns[i]!.id)}`;
    });
    const kinds: Record<typeof rel.kind, string> = {
      inner: 'JOIN',
      innerunique: 'JOIN',
      leftouter: 'LEFT JOIN',
      rightouter: 'RIGHT JOIN',
      fullouter: 'FULL OUTER JOIN',
      leftsemi: 'SEMI JOIN',
      rightsemi: 'SEMI JOIN',
      leftanti: 'ANTI JOIN',
      rightanti: 'ANTI JOIN',
    };
    const first = `(${swapped ? rightSql : leftSql}) AS ${leftAlias}`;
    const second = `(${swapped ? leftSql : rightSql}) AS ${rightAlias}`;
    return `SELECT ${items.join(', ')} FROM ${first} ${kinds[rel.kind]} ${second} ON ${on || 'TRUE'}`;
  }

  private values(rel: Extract<Rel, { op: 'values' }>): string {
    if (rel.rows.length === 0) {
      const items = rel.columns.map((column) => `CAST(NULL AS ${SQL_TYPE[column.type]}) AS ${id(column.id)}`);
      return `SELECT ${items.join(', ')} WHERE FALSE`;
    }
    // Rows that look models up (`print genai_cost(...)`) are each a SELECT over one row with the
    // price table joined.
    const lookups = rel.rows.map((row) => joinPriceLookups(this.writer, 'SELECT 1 AS one', 't', row, () => this.lookups++));
    if (lookups.some((from) => from !== undefined)) {
      return rel.rows
        .map((row, r) => {
          const items = row.map((value, i) => `CAST(${this.expr(value)} AS ${SQL_TYPE[rel.columns[i]!.type]}) AS ${id(rel.columns[i]!.id)}`);
          return `SELECT ${items.join(', ')} FROM ${lookups[r] ?? '(SELECT 1 AS one) AS t'}`;
        })
        .join(' UNION ALL ');
    }
    // Each value is cast to its column's type so every row of VALUES agrees.
    const rows = rel.rows.map((row) => `(${row.map((value, i) => `CAST(${this.expr(value)} AS ${SQL_TYPE[rel.columns[i]!.type]})`).join(', ')})`);
    return `SELECT * FROM (VALUES ${rows.join(', ')}) AS v(${rel.columns.map((c) => id(c.id)).join(', ')})`;
  }
}

/** Sources whose rows come in order. */
const ORDERED: ReadonlySet<Rel['op']> = new Set(['sort']);

/** How a column leaves the database: datetimes as epoch nanoseconds, dynamic values as JSON text. */
function outputSql(column: RelColumn): string {
  const ref = id(column.id);
  if (column.type === 'datetime') return `epoch_ns(${ref})`;
  if (column.type === 'dynamic') return `CAST(${ref} AS VARCHAR)`;
  return ref;
}

export const duckdbDialect: SqlDialect = {
  name: 'duckdb',
  compile(rel: Rel, columns: RelColumn[], options: CompileOptions = {}): CompiledSql {
    const generator = new Generator(requiredColumns(rel, columns), options);
    const body = generator.rel(rel);
    const sql = `SELECT ${columns.map(outputSql).join(', ')} FROM (${body}) AS result`;
    return { sql, params: generator.params };
  },
};
