// `align`: each series' points aggregated per step of the grid, or over a sliding window of the
// trailing `over` seconds (per step partial aggregates, combined by a window over the steps).
import type { AlignNode } from '../semantic/plan';
import { BEFORE, bucketOf, type NodeContext } from './context';
import type { Relation } from './statement';

export function alignSql(context: NodeContext, node: AlignNode): Relation {
  const b = context.builder;
  const sql = b.engine;
  const input = context.relationOf(node.input);
  const { origin, step } = node.grid;
  const bucket = bucketOf(b, 't', origin, step);
  const rated = node.fn === 'prom_rate';
  const lagged = rated && !node.delta;
  const increase = node.delta ? 'v' : 'CASE WHEN v >= pv THEN v - pv ELSE v END';
  const source = lagged ? `(SELECT sid, t, v, ${sql.lag('v')} OVER (${BEFORE}) AS pv FROM ${input.pts})` : input.pts;
  const conditions: string[] = [];
  // A window over the whole range starts at the range: earlier points only feed rates.
  if (origin !== 0) conditions.push(`t >= ${origin}`);
  if (lagged) conditions.push('pv IS NOT NULL');
  const whereSql = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  if (node.over === null) {
    const aggregate: Record<AlignNode['fn'], string> = {
      avg: 'avg(v)',
      sum: 'sum(v)',
      min: 'min(v)',
      max: 'max(v)',
      count: sql.toDouble('count(v)'),
      last: 'argMax(v, t)',
      prom_rate: `sum(${sql.notNull(increase)}) / ${step}`,
    };
    const pts = b.points(`SELECT sid AS _s, ${bucket} AS _t, ${aggregate[node.fn]} AS _v FROM ${source}${whereSql} GROUP BY _s, _t`);
    return { pts, tags: input.tags };
  }
  const partial = b.cte(
    `SELECT _s AS sid, _t AS t, _sum AS s, _count AS c, _lo AS lo, _hi AS hi, _last AS last${rated ? ', _inc AS inc' : ''} FROM (
       SELECT sid AS _s, ${bucket} AS _t, sum(v) AS _sum, count(v) AS _count, min(v) AS _lo, max(v) AS _hi, argMax(v, t) AS _last${rated ? `, sum(${sql.notNull(increase)}) AS _inc` : ''}
       FROM ${source}${whereSql} GROUP BY _s, _t)`,
  );
  const rows = node.over / step - 1;
  const windowed = b.cte(
    `SELECT g.sid AS sid, g.t AS t, sum(p.s) OVER w AS s, sum(p.c) OVER w AS c, min(p.lo) OVER w AS lo, max(p.hi) OVER w AS hi,
       ${sql.lastValue('p.last')} OVER w AS last${rated ? ', sum(p.inc) OVER w AS inc, count(p.inc) OVER w AS incs' : ''}
     FROM (SELECT sid, ${sql.unnestRange('first', sql.int(node.span.to), sql.int(step))} AS t FROM (SELECT sid, min(t) AS first FROM ${partial} GROUP BY sid)) AS g
     LEFT JOIN ${partial} AS p ON p.sid = g.sid AND p.t = g.t
     WINDOW w AS (PARTITION BY g.sid ORDER BY g.t ROWS BETWEEN ${rows} PRECEDING AND CURRENT ROW)`,
  );
  const combine: Record<AlignNode['fn'], string> = {
    avg: 's / c',
    sum: 's',
    min: 'lo',
    max: 'hi',
    count: 'c',
    last: 'last',
    prom_rate: `inc / ${node.over}`,
  };
  const pts = b.points(`SELECT sid AS _s, t AS _t, ${sql.toDouble(sql.notNull(combine[node.fn]))} AS _v FROM ${windowed} WHERE c > 0${rated ? ' AND incs > 0' : ''}`);
  return { pts, tags: input.tags };
}
