// `compute`: two series sets combined by an operator, strictly: series with equal tag sets, at
// the times both have.
import type { ComputeNode } from '../semantic/plan';
import type { NodeContext } from './context';
import type { Relation } from './statement';

export function computeSql(context: NodeContext, node: ComputeNode): Relation {
  const b = context.builder;
  const left = context.relationOf(node.left);
  const right = context.relationOf(node.right);
  const pairs = b.cte(`SELECT l.sid AS lsid, r.sid AS rsid FROM ${left.tags} AS l JOIN ${right.tags} AS r ON l.tags = r.tags`);
  const value = {
    add: 'a.v + c.v',
    sub: 'a.v - c.v',
    mul: 'a.v * c.v',
    div: 'a.v / c.v',
    min: 'least(a.v, c.v)',
    max: 'greatest(a.v, c.v)',
    avg: '(a.v + c.v) / 2',
  }[node.op];
  const pts = b.points(
    `SELECT p.lsid AS _s, a.t AS _t, ${value} AS _v FROM ${pairs} AS p
     JOIN ${left.pts} AS a ON a.sid = p.lsid JOIN ${right.pts} AS c ON c.sid = p.rsid AND c.t = a.t${node.op === 'div' ? ' WHERE c.v <> 0' : ''}`,
  );
  const tags = b.cte(`SELECT sid, tags FROM ${left.tags} WHERE sid IN (SELECT lsid FROM ${pairs})`);
  return { pts, tags };
}
