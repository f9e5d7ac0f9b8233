// The DuckDB dialect of MPL: the only place that writes SQL for metrics queries. Each plan node
// becomes common table expressions holding its points (sid, t, v) and its series' tags
// (sid, tags); the statement ends with one row per series on the answer's grid. Series are
// chosen on the series table first, and only their points are read, within the time range.
import type { MetricsDialect } from '../dialect';
import { metricsTablesOf, quoteIdentifier, tagEntriesSql } from '../../../store/layout';
import { gridStart } from '../../semantic/analyzer';
import {
  type AlignNode,
  type ComputeNode,
  type GroupNode,
  HISTOGRAM_TAG,
  type JoinNode,
  type MapNode,
  type MetricsPlan,
  QUANTILE_TAG,
  type RetagNode,
  type SeriesNode,
  type SourceNode,
  type TimeSpan,
  type ValueTest,
} from '../../semantic/plan';
import { filterSql } from './filter';
import { bucketOf, distributionBuckets, scalarBuckets } from './histogram';
import { double, keepTags, type Relation, setTags, StatementBuilder, stringTag, tagText, tagValueLiteral } from './sql';

const TEST_SQL: Record<ValueTest, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=', eq: '=', neq: '<>' };

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

class Compiler {
  constructor(private readonly builder: StatementBuilder) {}

  node(node: SeriesNode): Relation {
    switch (node.kind) {
      case 'source':
        return this.source(node);
      case 'map':
        return this.map(node);
      case 'align':
        return this.align(node);
      case 'group':
        return this.group(node);
      case 'bucket':
        return node.fn === 'histogram' ? scalarBuckets(this.builder, node, this.node(node.input)) : distributionBuckets(this.builder, node, node.input as SourceNode);
      case 'compute':
        return this.compute(node);
      case 'retag':
        return this.retag(node);
      case 'join':
        return this.join(node);
    }
  }

  private source(node: SourceNode): Relation {
    const b = this.builder;
    const tables = metricsTablesOf(node.table);
    const series = quoteIdentifier(tables.series);
    const sample = node.sample === null ? '' : ` AND hash(id) % 1000000 < ${Math.round(node.sample * 1_000_000)}`;
    const within = (t: string) => `${t} >= ${node.read.from} AND ${t} < ${node.read.to}`;
    const range = within('t');
    const binding = node.binding;
    if (!binding.scalar && !binding.distribution) {
      // No series of this metric: an empty set of the right shape.
      const tags = b.cte(`SELECT id::BIGINT AS sid, tags FROM ${series} WHERE false`);
      const pts = b.cte(`SELECT 0::BIGINT AS sid, 0::BIGINT AS t, 0::DOUBLE AS v WHERE false`);
      return { pts, tags };
    }
    const metric = b.param(node.metricName);
    if (!binding.distribution) {
      const filter = node.filter ? ` AND ${filterSql(node.filter, 'tags', b)}` : '';
      // Series ids as stored (no cast), so the engine can filter the points scan by them.
      const tags = b.cte(`SELECT id AS sid, tags FROM ${series} WHERE metric = ${metric} AND type IN ('gauge', 'sum')${filter}${sample}`);
      const pts = b.cte(
        `SELECT series_id AS sid, t, value AS v FROM ${quoteIdentifier(tables.points)} WHERE ${range} AND series_id IN (SELECT sid FROM ${tags})`,
      );
      return { pts, tags };
    }
    // Distributions read as scalar series too: one per view, told apart by the axiom.histogram tag.
    const dists = quoteIdentifier(tables.dists);
    const viewTag = b.param(HISTOGRAM_TAG);
    const candidates: string[] = [];
    const points: string[] = [];
    if (binding.scalar) {
      candidates.push(`SELECT id::BIGINT * ${VIEWS_PER_SERIES} AS sid, tags FROM ${series} WHERE metric = ${metric} AND type IN ('gauge', 'sum')${sample}`);
      points.push(`SELECT series_id::BIGINT * ${VIEWS_PER_SERIES} AS sid, t, value AS v FROM ${quoteIdentifier(tables.points)} WHERE ${range}`);
    }
    const views = HISTOGRAM_VIEWS.map(([code, name]) => `(${code}, ${b.param(name)})`).join(', ');
    candidates.push(
      `SELECT s.id::BIGINT * ${VIEWS_PER_SERIES} + c.code AS sid, ${setTags('s.tags', [{ key: viewTag, value: stringTag('c.name') }])} AS tags
       FROM ${series} s, (VALUES ${views}) c(code, name)
       WHERE s.metric = ${metric} AND s.type <> 'gauge' AND s.type <> 'sum'${sample.replace('hash(id)', 'hash(s.id)')}
         AND (s.type <> 'summary' OR c.code <= 2)`,
    );
    const viewValue = HISTOGRAM_VIEWS.map(([code, , column]) => `WHEN ${code} THEN ${column}`).join(' ');
    points.push(
      `SELECT sid, t, v FROM (SELECT d.series_id::BIGINT * ${VIEWS_PER_SERIES} + c.code AS sid, d.t, CASE c.code ${viewValue} END AS v
       FROM ${dists} d, (VALUES ${views}) c(code, name) WHERE ${within('d.t')}) WHERE v IS NOT NULL`,
    );
    if (binding.summary) {
      const quantiles = b.cte(
        `SELECT series_id, i, min(quantiles[i]) AS q FROM (
           SELECT series_id, quantiles, unnest(range(1, len(quantiles) + 1)) AS i FROM ${dists} WHERE ${range} AND quantiles IS NOT NULL)
         WHERE i <= ${MAX_QUANTILES} GROUP BY ALL`,
      );
      candidates.push(
        `SELECT s.id::BIGINT * ${VIEWS_PER_SERIES} + ${FIRST_QUANTILE_VIEW - 1} + q.i AS sid,
           ${setTags('s.tags', [
             { key: viewTag, value: stringTag(b.param('quantile')) },
             { key: b.param(QUANTILE_TAG), value: `CAST(q.q AS UNION(s VARCHAR, i BIGINT, f DOUBLE, b BOOLEAN))` },
           ])} AS tags
         FROM ${series} s JOIN ${quantiles} q ON q.series_id = s.id WHERE s.metric = ${metric}${sample.replace('hash(id)', 'hash(s.id)')}`,
      );
      points.push(
        `SELECT series_id::BIGINT * ${VIEWS_PER_SERIES} + ${FIRST_QUANTILE_VIEW - 1} + i AS sid, t, qvalues[i] AS v FROM (
           SELECT series_id, t, qvalues, unnest(range(1, len(qvalues) + 1)) AS i FROM ${dists} WHERE ${range} AND qvalues IS NOT NULL)
         WHERE i <= ${MAX_QUANTILES}`,
      );
    }
    const all = b.cte(candidates.join(' UNION ALL '));
    const tags = b.cte(`SELECT sid, tags FROM ${all}${node.filter ? ` WHERE ${filterSql(node.filter, 'tags', b)}` : ''}`);
    const pts = b.cte(`SELECT sid, t, v FROM (${points.join(' UNION ALL ')}) WHERE sid IN (SELECT sid FROM ${tags})`);
    return { pts, tags };
  }

  /** Every step of the grid from the span's first step, for each series of `input` (sid, t, v or NULL). */
  private completeGrid(input: Relation, node: MapNode): string {
    const grid = node.grid!;
    const from = gridStart(grid, node.span.from);
    return this.builder.cte(
      `SELECT g.sid, g.t, p.v FROM (SELECT sid, unnest(range(${from}, ${node.span.to}, ${grid.step})) AS t FROM (SELECT DISTINCT sid FROM ${input.pts})) g
       LEFT JOIN ${input.pts} p ON p.sid = g.sid AND p.t = g.t`,
    );
  }

  private map(node: MapNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const fn = node.fn;
    let body: string;
    switch (fn.kind) {
      case 'add':
        body = `SELECT sid, t, v + ${double(fn.value)} AS v FROM ${input.pts}`;
        break;
      case 'sub':
        body = `SELECT sid, t, v - ${double(fn.value)} AS v FROM ${input.pts}`;
        break;
      case 'mul':
        body = `SELECT sid, t, v * ${double(fn.value)} AS v FROM ${input.pts}`;
        break;
      case 'div':
        body = `SELECT sid, t, v / ${double(fn.value)} AS v FROM ${input.pts}`;
        break;
      case 'min':
        body = `SELECT sid, t, least(v, ${double(fn.value)}) AS v FROM ${input.pts}`;
        break;
      case 'max':
        body = `SELECT sid, t, greatest(v, ${double(fn.value)}) AS v FROM ${input.pts}`;
        break;
      case 'abs':
        body = `SELECT sid, t, abs(v) AS v FROM ${input.pts}`;
        break;
      case 'filter':
        body = `SELECT sid, t, v FROM ${input.pts} WHERE v ${TEST_SQL[fn.test]} ${double(fn.value)}`;
        break;
      case 'is':
        body = `SELECT sid, t, CASE WHEN v ${TEST_SQL[fn.test]} ${double(fn.value)} THEN 1.0 ELSE 0.0 END AS v FROM ${input.pts}`;
        break;
      case 'rate':
      case 'increase': {
        const change = node.delta ? 'v' : fn.kind === 'rate' ? 'v - pv' : 'CASE WHEN v >= pv THEN v - pv ELSE v END';
        const value = fn.kind === 'rate' ? `(${change}) / (t - pt)` : change;
        body = `SELECT sid, t, ${value} AS v FROM (
            SELECT sid, t, v, lag(v) OVER w AS pv, lag(t) OVER w AS pt FROM ${input.pts} WINDOW w AS (PARTITION BY sid ORDER BY t))
          WHERE pt IS NOT NULL`;
        break;
      }
      case 'fill_const':
        body = `SELECT sid, t, coalesce(v, ${double(fn.value)}) AS v FROM ${this.completeGrid(input, node)}`;
        break;
      case 'fill_prev':
        body = `SELECT sid, t, v FROM (
            SELECT sid, t, last_value(v IGNORE NULLS) OVER (PARTITION BY sid ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS v
            FROM ${this.completeGrid(input, node)}) WHERE v IS NOT NULL`;
        break;
      case 'interpolate_linear':
        body = `SELECT sid, t, v FROM (
            SELECT sid, t, CASE WHEN v IS NOT NULL THEN v WHEN pt IS NOT NULL AND nt IS NOT NULL THEN pv + (nv - pv) * (t - pt) / (nt - pt) END AS v
            FROM (SELECT sid, t, v,
                last_value(CASE WHEN v IS NOT NULL THEN t END IGNORE NULLS) OVER before AS pt, last_value(v IGNORE NULLS) OVER before AS pv,
                first_value(CASE WHEN v IS NOT NULL THEN t END IGNORE NULLS) OVER after AS nt, first_value(v IGNORE NULLS) OVER after AS nv
              FROM ${this.completeGrid(input, node)}
              WINDOW before AS (PARTITION BY sid ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                     after AS (PARTITION BY sid ORDER BY t ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)))
          WHERE v IS NOT NULL`;
        break;
    }
    return { pts: b.cte(body), tags: input.tags };
  }

  private align(node: AlignNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const { origin, step } = node.grid;
    const bucket = bucketOf('t', origin, step);
    const rated = node.fn === 'prom_rate';
    const lagged = rated && !node.delta;
    const increase = node.delta ? 'v' : 'CASE WHEN v >= pv THEN v - pv ELSE v END';
    const source = lagged ? `(SELECT sid, t, v, lag(v) OVER (PARTITION BY sid ORDER BY t) AS pv FROM ${input.pts})` : input.pts;
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
        count: 'count(v)::DOUBLE',
        last: 'arg_max(v, t)',
        prom_rate: `sum(${increase}) / ${step}`,
      };
      const pts = b.cte(`SELECT sid, ${bucket} AS t, ${aggregate[node.fn]} AS v FROM ${source}${whereSql} GROUP BY ALL`);
      return { pts, tags: input.tags };
    }
    // Sliding windows: per step partial aggregates, combined over the trailing `over` seconds.
    const partial = b.cte(
      `SELECT sid, ${bucket} AS t, sum(v) AS s, count(v) AS c, min(v) AS lo, max(v) AS hi, arg_max(v, t) AS last${rated ? `, sum(${increase}) AS inc` : ''}
       FROM ${source}${whereSql} GROUP BY ALL`,
    );
    const rows = node.over / step - 1;
    const windowed = b.cte(
      `SELECT g.sid, g.t, sum(p.s) OVER w AS s, sum(p.c) OVER w AS c, min(p.lo) OVER w AS lo, max(p.hi) OVER w AS hi,
         last_value(p.last IGNORE NULLS) OVER w AS last${rated ? ', sum(p.inc) OVER w AS inc' : ''}
       FROM (SELECT sid, unnest(range(first, ${node.span.to}, ${step})) AS t FROM (SELECT sid, min(t) AS first FROM ${partial} GROUP BY sid)) g
       LEFT JOIN ${partial} p ON p.sid = g.sid AND p.t = g.t
       WINDOW w AS (PARTITION BY g.sid ORDER BY g.t ROWS BETWEEN ${rows} PRECEDING AND CURRENT ROW)`,
    );
    const combine: Record<AlignNode['fn'], string> = {
      avg: 's / c',
      sum: 's',
      min: 'lo',
      max: 'hi',
      count: 'c::DOUBLE',
      last: 'last',
      prom_rate: `inc / ${node.over}`,
    };
    const pts = b.cte(`SELECT sid, t, (${combine[node.fn]})::DOUBLE AS v FROM ${windowed} WHERE c > 0${rated ? ' AND inc IS NOT NULL' : ''}`);
    return { pts, tags: input.tags };
  }

  private group(node: GroupNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const keys = node.tags.map((tag) => b.param(tag));
    const mapped = b.cte(`SELECT sid, ${keepTags('tags', keys)} AS gtags FROM ${input.tags}`);
    const groups = b.cte(`SELECT gtags, row_number() OVER () AS gid FROM (SELECT DISTINCT gtags FROM ${mapped})`);
    const members = b.cte(`SELECT m.sid, g.gid FROM ${mapped} m JOIN ${groups} g ON g.gtags = m.gtags`);
    const aggregate = { avg: 'avg(p.v)', sum: 'sum(p.v)', min: 'min(p.v)', max: 'max(p.v)', count: 'count(p.v)::DOUBLE' }[node.fn];
    const pts = b.cte(`SELECT m.gid AS sid, p.t, ${aggregate} AS v FROM ${input.pts} p JOIN ${members} m ON m.sid = p.sid GROUP BY m.gid, p.t`);
    const tags = b.cte(`SELECT gid AS sid, gtags AS tags FROM ${groups}`);
    return { pts, tags };
  }

  private compute(node: ComputeNode): Relation {
    const b = this.builder;
    const left = this.node(node.left);
    const right = this.node(node.right);
    // Strict intersection: series with equal tag sets, at times both have.
    const pairs = b.cte(`SELECT l.sid AS lsid, r.sid AS rsid FROM ${left.tags} l JOIN ${right.tags} r ON l.tags = r.tags`);
    const value = {
      add: 'a.v + c.v',
      sub: 'a.v - c.v',
      mul: 'a.v * c.v',
      div: 'a.v / c.v',
      min: 'least(a.v, c.v)',
      max: 'greatest(a.v, c.v)',
      avg: '(a.v + c.v) / 2',
    }[node.op];
    const pts = b.cte(
      `SELECT p.lsid AS sid, a.t, ${value} AS v FROM ${pairs} p
       JOIN ${left.pts} a ON a.sid = p.lsid JOIN ${right.pts} c ON c.sid = p.rsid AND c.t = a.t${node.op === 'div' ? ' WHERE c.v <> 0' : ''}`,
    );
    const tags = b.cte(`SELECT sid, tags FROM ${left.tags} WHERE sid IN (SELECT lsid FROM ${pairs})`);
    return { pts, tags };
  }

  private retag(node: RetagNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const op = node.op;
    const rewritten = (value: string, pattern: string, replacement: string, otherwise: string) => {
      const anchored = b.param(`^(?:${pattern})$`);
      return `CASE WHEN regexp_full_match(${tagText(value)}, ${anchored}) THEN ${stringTag(`regexp_replace(${tagText(value)}, ${anchored}, ${b.param(replacement)})`)} ELSE ${otherwise} END`;
    };
    let tags: string;
    switch (op.kind) {
      case 'rewrite': {
        const key = b.param(op.tag);
        tags = setTags('tags', [{ key, value: rewritten(`tags[${key}]`, op.pattern, op.replacement, `tags[${key}]`) }]);
        break;
      }
      case 'rename': {
        const source = b.param(op.source);
        const target = b.param(op.target);
        tags = `CASE WHEN tags[${source}] IS NULL THEN tags ELSE ${setTags('tags', [
          { key: source, value: 'NULL' },
          { key: target, value: `tags[${source}]` },
        ])} END`;
        break;
      }
      case 'derive': {
        const source = b.param(op.source);
        const target = b.param(op.target);
        tags = setTags('tags', [{ key: target, value: rewritten(`tags[${source}]`, op.pattern, op.replacement, `tags[${target}]`) }]);
        break;
      }
      case 'extend': {
        const entries = op.assignments.map(({ tag, value }) => {
          const key = b.param(tag);
          let sql: string;
          if (value.kind === 'value') {
            sql = tagValueLiteral(b, value.value);
          } else {
            const parts = value.parts.map((part) => ('text' in part ? b.param(part.text) : `coalesce(${tagText(`tags[${b.param(part.tag)}]`)}, '')`));
            sql = stringTag(`concat(${parts.join(', ')})`);
          }
          const exists = b.param(`extend: tag "${tag}" already exists on a series; drop it with group by first`);
          return { key, value: `CASE WHEN tags[${key}] IS NOT NULL THEN error(${exists}) ELSE ${sql} END` };
        });
        tags = setTags('tags', entries);
        break;
      }
    }
    return { pts: input.pts, tags: b.cte(`SELECT sid, ${tags} AS tags FROM ${input.tags}`) };
  }

  private join(node: JoinNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const series = quoteIdentifier(metricsTablesOf(node.table).series);
    const by = node.by.map((tag) => b.param(tag));
    const pulled = node.tags.map((tag) => b.param(tag));
    const lenders = b.cte(
      `SELECT ${by.map((key, index) => `tags[${key}] AS b${index}`).join(', ')},
         ${pulled.map((key, index) => `any_value(tags[${key}]) FILTER (WHERE tags[${key}] IS NOT NULL) AS v${index}`).join(', ')}
       FROM ${series} WHERE metric = ${b.param(node.fromMetric)} AND ${by.map((key) => `tags[${key}] IS NOT NULL`).join(' AND ')}
       GROUP BY ALL`,
    );
    const on = by.map((key, index) => `l.b${index} = i.tags[${key}]`).join(' AND ');
    const entries = pulled.map((key, index) => ({ key, value: `coalesce(l.v${index}, i.tags[${key}])` }));
    const tags = b.cte(`SELECT i.sid, ${setTags('i.tags', entries)} AS tags FROM ${input.tags} i LEFT JOIN ${lenders} l ON ${on}`);
    return { pts: input.pts, tags };
  }
}

/** The rows of the answer: one per series, its points on the output grid in time order. */
function answer(builder: StatementBuilder, root: Relation, span: TimeSpan, first: number, limit: number): string {
  const series = builder.cte(
    `SELECT sid, list(t ORDER BY t) AS ts, list(CASE WHEN isfinite(v) THEN v END ORDER BY t) AS vs
     FROM ${root.pts} WHERE t >= ${first} AND t < ${span.to} AND v IS NOT NULL GROUP BY sid`,
  );
  return builder.statement(
    `SELECT ${tagEntriesSql('g.tags')} AS tags, s.ts, s.vs FROM ${series} s JOIN ${root.tags} g ON g.sid = s.sid ORDER BY g.tags LIMIT ${limit}`,
  );
}

export const duckdbMetricsDialect: MetricsDialect = {
  name: 'duckdb',
  compile(plan: MetricsPlan, maxSeries: number) {
    const builder = new StatementBuilder();
    const root = new Compiler(builder).node(plan.root);
    const sql = answer(builder, root, plan.span, gridStart(plan.grid, plan.span.from), maxSeries);
    return { sql, params: builder.params };
  },
};
