// Quantiles interpolated within buckets as Prometheus' histogram_quantile does: find the first
// bucket whose cumulative count reaches q * total and interpolate linearly inside it; the first
// bucket starts at the smallest value when known (else at 0 for positive bounds) and the
// unbounded last bucket ends at the largest value when known (else at its lower bound).
import type { MplEngine } from './engine';

/**
 * The quantile `q` of cumulative bucket lists `les` (upper bounds, ascending) and `cvs`
 * (cumulative counts); `low` and `high` close the first and the unbounded buckets.
 */
export function bucketQuantile(sql: MplEngine, q: number, low: string, high: string): string {
  const target = `(cvs[-1] * ${sql.double(q)})`;
  const i = sql.firstIndexAtLeast('cvs', target);
  const lo = `(CASE WHEN ${i} > 1 THEN les[${i} - 1] WHEN ${low} IS NOT NULL AND ${low} <= les[1] THEN ${low} WHEN les[1] > 0 THEN 0 ELSE les[1] END)`;
  const loc = `(CASE WHEN ${i} > 1 THEN cvs[${i} - 1] ELSE 0 END)`;
  return `CASE
      WHEN coalesce(cvs[-1], 0) <= 0 OR ${i} = 0 THEN NULL
      WHEN les[${i}] = ${sql.double(Infinity)} THEN coalesce(CASE WHEN ${high} >= ${lo} THEN ${lo} + (${high} - ${lo}) * (${target} - ${loc}) / nullif(cvs[${i}] - ${loc}, 0) END, ${lo})
      WHEN cvs[${i}] = ${loc} THEN ${lo}
      ELSE ${lo} + (les[${i}] - ${lo}) * (${target} - ${loc}) / (cvs[${i}] - ${loc}) END`;
}
