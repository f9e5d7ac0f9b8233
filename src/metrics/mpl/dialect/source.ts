// A metric's series as relations. Series are chosen on the series table first, and only their
// points are read, within the time range. Distributions read as scalar series too, one per
// view (count, sum, min, max, and summaries' quantiles), told apart by the axiom.histogram tag;
// their ids are the series id * 64 + the view.
import { metricsTablesOf } from '../../store/layout';
import { HISTOGRAM_TAG, QUANTILE_TAG, type SourceNode } from '../semantic/plan';
import type { NodeContext } from './context';
import { filterSql } from './filter';
import { pairsTable, type Relation } from './statement';

/** Series ids of the scalar views of distribution series: id * 64 + view. */
const VIEWS_PER_SERIES = 64;
const HISTOGRAM_VIEWS: [number, string, string][] = [
  [1, 'count', 'count'],
  [2, 'sum', 'sum'],
  [3, 'min', 'min'],
  [4, 'max', 'max'],
];
const FIRST_QUANTILE_VIEW = 8;
const MAX_QUANTILES = VIEWS_PER_SERIES - FIRST_QUANTILE_VIEW;

/** The stable sampling test of a series id column. */
export function sampled(context: NodeContext, id: string, sample: number | null): string {
  return sample === null ? '' : ` AND ${context.builder.engine.hash(id)} % 1000000 < ${Math.round(sample * 1_000_000)}`;
}

export function sourceSql(context: NodeContext, node: SourceNode): Relation {
  const b = context.builder;
  const sql = b.engine;
  const tables = metricsTablesOf(node.table);
  const series = sql.seriesTable(sql.identifier(tables.series));
  const within = (t: string) => `${t} >= ${node.read.from} AND ${t} < ${node.read.to}`;
  const range = within('t');
  const binding = node.binding;
  if (!binding.scalar && !binding.distribution) {
    // No series of this metric: an empty set of the right shape.
    const tags = b.cte(`SELECT ${sql.seriesId('0')} AS sid, ${sql.emptyTags} AS tags WHERE false`);
    const pts = b.cte(`SELECT ${sql.seriesId('0')} AS sid, ${sql.int(0)} AS t, ${sql.double(0)} AS v WHERE false`);
    return { pts, tags };
  }
  const metric = b.param(node.metricName);
  if (!binding.distribution) {
    const filter = node.filter ? ` AND ${filterSql(node.filter, 'tags', b)}` : '';
    const chosen = b.cte(`SELECT id, tags FROM ${series} WHERE metric = ${metric} AND type IN ('gauge', 'sum')${filter}${sampled(context, 'id', node.sample)}`);
    // Series ids as stored where the engine allows, so it can filter the points scan by them.
    const tags = b.tagged(`SELECT ${sql.storedSeriesId('id')} AS _s, tags AS _g FROM ${chosen}`);
    const pts = b.points(
      `SELECT ${sql.storedSeriesId('series_id')} AS _s, t AS _t, value AS _v FROM ${sql.identifier(tables.points)} WHERE ${range} AND series_id IN (SELECT id FROM ${chosen})`,
    );
    return { pts, tags };
  }
  const dists = sql.identifier(tables.dists);
  const viewTag = b.param(HISTOGRAM_TAG);
  const views = pairsTable(HISTOGRAM_VIEWS.map(([code, name]) => [code, b.param(name)]));
  const aliased = sql.seriesTable(sql.identifier(tables.series), 's');
  const candidates: string[] = [];
  const points: string[] = [];
  if (binding.scalar) {
    candidates.push(
      `SELECT ${sql.seriesId('id')} * ${VIEWS_PER_SERIES} AS _s, tags AS _g FROM ${series} WHERE metric = ${metric} AND type IN ('gauge', 'sum')${sampled(context, 'id', node.sample)}`,
    );
    points.push(`SELECT ${sql.seriesId('series_id')} * ${VIEWS_PER_SERIES} AS _s, t AS _t, ${sql.nullable('value')} AS _v FROM ${sql.identifier(tables.points)} WHERE ${range}`);
  }
  candidates.push(
    `SELECT ${sql.seriesId('s.id')} * ${VIEWS_PER_SERIES} + c.code AS _s, ${sql.setTags('s.tags', [{ key: viewTag, value: sql.stringTag('c.name') }])} AS _g
     FROM ${aliased} CROSS JOIN ${views} AS c
     WHERE s.metric = ${metric} AND s.type <> 'gauge' AND s.type <> 'sum'${sampled(context, 's.id', node.sample)}
       AND (s.type <> 'summary' OR c.code <= 2)`,
  );
  const viewValue = HISTOGRAM_VIEWS.map(([code, , column]) => `WHEN c.code = ${code} THEN d.${column}`).join(' ');
  points.push(
    `SELECT _s, _t, _v FROM (SELECT ${sql.seriesId('d.series_id')} * ${VIEWS_PER_SERIES} + c.code AS _s, d.t AS _t, CASE ${viewValue} END AS _v
     FROM ${dists} AS d CROSS JOIN ${views} AS c WHERE ${within('d.t')}) WHERE _v IS NOT NULL`,
  );
  if (binding.summary) {
    const quantiles = b.cte(
      `SELECT series_id, i, min(quantiles[i]) AS q FROM (
         SELECT series_id, quantiles, ${sql.unnestRange('1', 'length(quantiles) + 1', '1')} AS i FROM ${dists} WHERE ${range} AND ${sql.listPresent('quantiles')})
       WHERE i <= ${MAX_QUANTILES} GROUP BY series_id, i`,
    );
    candidates.push(
      `SELECT ${sql.seriesId('s.id')} * ${VIEWS_PER_SERIES} + ${FIRST_QUANTILE_VIEW - 1} + qs.i AS _s,
         ${sql.setTags('s.tags', [
           { key: viewTag, value: sql.stringTag(b.param('quantile')) },
           { key: b.param(QUANTILE_TAG), value: sql.floatTag('qs.q') },
         ])} AS _g
       FROM ${aliased} JOIN ${quantiles} AS qs ON qs.series_id = s.id WHERE s.metric = ${metric}${sampled(context, 's.id', node.sample)}`,
    );
    points.push(
      `SELECT ${sql.seriesId('series_id')} * ${VIEWS_PER_SERIES} + ${FIRST_QUANTILE_VIEW - 1} + i AS _s, t AS _t, ${sql.nullable('qvalues[i]')} AS _v FROM (
         SELECT series_id, t, qvalues, ${sql.unnestRange('1', 'length(qvalues) + 1', '1')} AS i FROM ${dists} WHERE ${range} AND ${sql.listPresent('qvalues')})
       WHERE i <= ${MAX_QUANTILES}`,
    );
  }
  const all = b.tagged(candidates.join(' UNION ALL '));
  const tags = b.cte(`SELECT sid, tags FROM ${all}${node.filter ? ` WHERE ${filterSql(node.filter, 'tags', b)}` : ''}`);
  const pts = b.points(`SELECT _s, _t, ${sql.notNull('_v')} AS _v FROM (${points.join(' UNION ALL ')}) WHERE _s IN (SELECT sid FROM ${tags})`);
  return { pts, tags };
}
