// What a SQL dialect of MPL offers: one statement per plan, answering one row per series of the
// answer with its tags (JSON of typed values), its times and its values, in time order.
import type { TagEntry } from '../execution/result';
import type { MetricsPlan } from '../semantic/plan';

export interface CompiledMetricsSql {
  sql: string;
  params: (string | number | bigint | boolean)[];
}

/**
 * Rows of a compiled statement: `tags` as {k, t, v} entries (see `tagEntriesSql`); `ts` are
 * seconds on the plan's grid, ascending; `vs` the values at those times (null for none).
 */
export interface SeriesRow {
  tags: TagEntry[];
  ts: (number | bigint)[];
  vs: (number | null)[];
}

export interface MetricsDialect {
  name: string;
  /** At most `maxSeries` rows; the caller asks for one more to tell when the limit is passed. */
  compile(plan: MetricsPlan, maxSeries: number): CompiledMetricsSql;
}
