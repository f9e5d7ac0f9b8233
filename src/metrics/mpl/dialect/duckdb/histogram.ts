// `bucket`: series combined per group and window into one series per spec. Quantiles are
// interpolated within buckets as Prometheus' histogram_quantile does: find the first bucket
// whose cumulative count reaches q * total and interpolate linearly inside it; the first
// bucket starts at the smallest value when known (else at 0 for positive bounds) and the
// unbounded last bucket ends at the largest value when known (else at its lower bound).
import { metricsTablesOf, quoteIdentifier } from '../../../store/layout';
import { BUCKET_SPEC_TAG, type BucketNode, type BucketSpec, type SourceNode } from '../../semantic/plan';
import { filterSql } from './filter';
import { double, keepTags, type Relation, setTags, type StatementBuilder, stringTag } from './sql';

/** The name a spec's series carries in the `spec` tag: p50, p99.9, count, avg, ... */
export function specName(spec: BucketSpec): string {
  if (spec.kind !== 'quantile') return spec.kind;
  return `p${Number((spec.q * 100).toPrecision(12))}`;
}

/** The bucket start of time column `t`. */
export function bucketOf(t: string, origin: number, step: number): string {
  return origin === 0 ? `((${t} // ${step}) * ${step})` : `(${origin} + ((${t} - ${origin}) // ${step}) * ${step})`;
}

/**
 * The quantile `q` of cumulative bucket lists `les` (upper bounds, ascending) and `cvs`
 * (cumulative counts); `low` and `high` close the first and the unbounded buckets.
 */
function quantileOf(q: number, low: string, high: string): string {
  const target = `(cvs[-1] * ${double(q)})`;
  const index = `list_position(list_transform(cvs, lambda c: c >= ${target}), true)`;
  return `(SELECT CASE
      WHEN total IS NULL OR total <= 0 OR i IS NULL THEN NULL
      WHEN les[i] = 'inf'::DOUBLE THEN coalesce(CASE WHEN ${high} >= lo THEN lo + (${high} - lo) * (target - loc) / nullif(cvs[i] - loc, 0) END, lo)
      WHEN cvs[i] = loc THEN lo
      ELSE lo + (les[i] - lo) * (target - loc) / (cvs[i] - loc) END
    FROM (SELECT i, total, target,
      CASE WHEN i > 1 THEN les[i - 1] WHEN ${low} IS NOT NULL AND ${low} <= les[1] THEN ${low} WHEN les[1] > 0 THEN 0 ELSE les[1] END AS lo,
      CASE WHEN i > 1 THEN cvs[i - 1] ELSE 0 END AS loc
      FROM (SELECT ${index} AS i, cvs[-1] AS total, ${target} AS target)))`;
}

/**
 * One series per (group, spec) from grouped statistics: `stats` has (gid, t, c, s, lo, hi,
 * qlo, qhi, qs, les, cvs): count, sum, min and max of the values, the ends of the first and
 * last buckets for quantiles, exact quantiles `qs` (scalar input) and the bucket lists.
 */
function specSeries(builder: StatementBuilder, node: BucketNode, stats: string, groups: string, perSecond: number | null): Relation {
  let quantileIndex = 0;
  const columns = node.specs.map((spec, index) => {
    let value: string;
    switch (spec.kind) {
      case 'count':
        value = perSecond ? `c / ${perSecond}` : 'c';
        break;
      case 'sum':
        value = perSecond ? `s / ${perSecond}` : 's';
        break;
      case 'avg':
        value = 's / nullif(c, 0)';
        break;
      case 'min':
        value = 'lo';
        break;
      case 'max':
        value = 'hi';
        break;
      case 'quantile':
        quantileIndex++;
        value = `CASE WHEN les IS NOT NULL THEN ${quantileOf(spec.q, 'qlo', 'qhi')} ELSE qs[${quantileIndex}] END`;
        break;
    }
    return `(${value})::DOUBLE AS v${index}`;
  });
  const wide = builder.cte(`SELECT gid, t, ${columns.join(', ')} FROM ${stats}`);
  const parts = node.specs.map((_, index) => `SELECT gid * 16 + ${index} AS sid, t, v${index} AS v FROM ${wide} WHERE v${index} IS NOT NULL AND isfinite(v${index})`);
  const pts = builder.cte(parts.join(' UNION ALL '));
  const names = node.specs.map((spec, index) => `(${index}, ${builder.param(specName(spec))})`).join(', ');
  const tags = builder.cte(
    `SELECT g.gid * 16 + n.i AS sid, ${setTags('g.gtags', [{ key: builder.param(BUCKET_SPEC_TAG), value: stringTag('n.name') }])} AS tags
     FROM ${groups} g, (VALUES ${names}) n(i, name)`,
  );
  return { pts, tags };
}

/** Group ids for the distinct group tag sets of `sidTags` (sid, tags). */
function groupsOf(builder: StatementBuilder, sidTags: string, idColumn: string, keys: string[]): { map: string; groups: string } {
  const mapped = builder.cte(`SELECT ${idColumn} AS sid, ${keepTags('tags', keys)} AS gtags FROM ${sidTags}`);
  const groups = builder.cte(`SELECT gtags, row_number() OVER () AS gid FROM (SELECT DISTINCT gtags FROM ${mapped})`);
  const map = builder.cte(`SELECT m.sid, g.gid FROM ${mapped} m JOIN ${groups} g ON g.gtags = m.gtags`);
  return { map, groups };
}

/**
 * `histogram(specs)` over scalar series: per group (the `le` tag aside) and window, counts,
 * sums, extremes and exact quantiles of the values; where series carry an `le` tag
 * (Prometheus buckets of cumulative counts), quantiles interpolate within those buckets
 * (each bucket series averaged over the window, equal bounds summed across series).
 */
export function scalarBuckets(builder: StatementBuilder, node: BucketNode, input: Relation): Relation {
  const keys = node.tags.filter((tag) => tag !== 'le').map((tag) => builder.param(tag));
  const le = builder.param('le');
  const withLe = builder.cte(`SELECT sid, tags, TRY_CAST(CAST(tags[${le}] AS VARCHAR) AS DOUBLE) AS le FROM ${input.tags}`);
  const { map, groups } = groupsOf(builder, withLe, 'sid', keys);
  const raw = builder.cte(
    `SELECT m.gid, ${bucketOf('p.t', node.grid.origin, node.grid.step)} AS t, l.le, p.sid, p.v
     FROM ${input.pts} p JOIN ${map} m ON m.sid = p.sid JOIN ${withLe} l ON l.sid = p.sid`,
  );
  const quantiles = node.specs.filter((spec) => spec.kind === 'quantile').map((spec) => double((spec as { q: number }).q));
  const perLe = builder.cte(
    `SELECT gid, t, list(le ORDER BY le) AS les, list(cv ORDER BY le) AS cvs FROM (
       SELECT gid, t, le, sum(av) AS cv FROM (SELECT gid, t, le, sid, avg(v) AS av FROM ${raw} WHERE le IS NOT NULL GROUP BY ALL) GROUP BY ALL)
     GROUP BY gid, t`,
  );
  const stats = builder.cte(
    `SELECT s.gid, s.t, s.c, s.s, s.lo, s.hi, NULL::DOUBLE AS qlo, NULL::DOUBLE AS qhi, s.qs, h.les, h.cvs FROM (
       SELECT gid, t, count(v)::DOUBLE AS c, sum(v) AS s, min(v) AS lo, max(v) AS hi,
         ${quantiles.length > 0 ? `quantile_cont(v, [${quantiles.join(', ')}])` : 'NULL::DOUBLE[]'} AS qs
       FROM ${raw} GROUP BY gid, t) s LEFT JOIN ${perLe} h ON h.gid = s.gid AND h.t = s.t`,
  );
  return specSeries(builder, node, stats, groups, null);
}

/** `interpolate_delta_histogram` / `interpolate_cumulative_histogram` over a histogram source. */
export function distributionBuckets(builder: StatementBuilder, node: BucketNode, source: SourceNode): Relation {
  const tables = metricsTablesOf(source.table);
  const series = quoteIdentifier(tables.series);
  const dists = quoteIdentifier(tables.dists);
  const conditions = [`metric = ${builder.param(source.metricName)}`, `type IN ('histogram', 'exponential_histogram')`];
  if (source.filter) conditions.push(filterSql(source.filter, 'tags', builder));
  if (source.sample !== null) conditions.push(`hash(id) % 1000000 < ${Math.round(source.sample * 1_000_000)}`);
  const selected = builder.cte(`SELECT id, tags FROM ${series} WHERE ${conditions.join(' AND ')}`);
  const keys = node.tags.map((tag) => builder.param(tag));
  const { map, groups } = groupsOf(builder, selected, 'id', keys);
  const range = `d.t >= ${source.read.from} AND d.t < ${source.read.to} AND d.counts IS NOT NULL`;
  let points: string;
  if (node.fn === 'interpolate_delta') {
    points = builder.cte(
      `SELECT m.gid, ${bucketOf('d.t', node.grid.origin, node.grid.step)} AS t, d.count, d.sum, d.min, d.max, d.bounds, d.counts
       FROM ${dists} d JOIN ${map} m ON m.sid = d.series_id WHERE ${range}`,
    );
  } else {
    // Cumulative points become increases since the previous point of their series; a drop in
    // the count or a change of bounds is a restart, whose own counts are the increase.
    const lagged = builder.cte(
      `SELECT m.gid, d.series_id, d.t, d.count, d.sum, d.bounds, d.counts,
         lag(d.count) OVER w AS p_count, lag(d.sum) OVER w AS p_sum, lag(d.bounds) OVER w AS p_bounds, lag(d.counts) OVER w AS p_counts
       FROM ${dists} d JOIN ${map} m ON m.sid = d.series_id WHERE ${range}
       WINDOW w AS (PARTITION BY d.series_id ORDER BY d.t)`,
    );
    const restart = `(count < p_count OR bounds IS DISTINCT FROM p_bounds)`;
    points = builder.cte(
      `SELECT gid, ${bucketOf('t', node.grid.origin, node.grid.step)} AS t,
         CASE WHEN ${restart} THEN count ELSE count - p_count END AS count,
         CASE WHEN ${restart} THEN sum ELSE sum - p_sum END AS sum,
         NULL::DOUBLE AS min, NULL::DOUBLE AS max, bounds,
         CASE WHEN ${restart} THEN counts ELSE list_transform(range(1, len(counts) + 1), lambda i: counts[i] - p_counts[i]) END AS counts
       FROM ${lagged} WHERE p_count IS NOT NULL`,
    );
  }
  const cells = builder.cte(
    `SELECT gid, t, bound, sum(c) AS c FROM (SELECT gid, t, unnest(list_concat(bounds, ['inf'::DOUBLE])) AS bound, unnest(counts) AS c FROM ${points}) GROUP BY ALL`,
  );
  const lists = builder.cte(
    `SELECT gid, t, list(bound ORDER BY bound) AS les, list(cc ORDER BY bound) AS cvs FROM (
       SELECT gid, t, bound, sum(c) OVER (PARTITION BY gid, t ORDER BY bound) AS cc FROM ${cells}) GROUP BY gid, t`,
  );
  const stats = builder.cte(
    `SELECT s.gid, s.t, s.c, s.s, s.lo, s.hi, s.lo AS qlo, s.hi AS qhi, NULL::DOUBLE[] AS qs, l.les, l.cvs FROM (
       SELECT gid, t, sum(count) AS c, sum(sum) AS s, min(min) AS lo, max(max) AS hi FROM ${points} GROUP BY gid, t) s
     JOIN ${lists} l ON l.gid = s.gid AND l.t = s.t`,
  );
  return specSeries(builder, node, stats, groups, node.conversion === 'rate' ? node.grid.step : null);
}
