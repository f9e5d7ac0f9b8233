// The DuckDB dialect: turns a typed plan into one SELECT over the dataset tables. Each plan
// node becomes a subquery whose columns are aliased by plan column id; DuckDB's optimizer
// flattens them, pushes filters into the scans and fuses ORDER BY + LIMIT into top-N. The
// relation writer is ../base/generator.ts; this file gives DuckDB's spellings.
import { columnReadSql, quoteIdentifier } from '../../../engines/duckdb/layout';
import { type Rel, type RelColumn, requiredColumns, type TExpr } from '../../semantic/plan';
import { type GeneratorFeatures, type NodeWriters, type SampleRel, SqlGenerator, type ValuesRel } from '../base/generator';
import type { CompiledSql, CompileOptions, SqlDialect, SqlValue } from '../dialect';
import { aggregateSql } from './aggregates';
import { ExprWriter, SQL_TYPE } from './expressions';
import { joinPriceLookups } from './pricing';
import { rolledUpPricing } from './pricing-rollup';
import { expandSql, seriesSql, windowSql } from './relations';

const id = (columnId: string) => quoteIdentifier(columnId);
const ts = (nanos: bigint) => `make_timestamp_ns(CAST(${nanos.toString()} AS BIGINT))`;

const FEATURES: GeneratorFeatures = {
  mergeFilterChains: false,
  groupByPosition: true,
  parenthesizedUnionBranches: false,
  crossJoinWithoutKeys: false,
  semiJoin: 'SEMI JOIN',
  antiJoin: 'ANTI JOIN',
  // Sources whose rows come in order.
  orderedSources: new Set(['sort']),
};

const NODES: NodeWriters<ExprWriter> = { joinPriceLookups, rolledUpPricing, aggregateSql, windowSql, expandSql, seriesSql };

class Generator extends SqlGenerator<ExprWriter> {
  protected readonly features = FEATURES;
  protected readonly nodes = NODES;

  constructor(required: Map<Rel, Set<string>>, options: CompileOptions) {
    super(new ExprWriter([], id, options.maxStringBytes), required, options);
  }

  protected id(columnId: string): string {
    return id(columnId);
  }

  protected override params(): SqlValue[] {
    return this.writer.params;
  }

  /** Stored fields are read in the form the engine computes with (mixed fields as JSON). */
  protected scanItem(column: RelColumn, source: string): string {
    return column.stored ? columnReadSql({ column: source, ...(column.stored.storedAs ? { storedAs: column.stored.storedAs } : {}) }) : quoteIdentifier(source);
  }

  protected storedColumn(source: string): string {
    return quoteIdentifier(source);
  }

  protected storedInstant(nanos: bigint): string {
    return ts(nanos);
  }

  protected sample(rel: SampleRel, inputSql: string): string {
    const clause = rel.fraction !== undefined ? `${rel.fraction * 100} PERCENT (bernoulli)` : `reservoir(${rel.rows} ROWS) REPEATABLE (7)`;
    return `SELECT * FROM (${inputSql}) AS t USING SAMPLE ${clause}`;
  }

  protected nullSafeEquals(left: string, right: string): string {
    return `${left} IS NOT DISTINCT FROM ${right}`;
  }

  protected firstPerKey(rightSql: string, keys: string[]): string {
    return `SELECT * FROM (${rightSql}) AS t QUALIFY row_number() OVER (PARTITION BY ${keys.join(', ')}) = 1`;
  }

  protected values(rel: ValuesRel): string {
    const type = (column: RelColumn) => SQL_TYPE[column.type];
    if (rel.rows.length === 0) return this.emptyValues(rel, type, 'FALSE');
    // Rows that look models up are each a SELECT over one row with the price table joined.
    const lookups = this.valuesLookups(rel);
    if (lookups) {
      return rel.rows
        .map((row, r) => {
          const items = row.map((value, i) => `CAST(${this.expr(value)} AS ${type(rel.columns[i]!)}) AS ${id(rel.columns[i]!.id)}`);
          return `SELECT ${items.join(', ')} FROM ${lookups[r] ?? '(SELECT 1 AS one) AS t'}`;
        })
        .join(' UNION ALL ');
    }
    // Each value is cast to its column's type so every row of VALUES agrees.
    const rows = rel.rows.map((row) => `(${row.map((value, i) => `CAST(${this.expr(value)} AS ${type(rel.columns[i]!)})`).join(', ')})`);
    return `SELECT * FROM (VALUES ${rows.join(', ')}) AS v(${rel.columns.map((c) => id(c.id)).join(', ')})`;
  }

  /** Datetimes leave as epoch nanoseconds, dynamic values as JSON text. */
  protected outputColumn(column: RelColumn): string {
    const ref = id(column.id);
    if (column.type === 'datetime') return `epoch_ns(${ref})`;
    if (column.type === 'dynamic') return `CAST(${ref} AS VARCHAR)`;
    return ref;
  }
}

export const duckdbDialect: SqlDialect = {
  name: 'duckdb',
  compile(rel: Rel, columns: RelColumn[], options: CompileOptions = {}): CompiledSql {
    return new Generator(requiredColumns(rel, columns), options).compile(rel, columns);
  },
};
