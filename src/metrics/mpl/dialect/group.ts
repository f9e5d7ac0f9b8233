// `group by`: series with equal kept tags aggregated into one series per group, point by point.
import type { GroupNode } from '../semantic/plan';
import type { NodeContext } from './context';
import type { Relation } from './statement';

export function groupSql(context: NodeContext, node: GroupNode): Relation {
  const b = context.builder;
  const sql = b.engine;
  const input = context.relationOf(node.input);
  const keys = node.tags.map((tag) => b.param(tag));
  const { members, groups } = sql.groupIds(b, input.tags, 'sid', keys);
  const aggregate = { avg: 'avg(p.v)', sum: 'sum(p.v)', min: 'min(p.v)', max: 'max(p.v)', count: sql.toDouble('count(p.v)') }[node.fn];
  const pts = b.points(`SELECT m.gid AS _s, p.t AS _t, ${aggregate} AS _v FROM ${input.pts} AS p JOIN ${members} AS m ON m.sid = p.sid GROUP BY _s, _t`);
  const tags = b.tagged(`SELECT gid AS _s, gtags AS _g FROM ${groups}`);
  return { pts, tags };
}
