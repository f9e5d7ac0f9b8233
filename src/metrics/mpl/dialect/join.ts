// `join`: tags lent to each series by the series of another metric with the same values of the
// `by` tags (the first value found where several lenders match).
import { metricsTablesOf } from '../../store/layout';
import type { JoinNode } from '../semantic/plan';
import type { NodeContext } from './context';
import type { Relation } from './statement';

export function joinSql(context: NodeContext, node: JoinNode): Relation {
  const b = context.builder;
  const sql = b.engine;
  const input = context.relationOf(node.input);
  const series = sql.seriesTable(sql.identifier(metricsTablesOf(node.table).series));
  const by = node.by.map((tag) => b.param(tag));
  const pulled = node.tags.map((tag) => b.param(tag));
  const tagOf = (key: string) => sql.tagOf('tags', key);
  const lenders = b.cte(
    `SELECT ${by.map((key, index) => `${tagOf(key)} AS b${index}`).join(', ')},
       ${pulled.map((key, index) => `any_value(${tagOf(key)}) FILTER (WHERE ${tagOf(key)} IS NOT NULL) AS v${index}`).join(', ')}
     FROM ${series} WHERE metric = ${b.param(node.fromMetric)} AND ${by.map((key) => `${tagOf(key)} IS NOT NULL`).join(' AND ')}
     GROUP BY ALL`,
  );
  const on = by.map((key, index) => `l.b${index} = ${sql.tagOf('i.tags', key)}`).join(' AND ');
  const entries = pulled.map((key, index) => ({ key, value: `coalesce(l.v${index}, ${sql.tagOf('i.tags', key)})` }));
  return { pts: input.pts, tags: b.tagged(`SELECT i.sid AS _s, ${sql.setTags('i.tags', entries)} AS _g FROM ${input.tags} AS i LEFT JOIN ${lenders} AS l ON ${on}`) };
}
