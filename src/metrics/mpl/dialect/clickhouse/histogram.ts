// `bucket` in ClickHouse: series combined per group and window into one series per spec, with
// the quantile interpolation of the DuckDB dialect (Prometheus' histogram_quantile): find the
// first bucket whose cumulative count reaches q * total and interpolate linearly inside it; the
// first bucket starts at the smallest value when known (else at 0 for positive bounds) and the
// unbounded last bucket ends at the largest value when known (else at its lower bound). Bucket
// lists are arrays; an empty one stands for none (ClickHouse arrays cannot be NULL).
import { metricsTablesOf, quoteIdentifier } from '../../../store/clickhouse/layout';
import { BUCKET_SPEC_TAG, type BucketNode, type BucketSpec, type SourceNode } from '../../semantic/plan';
import { specName } from '../duckdb/histogram';
import { filterSql } from './filter';
import { double, keepTags, pairsTable, type Relation, setTags, type StatementBuilder, stringTag } from './sql';

export { specName };

/** The bucket start of time column `t`. */
export function bucketOf(t: string, origin: number, step: number): string {
  return origin === 0 ? `(intDiv(${t}, ${step}) * ${step})` : `(${origin} + intDiv(${t} - ${origin}, ${step}) * ${step})`;
}

/**
 * The quantile `q` of cumulative bucket arrays `les` (upper bounds, ascending) and `cvs`
 * (cumulative counts); `low` and `high` close the first and the unbounded buckets.
 */
function quantileOf(q: number, low: string, high: string): string {
  const target = `(cvs[-1] * ${double(q)})`;
  const i = `arrayFirstIndex(c -> c >= ${target}, cvs)`;
  const lo = `multiIf(${i} > 1, les[${i} - 1], ${low} IS NOT NULL AND ${low} <= les[1], ${low}, les[1] > 0, 0, les[1])`;
  const loc = `if(${i} > 1, cvs[${i} - 1], 0)`;
  return `multiIf(
      empty(cvs) OR cvs[-1] <= 0 OR ${i} = 0, NULL,
      isInfinite(les[${i}]) AND les[${i}] > 0, coalesce(if(${high} >= ${lo}, ${lo} + (${high} - ${lo}) * (${target} - ${loc}) / nullIf(cvs[${i}] - ${loc}, 0), NULL), ${lo}),
      cvs[${i}] = ${loc}, ${lo},
      ${lo} + (les[${i}] - ${lo}) * (${target} - ${loc}) / (cvs[${i}] - ${loc}))`;
}

/**
 * One series per (group, spec) from grouped statistics: `stats` has (gid, t, c, s, lo, hi,
 * qlo, qhi, qs, les, cvs): count, sum, min and max of the values, the ends of the first and
 * last buckets for quantiles, exact quantiles `qs` (scalar input) and the bucket arrays.
 */
function specSeries(builder: StatementBuilder, node: BucketNode, stats: string, groups: string, perSecond: number | null): Relation {
  let quantileIndex = 0;
  const columns = node.specs.map((spec: BucketSpec, index) => {
    let value: string;
    switch (spec.kind) {
      case 'count':
        value = perSecond ? `c / ${perSecond}` : 'c';
        break;
      case 'sum':
        value = perSecond ? `s / ${perSecond}` : 's';
        break;
      case 'avg':
        value = 's / nullIf(c, 0)';
        break;
      case 'min':
        value = 'lo';
        break;
      case 'max':
        value = 'hi';
        break;
      case 'quantile':
        quantileIndex++;
        value = `if(notEmpty(les), ${quantileOf(spec.q, 'qlo', 'qhi')}, if(length(qs) >= ${quantileIndex}, qs[${quantileIndex}], NULL))`;
        break;
    }
    return `CAST(${value} AS Nullable(Float64)) AS v${index}`;
  });
  const wide = builder.cte(`SELECT gid, t, ${columns.join(', ')} FROM ${stats}`);
  const parts = node.specs.map(
    (_, index) => `SELECT gid * 16 + ${index} AS sid, t, assumeNotNull(v${index}) AS v FROM ${wide} WHERE v${index} IS NOT NULL AND isFinite(v${index})`,
  );
  const pts = builder.cte(parts.join(' UNION ALL '));
  const names = pairsTable(node.specs.map((spec, index) => [index, builder.param(specName(spec))]));
  const tags = builder.cte(
    `SELECT g.gid * 16 + n.code AS sid, ${setTags('g.gtags', [{ key: builder.param(BUCKET_SPEC_TAG), value: stringTag('n.name') }])} AS tags
     FROM ${groups} AS g CROSS JOIN ${names} AS n`,
  );
  return { pts, tags };
}

/** Group ids (a hash of the kept tags) for the series of `sidTags` (`idColumn`, tags). */
function groupsOf(builder: StatementBuilder, sidTags: string, idColumn: string, keys: string[]): { map: string; groups: string } {
  const mapped = builder.cte(`SELECT ${idColumn} AS msid, ${keepTags('tags', keys)} AS gtags, toUInt128(sipHash64(gtags)) AS gid FROM ${sidTags}`);
  const groups = builder.cte(`SELECT DISTINCT gtags, gid FROM ${mapped}`);
  const map = builder.cte(`SELECT msid AS sid, gid FROM ${mapped}`);
  return { map, groups };
}

/** Sorted arrays of bounds and values from grouped (bound, value) pairs. */
const sortedPairs = (bound: string, value: string) =>
  `arrayMap(x -> tupleElement(x, 1), arraySort(groupArray((${bound}, ${value})))) AS les, arrayMap(x -> tupleElement(x, 2), arraySort(groupArray((${bound}, ${value})))) AS cvs`;

/**
 * `histogram(specs)` over scalar series: per group (the `le` tag aside) and window, counts,
 * sums, extremes and exact quantiles of the values; where series carry an `le` tag
 * (Prometheus buckets of cumulative counts), quantiles interpolate within those buckets
 * (each bucket series averaged over the window, equal bounds summed across series).
 */
export function scalarBuckets(builder: StatementBuilder, node: BucketNode, input: Relation): Relation {
  const keys = node.tags.filter((tag) => tag !== 'le').map((tag) => builder.param(tag));
  const withLe = builder.cte(`SELECT sid, tags, toFloat64OrNull(substring(tags[${builder.param('le')}], 2)) AS le FROM ${input.tags}`);
  const { map, groups } = groupsOf(builder, withLe, 'sid', keys);
  const raw = builder.cte(
    `SELECT m.gid AS gid, ${bucketOf('p.t', node.grid.origin, node.grid.step)} AS bt, l.le AS le, p.sid AS psid, p.v AS pv
     FROM ${input.pts} AS p JOIN ${map} AS m ON m.sid = p.sid JOIN ${withLe} AS l ON l.sid = p.sid`,
  );
  const quantiles = node.specs.filter((spec) => spec.kind === 'quantile').map((spec) => String((spec as { q: number }).q));
  const perLe = builder.cte(
    `SELECT gid, bt, ${sortedPairs('ble', 'cv')} FROM (
       SELECT gid, bt, ble, sum(av) AS cv FROM (
         SELECT gid, bt, assumeNotNull(le) AS ble, psid, avg(pv) AS av FROM ${raw} WHERE le IS NOT NULL GROUP BY gid, bt, ble, psid)
       GROUP BY gid, bt, ble)
     GROUP BY gid, bt`,
  );
  const stats = builder.cte(
    `SELECT st.gid AS gid, st.bt AS t, st.sc AS c, st.ss AS s, st.slo AS lo, st.shi AS hi, CAST(NULL AS Nullable(Float64)) AS qlo,
       CAST(NULL AS Nullable(Float64)) AS qhi, st.sqs AS qs, h.les AS les, h.cvs AS cvs FROM (
       SELECT gid, bt, toFloat64(count(pv)) AS sc, sum(pv) AS ss, min(pv) AS slo, max(pv) AS shi,
         ${quantiles.length > 0 ? `quantilesExactInclusive(${quantiles.join(', ')})(pv)` : `CAST([] AS Array(Float64))`} AS sqs
       FROM ${raw} GROUP BY gid, bt) AS st LEFT JOIN ${perLe} AS h ON h.gid = st.gid AND h.bt = st.bt`,
  );
  return specSeries(builder, node, stats, groups, null);
}

/** `interpolate_delta_histogram` / `interpolate_cumulative_histogram` over a histogram source. */
export function distributionBuckets(builder: StatementBuilder, node: BucketNode, source: SourceNode): Relation {
  const tables = metricsTablesOf(source.table);
  const series = `${quoteIdentifier(tables.series)} FINAL`;
  const dists = quoteIdentifier(tables.dists);
  const conditions = [`metric = ${builder.param(source.metricName)}`, `type IN ('histogram', 'exponential_histogram')`];
  if (source.filter) conditions.push(filterSql(source.filter, 'tags', builder));
  if (source.sample !== null) conditions.push(`sipHash64(id) % 1000000 < ${Math.round(source.sample * 1_000_000)}`);
  const selected = builder.cte(`SELECT id, tags FROM ${series} WHERE ${conditions.join(' AND ')}`);
  const keys = node.tags.map((tag) => builder.param(tag));
  const { map, groups } = groupsOf(builder, selected, 'id', keys);
  const range = `d.t >= ${source.read.from} AND d.t < ${source.read.to} AND notEmpty(d.counts)`;
  let points: string;
  if (node.fn === 'interpolate_delta') {
    points = builder.cte(
      `SELECT m.gid AS gid, ${bucketOf('d.t', node.grid.origin, node.grid.step)} AS bt, d.count AS dc, d.sum AS dsum, d.min AS dmin, d.max AS dmax,
         d.bounds AS dbounds, d.counts AS dcounts
       FROM ${dists} AS d JOIN ${map} AS m ON m.sid = d.series_id WHERE ${range}`,
    );
  } else {
    // Cumulative points become increases since the previous point of their series; a drop in
    // the count or a change of bounds is a restart, whose own counts are the increase.
    const lagged = builder.cte(
      `SELECT m.gid AS gid, d.series_id AS lsid, d.t AS lt, d.count AS c0, d.sum AS s0, d.bounds AS b0, d.counts AS k0,
         lagInFrame(toNullable(d.count)) OVER w AS p_count, lagInFrame(d.sum) OVER w AS p_sum, lagInFrame(d.bounds) OVER w AS p_bounds,
         lagInFrame(d.counts) OVER w AS p_counts
       FROM ${dists} AS d JOIN ${map} AS m ON m.sid = d.series_id WHERE ${range}
       WINDOW w AS (PARTITION BY d.series_id ORDER BY d.t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`,
    );
    const restart = `(c0 < p_count OR b0 != p_bounds)`;
    points = builder.cte(
      `SELECT gid, ${bucketOf('lt', node.grid.origin, node.grid.step)} AS bt,
         assumeNotNull(if(${restart}, c0, c0 - p_count)) AS dc,
         if(${restart}, s0, s0 - p_sum) AS dsum,
         CAST(NULL AS Nullable(Float64)) AS dmin, CAST(NULL AS Nullable(Float64)) AS dmax, b0 AS dbounds,
         if(${restart}, k0, arrayMap(i -> k0[i] - p_counts[i], arrayEnumerate(k0))) AS dcounts
       FROM ${lagged} WHERE p_count IS NOT NULL`,
    );
  }
  const cells = builder.cte(
    `SELECT gid, bt, bound, sum(cnt) AS c FROM (
       SELECT gid, bt, tupleElement(bc, 1) AS bound, tupleElement(bc, 2) AS cnt FROM (
         SELECT gid, bt, arrayJoin(arrayMap(i -> (if(i <= length(dbounds), dbounds[i], inf), dcounts[i]), arrayEnumerate(dcounts))) AS bc FROM ${points}))
     GROUP BY gid, bt, bound`,
  );
  const lists = builder.cte(
    `SELECT gid, bt, ${sortedPairs('bound', 'cc')} FROM (
       SELECT gid, bt, bound, sum(c) OVER (PARTITION BY gid, bt ORDER BY bound) AS cc FROM ${cells}) GROUP BY gid, bt`,
  );
  const stats = builder.cte(
    `SELECT st.gid AS gid, st.bt AS t, st.sc AS c, st.ss AS s, st.slo AS lo, st.shi AS hi, st.slo AS qlo, st.shi AS qhi,
       CAST([] AS Array(Float64)) AS qs, l.les AS les, l.cvs AS cvs FROM (
       SELECT gid, bt, sum(dc) AS sc, sum(dsum) AS ss, min(dmin) AS slo, max(dmax) AS shi FROM ${points} GROUP BY gid, bt) AS st
     JOIN ${lists} AS l ON l.gid = st.gid AND l.bt = st.bt`,
  );
  return specSeries(builder, node, stats, groups, node.conversion === 'rate' ? node.grid.step : null);
}
