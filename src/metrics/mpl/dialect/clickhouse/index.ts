// The ClickHouse dialect of MPL (metrics in ClickHouse, EVENT_STORE=clickhouse|chdb), from the
// same plan as the DuckDB dialect and answering the same rows: each plan node becomes common
// table expressions holding its points (sid, t, v) and its series' tags (sid, tags); the
// statement ends with one row per series on the answer's grid, its tags, times and values as
// JSON text. Series are chosen on the series table first (its latest rows, FINAL), and only
// their points are read, within the time range. Series ids are UInt128 throughout, so the
// views of a 64-bit series id (id * 64 + view) and group ids fit beside them.
import type { MetricsDialect } from '../dialect';
import { metricsTablesOf, quoteIdentifier } from '../../../store/clickhouse/layout';
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
import { double, EMPTY_TAGS, keepTags, pairsTable, type Relation, setTags, sid, StatementBuilder, stringTag, tagOf, tagText, tagValueLiteral } from './sql';

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

/** Rows before the current one, within a series, in time order (for lagInFrame). */
const BEFORE = 'PARTITION BY sid ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW';

/** The stable sampling test of a series id column. */
const sampled = (id: string, sample: number | null) => (sample === null ? '' : ` AND sipHash64(${id}) % 1000000 < ${Math.round(sample * 1_000_000)}`);

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
    const series = `${quoteIdentifier(tables.series)} FINAL`;
    const within = (t: string) => `${t} >= ${node.read.from} AND ${t} < ${node.read.to}`;
    const range = within('t');
    const binding = node.binding;
    if (!binding.scalar && !binding.distribution) {
      // No series of this metric: an empty set of the right shape.
      const tags = b.cte(`SELECT ${sid('0')} AS sid, ${EMPTY_TAGS} AS tags WHERE 0`);
      const pts = b.cte(`SELECT ${sid('0')} AS sid, toInt64(0) AS t, toFloat64(0) AS v WHERE 0`);
      return { pts, tags };
    }
    const metric = b.param(node.metricName);
    if (!binding.distribution) {
      const filter = node.filter ? ` AND ${filterSql(node.filter, 'tags', b)}` : '';
      const chosen = b.cte(`SELECT id, tags FROM ${series} WHERE metric = ${metric} AND type IN ('gauge', 'sum')${filter}${sampled('id', node.sample)}`);
      const tags = b.tagged(`SELECT ${sid('id')} AS _s, tags AS _g FROM ${chosen}`);
      // Series ids as stored, so the points scan is filtered by them.
      const pts = b.points(
        `SELECT ${sid('series_id')} AS _s, t AS _t, value AS _v FROM ${quoteIdentifier(tables.points)} WHERE ${range} AND series_id IN (SELECT id FROM ${chosen})`,
      );
      return { pts, tags };
    }
    // Distributions read as scalar series too: one per view, told apart by the axiom.histogram tag.
    const dists = quoteIdentifier(tables.dists);
    const viewTag = b.param(HISTOGRAM_TAG);
    const views = pairsTable(HISTOGRAM_VIEWS.map(([code, name]) => [code, b.param(name)]));
    const candidates: string[] = [];
    const points: string[] = [];
    if (binding.scalar) {
      candidates.push(`SELECT ${sid('id')} * ${VIEWS_PER_SERIES} AS _s, tags AS _g FROM ${series} WHERE metric = ${metric} AND type IN ('gauge', 'sum')${sampled('id', node.sample)}`);
      points.push(`SELECT ${sid('series_id')} * ${VIEWS_PER_SERIES} AS _s, t AS _t, toNullable(value) AS _v FROM ${quoteIdentifier(tables.points)} WHERE ${range}`);
    }
    candidates.push(
      `SELECT ${sid('s.id')} * ${VIEWS_PER_SERIES} + c.code AS _s, ${setTags('s.tags', [{ key: viewTag, value: stringTag('c.name') }])} AS _g
       FROM ${quoteIdentifier(tables.series)} AS s FINAL CROSS JOIN ${views} AS c
       WHERE s.metric = ${metric} AND s.type <> 'gauge' AND s.type <> 'sum'${sampled('s.id', node.sample)}
         AND (s.type <> 'summary' OR c.code <= 2)`,
    );
    const viewValue = HISTOGRAM_VIEWS.map(([code, , column]) => `c.code = ${code}, toNullable(d.${column})`).join(', ');
    points.push(
      `SELECT _s, _t, _v FROM (SELECT ${sid('d.series_id')} * ${VIEWS_PER_SERIES} + c.code AS _s, d.t AS _t, multiIf(${viewValue}, NULL) AS _v
       FROM ${dists} AS d CROSS JOIN ${views} AS c WHERE ${within('d.t')}) WHERE _v IS NOT NULL`,
    );
    if (binding.summary) {
      const quantiles = b.cte(
        `SELECT series_id, i, min(quantiles[i]) AS q FROM (
           SELECT series_id, quantiles, arrayJoin(range(1, length(quantiles) + 1)) AS i FROM ${dists} WHERE ${range} AND notEmpty(quantiles))
         WHERE i <= ${MAX_QUANTILES} GROUP BY series_id, i`,
      );
      candidates.push(
        `SELECT ${sid('s.id')} * ${VIEWS_PER_SERIES} + ${FIRST_QUANTILE_VIEW - 1} + qs.i AS _s,
           ${setTags('s.tags', [
             { key: viewTag, value: stringTag(b.param('quantile')) },
             { key: b.param(QUANTILE_TAG), value: `concat('f', toString(qs.q))` },
           ])} AS _g
         FROM ${quoteIdentifier(tables.series)} AS s FINAL JOIN ${quantiles} AS qs ON qs.series_id = s.id WHERE s.metric = ${metric}${sampled('s.id', node.sample)}`,
      );
      points.push(
        `SELECT ${sid('series_id')} * ${VIEWS_PER_SERIES} + ${FIRST_QUANTILE_VIEW - 1} + i AS _s, t AS _t, toNullable(qvalues[i]) AS _v FROM (
           SELECT series_id, t, qvalues, arrayJoin(range(1, length(qvalues) + 1)) AS i FROM ${dists} WHERE ${range} AND notEmpty(qvalues))
         WHERE i <= ${MAX_QUANTILES}`,
      );
    }
    const all = b.tagged(candidates.join(' UNION ALL '));
    const tags = b.cte(`SELECT sid, tags FROM ${all}${node.filter ? ` WHERE ${filterSql(node.filter, 'tags', b)}` : ''}`);
    const pts = b.points(`SELECT _s, _t, assumeNotNull(_v) AS _v FROM (${points.join(' UNION ALL ')}) WHERE _s IN (SELECT sid FROM ${tags})`);
    return { pts, tags };
  }

  /** Every step of the grid from the span's first step, for each series of `input` (sid, t, v or NULL). */
  private completeGrid(input: Relation, node: MapNode): string {
    const grid = node.grid!;
    const from = gridStart(grid, node.span.from);
    return this.builder.cte(
      `SELECT g.sid AS sid, g.t AS t, p.v AS v FROM (
         SELECT sid, arrayJoin(range(toInt64(${from}), toInt64(${node.span.to}), toInt64(${grid.step}))) AS t FROM (SELECT DISTINCT sid FROM ${input.pts})) AS g
       LEFT JOIN ${input.pts} AS p ON p.sid = g.sid AND p.t = g.t`,
    );
  }

  private map(node: MapNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const fn = node.fn;
    const each = (value: string) => `SELECT sid AS _s, t AS _t, ${value} AS _v FROM ${input.pts}`;
    let body: string;
    switch (fn.kind) {
      case 'add':
        body = each(`v + ${double(fn.value)}`);
        break;
      case 'sub':
        body = each(`v - ${double(fn.value)}`);
        break;
      case 'mul':
        body = each(`v * ${double(fn.value)}`);
        break;
      case 'div':
        body = each(`v / ${double(fn.value)}`);
        break;
      case 'min':
        body = each(`least(v, ${double(fn.value)})`);
        break;
      case 'max':
        body = each(`greatest(v, ${double(fn.value)})`);
        break;
      case 'abs':
        body = each('abs(v)');
        break;
      case 'filter':
        body = `SELECT sid AS _s, t AS _t, v AS _v FROM ${input.pts} WHERE v ${TEST_SQL[fn.test]} ${double(fn.value)}`;
        break;
      case 'is':
        body = each(`if(v ${TEST_SQL[fn.test]} ${double(fn.value)}, 1.0, 0.0)`);
        break;
      case 'rate':
      case 'increase': {
        const change = node.delta ? 'v' : fn.kind === 'rate' ? 'v - pv' : 'if(v >= pv, v - pv, v)';
        const value = fn.kind === 'rate' ? `(${change}) / (t - pt)` : change;
        body = `SELECT sid AS _s, t AS _t, assumeNotNull(${value}) AS _v FROM (
            SELECT sid, t, v, lagInFrame(toNullable(v)) OVER w AS pv, lagInFrame(toNullable(t)) OVER w AS pt FROM ${input.pts} WINDOW w AS (${BEFORE}))
          WHERE pt IS NOT NULL`;
        break;
      }
      case 'fill_const':
        body = `SELECT sid AS _s, t AS _t, coalesce(v, ${double(fn.value)}) AS _v FROM ${this.completeGrid(input, node)}`;
        break;
      case 'fill_prev':
        body = `SELECT _s, _t, assumeNotNull(_f) AS _v FROM (
            SELECT sid AS _s, t AS _t, last_value(v) OVER (${BEFORE}) AS _f FROM ${this.completeGrid(input, node)}) WHERE _f IS NOT NULL`;
        break;
      case 'interpolate_linear':
        body = `SELECT _s, _t, assumeNotNull(_f) AS _v FROM (
            SELECT sid AS _s, t AS _t, multiIf(v IS NOT NULL, v, pt IS NOT NULL AND nt IS NOT NULL, pv + (nv - pv) * (t - pt) / (nt - pt), NULL) AS _f
            FROM (SELECT sid, t, v,
                last_value(if(v IS NOT NULL, t, NULL)) OVER before AS pt, last_value(v) OVER before AS pv,
                first_value(if(v IS NOT NULL, t, NULL)) OVER after AS nt, first_value(v) OVER after AS nv
              FROM ${this.completeGrid(input, node)}
              WINDOW before AS (PARTITION BY sid ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                     after AS (PARTITION BY sid ORDER BY t ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)))
          WHERE _f IS NOT NULL`;
        break;
    }
    return { pts: b.points(body), tags: input.tags };
  }

  private align(node: AlignNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const { origin, step } = node.grid;
    const bucket = bucketOf('t', origin, step);
    const rated = node.fn === 'prom_rate';
    const lagged = rated && !node.delta;
    const increase = node.delta ? 'v' : 'if(v >= pv, v - pv, v)';
    const source = lagged ? `(SELECT sid, t, v, lagInFrame(toNullable(v)) OVER (${BEFORE}) AS pv FROM ${input.pts})` : input.pts;
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
        count: 'toFloat64(count(v))',
        last: 'argMax(v, t)',
        prom_rate: `sum(assumeNotNull(${increase})) / ${step}`,
      };
      const pts = b.points(`SELECT sid AS _s, ${bucket} AS _t, ${aggregate[node.fn]} AS _v FROM ${source}${whereSql} GROUP BY _s, _t`);
      return { pts, tags: input.tags };
    }
    // Sliding windows: per step partial aggregates, combined over the trailing `over` seconds.
    const partial = b.cte(
      `SELECT _s AS sid, _t AS t, _sum AS s, _count AS c, _lo AS lo, _hi AS hi, _last AS last${rated ? ', _inc AS inc' : ''} FROM (
         SELECT sid AS _s, ${bucket} AS _t, sum(v) AS _sum, count(v) AS _count, min(v) AS _lo, max(v) AS _hi, argMax(v, t) AS _last${rated ? `, sum(assumeNotNull(${increase})) AS _inc` : ''}
         FROM ${source}${whereSql} GROUP BY _s, _t)`,
    );
    const rows = node.over / step - 1;
    const windowed = b.cte(
      `SELECT g.sid AS sid, g.t AS t, sum(p.s) OVER w AS s, sum(p.c) OVER w AS c, min(p.lo) OVER w AS lo, max(p.hi) OVER w AS hi,
         last_value(p.last) OVER w AS last${rated ? ', sum(p.inc) OVER w AS inc, count(p.inc) OVER w AS incs' : ''}
       FROM (SELECT sid, arrayJoin(range(first, toInt64(${node.span.to}), toInt64(${step}))) AS t FROM (SELECT sid, min(t) AS first FROM ${partial} GROUP BY sid)) AS g
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
    const pts = b.points(
      `SELECT sid AS _s, t AS _t, toFloat64(assumeNotNull(${combine[node.fn]})) AS _v FROM ${windowed} WHERE c > 0${rated ? ' AND incs > 0' : ''}`,
    );
    return { pts, tags: input.tags };
  }

  /** Group ids for the distinct tag sets kept of each series: a hash of the kept tags. */
  private group(node: GroupNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const keys = node.tags.map((tag) => b.param(tag));
    const members = b.cte(`SELECT sid AS msid, ${keepTags('tags', keys)} AS gtags, ${sid('sipHash64(gtags)')} AS gid FROM ${input.tags}`);
    const aggregate = { avg: 'avg(p.v)', sum: 'sum(p.v)', min: 'min(p.v)', max: 'max(p.v)', count: 'toFloat64(count(p.v))' }[node.fn];
    const pts = b.points(`SELECT m.gid AS _s, p.t AS _t, ${aggregate} AS _v FROM ${input.pts} AS p JOIN ${members} AS m ON m.msid = p.sid GROUP BY _s, _t`);
    const tags = b.tagged(`SELECT DISTINCT gid AS _s, gtags AS _g FROM ${members}`);
    return { pts, tags };
  }

  private compute(node: ComputeNode): Relation {
    const b = this.builder;
    const left = this.node(node.left);
    const right = this.node(node.right);
    // Strict intersection: series with equal tag sets, at times both have.
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

  private retag(node: RetagNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const op = node.op;
    const rewritten = (value: string, pattern: string, replacement: string, otherwise: string) => {
      const anchored = b.param(`^(?:${pattern})$`);
      return `if(coalesce(match(${tagText(value)}, ${anchored}), false), ${stringTag(`replaceRegexpOne(${tagText(value)}, ${anchored}, ${b.param(replacement)})`)}, ${otherwise})`;
    };
    let tags: string;
    switch (op.kind) {
      case 'rewrite': {
        const key = b.param(op.tag);
        const value = tagOf('tags', key);
        tags = setTags('tags', [{ key, value: rewritten(value, op.pattern, op.replacement, value) }]);
        break;
      }
      case 'rename': {
        const source = b.param(op.source);
        const target = b.param(op.target);
        tags = `if(NOT mapContains(tags, ${source}), tags, ${setTags('tags', [
          { key: source, value: 'NULL' },
          { key: target, value: `tags[${source}]` },
        ])})`;
        break;
      }
      case 'derive': {
        const source = b.param(op.source);
        const target = b.param(op.target);
        tags = setTags('tags', [{ key: target, value: rewritten(tagOf('tags', source), op.pattern, op.replacement, tagOf('tags', target)) }]);
        break;
      }
      case 'extend': {
        const entries = op.assignments.map(({ tag, value }) => {
          const key = b.param(tag);
          let sql: string;
          if (value.kind === 'value') {
            sql = tagValueLiteral(b, value.value);
          } else {
            const parts = value.parts.map((part) => ('text' in part ? b.param(part.text) : `coalesce(${tagText(tagOf('tags', b.param(part.tag)))}, '')`));
            sql = stringTag(`concat(${parts.join(', ')}, '')`);
          }
          const exists = b.param(`extend: tag "${tag}" already exists on a series; drop it with group by first`);
          return { key, value: `if(throwIf(mapContains(tags, ${key}), ${exists}) = 0, ${sql}, NULL)` };
        });
        tags = setTags('tags', entries);
        break;
      }
    }
    return { pts: input.pts, tags: b.tagged(`SELECT sid AS _s, ${tags} AS _g FROM ${input.tags}`) };
  }

  private join(node: JoinNode): Relation {
    const b = this.builder;
    const input = this.node(node.input);
    const series = `${quoteIdentifier(metricsTablesOf(node.table).series)} FINAL`;
    const by = node.by.map((tag) => b.param(tag));
    const pulled = node.tags.map((tag) => b.param(tag));
    const lenders = b.cte(
      `SELECT ${by.map((key, index) => `tags[${key}] AS b${index}`).join(', ')},
         ${pulled.map((key, index) => `anyIf(tags[${key}], tags[${key}] != '') AS v${index}`).join(', ')}
       FROM ${series} WHERE metric = ${b.param(node.fromMetric)} AND ${by.map((key) => `tags[${key}] != ''`).join(' AND ')}
       GROUP BY ${by.map((_, index) => `b${index}`).join(', ')}`,
    );
    const on = by.map((key, index) => `l.b${index} = i.tags[${key}]`).join(' AND ');
    const entries = pulled.map((key, index) => ({ key, value: `coalesce(nullIf(l.v${index}, ''), ${tagOf('i.tags', key)})` }));
    return { pts: input.pts, tags: b.tagged(`SELECT i.sid AS _s, ${setTags('i.tags', entries)} AS _g FROM ${input.tags} AS i LEFT JOIN ${lenders} AS l ON ${on}`) };
  }
}

/** The rows of the answer: one per series, its points on the output grid in time order. */
function answer(builder: StatementBuilder, root: Relation, span: TimeSpan, first: number, limit: number): string {
  const series = builder.cte(
    `SELECT sid, arraySort(groupArray((t, v))) AS tvs FROM ${root.pts} WHERE t >= ${first} AND t < ${span.to} AND v IS NOT NULL GROUP BY sid`,
  );
  return builder.statement(
    `SELECT toJSONString(g.tags) AS tags, toJSONString(arrayMap(x -> tupleElement(x, 1), s.tvs)) AS ts,
       toJSONString(arrayMap(x -> if(isFinite(tupleElement(x, 2)), toNullable(tupleElement(x, 2)), NULL), s.tvs)) AS vs
     FROM ${series} AS s JOIN ${root.tags} AS g ON g.sid = s.sid ORDER BY ${TAGS_ORDER} LIMIT ${limit}`,
  );
}

/**
 * The order of answers' series, DuckDB's order of its tag maps: entry by entry, by name, then by
 * the value's type (string, int, float, bool), then by the value as that type.
 */
const TAGS_ORDER = `arrayMap((k, v) -> (k, position('sifb', substring(v, 1, 1)), if(startsWith(v, 's'), substring(v, 2), ''),
  if(startsWith(v, 'i'), toInt64OrZero(substring(v, 2)), 0), if(startsWith(v, 'f'), toFloat64OrZero(substring(v, 2)), 0), v), mapKeys(g.tags), mapValues(g.tags))`;

export const clickhouseMetricsDialect: MetricsDialect & { settings: Record<string, number> } = {
  name: 'clickhouse',
  // An outer join's missing side is NULL (as in SQL), not the type's default value.
  settings: { join_use_nulls: 1 },
  compile(plan: MetricsPlan, maxSeries: number) {
    const builder = new StatementBuilder();
    const root = new Compiler(builder).node(plan.root);
    const sql = answer(builder, root, plan.span, gridStart(plan.grid, plan.span.from), maxSeries);
    return { sql, params: [] };
  },
};
