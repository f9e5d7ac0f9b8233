// ClickHouse's spellings of the per-era pricing of sums (../base/pricing-rollup.ts): `-If` and
// `-OrNull` combinators on the bucket sums, eras counted from nanosecond comparisons (datetimes
// are Int64 nanoseconds here, as the boundaries are).
import { quoteIdentifier } from '../../../engines/clickhouse/layout';
import type { Rel } from '../../semantic/plan';
import { rolledUpPricingSql, type RollupSql } from '../base/pricing-rollup';
import type { ExprWriter } from './expressions';
import { joinPriceLookups } from './pricing';

function bucketSum(token: string | undefined, where: string | undefined): string {
  if (token) return where ? `sumIfOrNull(${token}, ${where})` : `sumOrNull(${token})`;
  return where ? `countIf(${where})` : 'count()';
}

const CLICKHOUSE_ROLLUP: RollupSql<ExprWriter> = {
  id: quoteIdentifier,
  groupByPosition: false,
  eraOf: (timeSql, eras) => (eras.length ? eras.map((b) => `toUInt32(${timeSql} >= ${b.toString()})`).join(' + ') : 'toUInt32(0)'),
  countAll: 'count()',
  toLong: (sql) => `toInt64(${sql})`,
  total: (sql) => `sumOrNull(${sql})`,
  bucketSum,
  joinPrices: joinPriceLookups,
};

/** See ../base/pricing-rollup.ts. */
export const rolledUpPricing = (writer: ExprWriter, rel: Extract<Rel, { op: 'aggregate' }>, inputSql: () => string, boundaries: readonly bigint[] | undefined, nextLookup: () => number) =>
  rolledUpPricingSql(CLICKHOUSE_ROLLUP, writer, rel, inputSql, boundaries, nextLookup);
