// DuckDB's spellings of the per-era pricing of sums (../base/pricing-rollup.ts): FILTER clauses
// on the bucket sums, eras counted from TIMESTAMP_NS comparisons.
import { quoteIdentifier } from '../../../engines/duckdb/layout';
import type { Rel } from '../../semantic/plan';
import { rolledUpPricingSql, type RollupSql } from '../base/pricing-rollup';
import type { ExprWriter } from './expressions';
import { joinPriceLookups } from './pricing';

const ts = (nanos: bigint) => `make_timestamp_ns(CAST(${nanos.toString()} AS BIGINT))`;

const DUCKDB_ROLLUP: RollupSql<ExprWriter> = {
  id: quoteIdentifier,
  groupByPosition: true,
  eraOf: (timeSql, eras) => (eras.length ? eras.map((b) => `CAST(${timeSql} >= ${ts(b)} AS INTEGER)`).join(' + ') : '0'),
  countAll: 'count(*)',
  toLong: (sql) => `CAST(${sql} AS BIGINT)`,
  total: (sql) => `sum(${sql})`,
  bucketSum: (token, where) => `${token ? `sum(${token})` : 'count(*)'}${where ? ` FILTER (WHERE ${where})` : ''}`,
  joinPrices: joinPriceLookups,
};

/** See ../base/pricing-rollup.ts. */
export const rolledUpPricing = (writer: ExprWriter, rel: Extract<Rel, { op: 'aggregate' }>, inputSql: () => string, boundaries: readonly bigint[] | undefined, nextLookup: () => number) =>
  rolledUpPricingSql(DUCKDB_ROLLUP, writer, rel, inputSql, boundaries, nextLookup);
