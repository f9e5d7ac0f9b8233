// `map`: functions of each point's value (arithmetic, tests, rates between a series' points) and
// the fills, which complete a series on the grid before filling its gaps.
import { gridStart } from '../semantic/analyzer';
import type { MapNode, ValueTest } from '../semantic/plan';
import { BEFORE, type NodeContext } from './context';
import type { Relation } from './statement';

export const TEST_SQL: Record<ValueTest, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=', eq: '=', neq: '<>' };

/** Every step of the grid from the span's first step, for each series of `input` (sid, t, v or NULL). */
function completeGrid(context: NodeContext, input: Relation, node: MapNode): string {
  const b = context.builder;
  const sql = b.engine;
  const grid = node.grid!;
  const from = gridStart(grid, node.span.from);
  return b.cte(
    `SELECT g.sid AS sid, g.t AS t, p.v AS v FROM (
       SELECT sid, ${sql.unnestRange(sql.int(from), sql.int(node.span.to), sql.int(grid.step))} AS t FROM (SELECT DISTINCT sid FROM ${input.pts})) AS g
     LEFT JOIN ${input.pts} AS p ON p.sid = g.sid AND p.t = g.t`,
  );
}

export function mapSql(context: NodeContext, node: MapNode): Relation {
  const b = context.builder;
  const sql = b.engine;
  const input = context.relationOf(node.input);
  const fn = node.fn;
  const each = (value: string) => `SELECT sid AS _s, t AS _t, ${value} AS _v FROM ${input.pts}`;
  let body: string;
  switch (fn.kind) {
    case 'add':
      body = each(`v + ${sql.double(fn.value)}`);
      break;
    case 'sub':
      body = each(`v - ${sql.double(fn.value)}`);
      break;
    case 'mul':
      body = each(`v * ${sql.double(fn.value)}`);
      break;
    case 'div':
      body = each(`v / ${sql.double(fn.value)}`);
      break;
    case 'min':
      body = each(`least(v, ${sql.double(fn.value)})`);
      break;
    case 'max':
      body = each(`greatest(v, ${sql.double(fn.value)})`);
      break;
    case 'abs':
      body = each('abs(v)');
      break;
    case 'filter':
      body = `SELECT sid AS _s, t AS _t, v AS _v FROM ${input.pts} WHERE v ${TEST_SQL[fn.test]} ${sql.double(fn.value)}`;
      break;
    case 'is':
      body = each(`CASE WHEN v ${TEST_SQL[fn.test]} ${sql.double(fn.value)} THEN 1.0 ELSE 0.0 END`);
      break;
    case 'rate':
    case 'increase': {
      const change = node.delta ? 'v' : fn.kind === 'rate' ? 'v - pv' : 'CASE WHEN v >= pv THEN v - pv ELSE v END';
      const value = fn.kind === 'rate' ? `(${change}) / (t - pt)` : change;
      body = `SELECT sid AS _s, t AS _t, ${sql.notNull(value)} AS _v FROM (
          SELECT sid, t, v, ${sql.lag('v')} OVER w AS pv, ${sql.lag('t')} OVER w AS pt FROM ${input.pts} WINDOW w AS (${BEFORE}))
        WHERE pt IS NOT NULL`;
      break;
    }
    case 'fill_const':
      body = `SELECT sid AS _s, t AS _t, coalesce(v, ${sql.double(fn.value)}) AS _v FROM ${completeGrid(context, input, node)}`;
      break;
    case 'fill_prev':
      body = `SELECT _s, _t, ${sql.notNull('_f')} AS _v FROM (
          SELECT sid AS _s, t AS _t, ${sql.lastValue('v')} OVER (${BEFORE}) AS _f FROM ${completeGrid(context, input, node)}) WHERE _f IS NOT NULL`;
      break;
    case 'interpolate_linear':
      body = `SELECT _s, _t, ${sql.notNull('_f')} AS _v FROM (
          SELECT sid AS _s, t AS _t, CASE WHEN v IS NOT NULL THEN v WHEN pt IS NOT NULL AND nt IS NOT NULL THEN pv + (nv - pv) * (t - pt) / (nt - pt) END AS _f
          FROM (SELECT sid, t, v,
              ${sql.lastValue('CASE WHEN v IS NOT NULL THEN t END')} OVER before AS pt, ${sql.lastValue('v')} OVER before AS pv,
              ${sql.firstValue('CASE WHEN v IS NOT NULL THEN t END')} OVER after AS nt, ${sql.firstValue('v')} OVER after AS nv
            FROM ${completeGrid(context, input, node)}
            WINDOW before AS (PARTITION BY sid ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                   after AS (PARTITION BY sid ORDER BY t ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)))
        WHERE _f IS NOT NULL`;
      break;
  }
  return { pts: b.points(body), tags: input.tags };
}
