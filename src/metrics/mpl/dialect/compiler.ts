// The one MPL SQL compiler: each plan node becomes common table expressions holding its points
// (sid, t, v) and its series' tags (sid, tags); the statement ends with one row per series on
// the answer's grid. The SQL is written once for both engines; an engine (duckdb.ts,
// clickhouse.ts) supplies only the pieces it spells or means differently (engine.ts).
import { gridStart } from '../semantic/analyzer';
import type { MetricsPlan, SeriesNode } from '../semantic/plan';
import { alignSql } from './align';
import { computeSql } from './compute';
import type { NodeContext } from './context';
import type { CompiledMetricsSql, MetricsDialect } from './dialect';
import type { MplEngine } from './engine';
import { groupSql } from './group';
import { distributionBuckets, scalarBuckets } from './histogram';
import { joinSql } from './join';
import { mapSql } from './map';
import { retagSql } from './retag';
import { sourceSql } from './source';
import { type Relation, StatementBuilder } from './statement';

type NodeCompiler<K extends SeriesNode['kind']> = (context: NodeContext, node: Extract<SeriesNode, { kind: K }>) => Relation;

/** The SQL of each kind of plan node. */
const NODE_COMPILERS: { [K in SeriesNode['kind']]: NodeCompiler<K> } = {
  source: sourceSql,
  map: mapSql,
  align: alignSql,
  group: groupSql,
  bucket: (context, node) => (node.fn === 'histogram' ? scalarBuckets(context, node) : distributionBuckets(context, node)),
  compute: computeSql,
  retag: retagSql,
  join: joinSql,
};

function relationOf(context: NodeContext, node: SeriesNode): Relation {
  // The table pairs each kind with its node type; TypeScript cannot follow that through the lookup.
  const compile = NODE_COMPILERS[node.kind] as (context: NodeContext, node: SeriesNode) => Relation;
  return compile(context, node);
}

/** The statement answering `plan` in `engine`'s SQL: at most `maxSeries` rows. */
export function compileMpl(engine: MplEngine, plan: MetricsPlan, maxSeries: number): CompiledMetricsSql {
  const builder = new StatementBuilder(engine);
  const context: NodeContext = { builder, relationOf: (node) => relationOf(context, node) };
  const root = relationOf(context, plan.root);
  const first = gridStart(plan.grid, plan.span.from);
  const sql = engine.answer(builder, root, `t >= ${first} AND t < ${plan.span.to} AND v IS NOT NULL`, maxSeries);
  return { sql, params: [] };
}

/** The MPL dialect of an engine. */
export function metricsDialectOf(engine: MplEngine): MetricsDialect {
  return { name: engine.name, compile: (plan, maxSeries) => compileMpl(engine, plan, maxSeries) };
}
