// `bucket`: series combined per group and window into one series per spec (counts, sums,
// extremes, averages and quantiles), from scalar series (`histogram`) or from the buckets of
// distribution points (`interpolate_delta_histogram`, `interpolate_cumulative_histogram`).
import { metricsTablesOf } from '../../store/layout';
import { BUCKET_SPEC_TAG, type BucketNode, type BucketSpec, type SourceNode } from '../semantic/plan';
import { bucketOf, type NodeContext } from './context';
import { filterSql } from './filter';
import { bucketQuantile } from './quantile';
import { sampled } from './source';
import { pairsTable, type Relation, type StatementBuilder } from './statement';

/** The name a spec's series carries in the `spec` tag: p50, p99.9, count, avg, ... */
export function specName(spec: BucketSpec): string {
  if (spec.kind !== 'quantile') return spec.kind;
  return `p${Number((spec.q * 100).toPrecision(12))}`;
}

/**
 * One series per (group, spec) from grouped statistics: `stats` has (gid, t, c, s, lo, hi,
 * qlo, qhi, qs, les, cvs): count, sum, min and max of the values, the ends of the first and
 * last buckets for quantiles, exact quantiles `qs` (scalar input) and the bucket lists.
 */
function specSeries(builder: StatementBuilder, node: BucketNode, stats: string, groups: string, perSecond: number | null): Relation {
  const sql = builder.engine;
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
        value = `CASE WHEN ${sql.listPresent('les')} THEN ${bucketQuantile(sql, spec.q, 'qlo', 'qhi')} WHEN length(qs) >= ${quantileIndex} THEN qs[${quantileIndex}] END`;
        break;
    }
    return `${sql.toDouble(value)} AS v${index}`;
  });
  const wide = builder.cte(`SELECT gid, t, ${columns.join(', ')} FROM ${stats}`);
  const parts = node.specs.map(
    (_, index) => `SELECT gid * 16 + ${index} AS sid, t, ${sql.notNull(`v${index}`)} AS v FROM ${wide} WHERE v${index} IS NOT NULL AND isFinite(v${index})`,
  );
  const pts = builder.cte(parts.join(' UNION ALL '));
  const names = pairsTable(node.specs.map((spec, index) => [index, builder.param(specName(spec))]));
  const tags = builder.cte(
    `SELECT g.gid * 16 + n.code AS sid, ${sql.setTags('g.gtags', [{ key: builder.param(BUCKET_SPEC_TAG), value: sql.stringTag('n.name') }])} AS tags
     FROM ${groups} AS g CROSS JOIN ${names} AS n`,
  );
  return { pts, tags };
}

/**
 * `histogram(specs)` over scalar series: per group (the `le` tag aside) and window, counts,
 * sums, extremes and exact quantiles of the values; where series carry an `le` tag
 * (Prometheus buckets of cumulative counts), quantiles interpolate within those buckets
 * (each bucket series averaged over the window, equal bounds summed across series).
 */
export function scalarBuckets(context: NodeContext, node: BucketNode): Relation {
  const builder = context.builder;
  const sql = builder.engine;
  const input = context.relationOf(node.input);
  const keys = node.tags.filter((tag) => tag !== 'le').map((tag) => builder.param(tag));
  const le = sql.textToDouble(sql.tagText(sql.tagOf('tags', builder.param('le'))));
  const withLe = builder.cte(`SELECT sid, tags, ${le} AS le FROM ${input.tags}`);
  const { members, groups } = sql.groupIds(builder, withLe, 'sid', keys);
  const raw = builder.cte(
    `SELECT m.gid AS gid, ${bucketOf(builder, 'p.t', node.grid.origin, node.grid.step)} AS bt, l.le AS le, p.sid AS psid, p.v AS pv
     FROM ${input.pts} AS p JOIN ${members} AS m ON m.sid = p.sid JOIN ${withLe} AS l ON l.sid = p.sid`,
  );
  const quantiles = node.specs.filter((spec) => spec.kind === 'quantile').map((spec) => (spec as { q: number }).q);
  const perLe = builder.cte(
    `SELECT gid, bt, ${sql.sortedLists('ble', 'cv', 'les', 'cvs')} FROM (
       SELECT gid, bt, ble, sum(av) AS cv FROM (
         SELECT gid, bt, ${sql.notNull('le')} AS ble, psid, avg(pv) AS av FROM ${raw} WHERE le IS NOT NULL GROUP BY gid, bt, ble, psid)
       GROUP BY gid, bt, ble)
     GROUP BY gid, bt`,
  );
  const stats = builder.cte(
    `SELECT st.gid AS gid, st.bt AS t, st.sc AS c, st.ss AS s, st.slo AS lo, st.shi AS hi, ${sql.nullDouble} AS qlo, ${sql.nullDouble} AS qhi,
       st.sqs AS qs, h.les AS les, h.cvs AS cvs FROM (
       SELECT gid, bt, ${sql.toDouble('count(pv)')} AS sc, sum(pv) AS ss, min(pv) AS slo, max(pv) AS shi,
         ${quantiles.length > 0 ? sql.exactQuantiles('pv', quantiles) : sql.absentList} AS sqs
       FROM ${raw} GROUP BY gid, bt) AS st LEFT JOIN ${perLe} AS h ON h.gid = st.gid AND h.bt = st.bt`,
  );
  return specSeries(builder, node, stats, groups, null);
}

/** `interpolate_delta_histogram` / `interpolate_cumulative_histogram` over a histogram source. */
export function distributionBuckets(context: NodeContext, node: BucketNode): Relation {
  const builder = context.builder;
  const sql = builder.engine;
  const source = node.input as SourceNode;
  const tables = metricsTablesOf(source.table);
  const series = sql.seriesTable(sql.identifier(tables.series));
  const dists = sql.identifier(tables.dists);
  const filter = source.filter ? ` AND ${filterSql(source.filter, 'tags', builder)}` : '';
  const selected = builder.cte(
    `SELECT id, tags FROM ${series} WHERE metric = ${builder.param(source.metricName)} AND type IN ('histogram', 'exponential_histogram')${filter}${sampled(context, 'id', source.sample)}`,
  );
  const keys = node.tags.map((tag) => builder.param(tag));
  const { members, groups } = sql.groupIds(builder, selected, 'id', keys);
  const range = `d.t >= ${source.read.from} AND d.t < ${source.read.to} AND ${sql.listPresent('d.counts')}`;
  let points: string;
  if (node.fn === 'interpolate_delta') {
    points = builder.cte(
      `SELECT m.gid AS gid, ${bucketOf(builder, 'd.t', node.grid.origin, node.grid.step)} AS bt, d.count AS dc, d.sum AS dsum, d.min AS dmin, d.max AS dmax,
         d.bounds AS dbounds, d.counts AS dcounts
       FROM ${dists} AS d JOIN ${members} AS m ON m.sid = d.series_id WHERE ${range}`,
    );
  } else {
    // Cumulative points become increases since the previous point of their series; a drop in
    // the count or a change of bounds is a restart, whose own counts are the increase.
    const lagged = builder.cte(
      `SELECT m.gid AS gid, d.series_id AS lsid, d.t AS lt, d.count AS c0, d.sum AS s0, d.bounds AS b0, d.counts AS k0,
         ${sql.lag('d.count')} OVER w AS p_count, ${sql.lag('d.sum')} OVER w AS p_sum, ${sql.lag('d.bounds', 'list')} OVER w AS p_bounds,
         ${sql.lag('d.counts', 'list')} OVER w AS p_counts
       FROM ${dists} AS d JOIN ${members} AS m ON m.sid = d.series_id WHERE ${range}
       WINDOW w AS (PARTITION BY d.series_id ORDER BY d.t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`,
    );
    const restart = `(c0 < p_count OR b0 IS DISTINCT FROM p_bounds)`;
    points = builder.cte(
      `SELECT gid, ${bucketOf(builder, 'lt', node.grid.origin, node.grid.step)} AS bt,
         ${sql.notNull(`CASE WHEN ${restart} THEN c0 ELSE c0 - p_count END`)} AS dc,
         CASE WHEN ${restart} THEN s0 ELSE s0 - p_sum END AS dsum,
         ${sql.nullDouble} AS dmin, ${sql.nullDouble} AS dmax, b0 AS dbounds,
         CASE WHEN ${restart} THEN k0 ELSE ${sql.listMinus('k0', 'p_counts')} END AS dcounts
       FROM ${lagged} WHERE p_count IS NOT NULL`,
    );
  }
  const cells = builder.cte(`SELECT gid, bt, bound, sum(cnt) AS c FROM (${sql.bucketCells(points)}) GROUP BY gid, bt, bound`);
  const lists = builder.cte(
    `SELECT gid, bt, ${sql.sortedLists('bound', 'cc', 'les', 'cvs')} FROM (
       SELECT gid, bt, bound, sum(c) OVER (PARTITION BY gid, bt ORDER BY bound) AS cc FROM ${cells}) GROUP BY gid, bt`,
  );
  const stats = builder.cte(
    `SELECT st.gid AS gid, st.bt AS t, st.sc AS c, st.ss AS s, st.slo AS lo, st.shi AS hi, st.slo AS qlo, st.shi AS qhi,
       ${sql.absentList} AS qs, l.les AS les, l.cvs AS cvs FROM (
       SELECT gid, bt, sum(dc) AS sc, sum(dsum) AS ss, min(dmin) AS slo, max(dmax) AS shi FROM ${points} GROUP BY gid, bt) AS st
     JOIN ${lists} AS l ON l.gid = st.gid AND l.bt = st.bt`,
  );
  return specSeries(builder, node, stats, groups, node.conversion === 'rate' ? node.grid.step : null);
}
