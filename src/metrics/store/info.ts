// What a metrics dataset holds over a time range, for the discovery routes: its metrics with
// their type, temporality and unit, its tags, and the values of a tag. A series counts when it
// has a point in the range; its tags and metadata come from the series table.
import type { QueryRunner } from '../../engines/duckdb/query-runner';
import { type TagEntry, tagValueOf } from '../mpl/execution/result';
import { metricsTablesOf, quoteIdentifier } from './layout';
import type { MetricsInfo } from './store';

export interface InfoRange {
  /** Seconds, both inclusive. */
  from: number;
  to: number;
}

export interface MetricInfo {
  type: string;
  temporality: string | null;
  unit: string | null;
}

export type TagValueJson = string | number | boolean;

/** The Axiom name of an OpenTelemetry point kind. */
function typeName(type: string, monotonic: boolean | null): string {
  switch (type) {
    case 'gauge':
      return 'Gauge';
    case 'sum':
      return monotonic ? 'CounterMonotonic' : 'CounterNonMonotonic';
    case 'histogram':
    case 'exponential_histogram':
      return 'Histogram';
    default:
      return 'Summary';
  }
}

const TEMPORALITY: Record<string, string> = { cumulative: 'Cumulative', delta: 'Delta' };

const TYPE_ORDER = { number: 0, boolean: 1, string: 2 } as Record<string, number>;

/**
 * What a metric's live series say, from their distinct `type:monotonic` pairs, temporalities
 * and units (empty text for none): one answer, or Mixed.
 */
export function metricInfoOf(types: string[], temporalities: string[], units: string[]): MetricInfo {
  const typeNames = new Set(types.map((entry) => {
    const [type, monotonic] = entry.split(':');
    return typeName(type!, monotonic === 'true');
  }));
  const kinds = new Set(temporalities.filter(Boolean).map((temporality) => TEMPORALITY[temporality] ?? temporality));
  const unitSet = new Set(units.filter(Boolean));
  return {
    type: typeNames.size === 1 ? [...typeNames][0]! : 'Mixed',
    temporality: kinds.size === 0 ? null : kinds.size === 1 ? [...kinds][0]! : 'Mixed',
    unit: unitSet.size === 1 ? [...unitSet][0]! : null,
  };
}

/** Numbers in numeric order, then booleans, then strings. */
export function compareTagValues(a: TagValueJson, b: TagValueJson): number {
  const byType = TYPE_ORDER[typeof a]! - TYPE_ORDER[typeof b]!;
  if (byType !== 0) return byType;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The discovery queries over the DuckDB layout. */
export class MetricsInfoQueries implements MetricsInfo {
  constructor(private readonly runner: QueryRunner) {}

  /** Series ids with a point in the range (a subquery). */
  private live(table: string, range: InfoRange): string {
    const names = metricsTablesOf(table);
    const within = `t >= ${Math.floor(range.from)} AND t <= ${Math.floor(range.to)}`;
    return `(SELECT series_id FROM ${quoteIdentifier(names.points)} WHERE ${within} UNION SELECT series_id FROM ${quoteIdentifier(names.dists)} WHERE ${within})`;
  }

  private series(table: string): string {
    return quoteIdentifier(metricsTablesOf(table).series);
  }

  async metrics(table: string, range: InfoRange): Promise<Record<string, MetricInfo>> {
    const result = await this.runner.run(
      `SELECT metric, list(DISTINCT type || ':' || coalesce(monotonic::VARCHAR, '')), list(DISTINCT coalesce(temporality, '')), list(DISTINCT unit)
       FROM ${this.series(table)} WHERE id IN ${this.live(table, range)} GROUP BY metric ORDER BY metric`,
    );
    const metrics: Record<string, MetricInfo> = {};
    for (const [metric, types, temporalities, units] of result.rows as [string, string[], string[], string[]][]) {
      metrics[metric] = metricInfoOf(types, temporalities, units);
    }
    return metrics;
  }

  /** Tag names, of every metric or of one. */
  async tags(table: string, range: InfoRange, metric?: string): Promise<string[]> {
    const params = metric === undefined ? [] : [metric];
    const result = await this.runner.run(
      `SELECT DISTINCT unnest(map_keys(tags)) AS tag FROM ${this.series(table)}
       WHERE id IN ${this.live(table, range)}${metric === undefined ? '' : ' AND metric = $1'} ORDER BY tag`,
      params,
    );
    return result.rows.map(([tag]) => tag as string);
  }

  /** The distinct values of a tag, typed, of every metric or of one. */
  async tagValues(table: string, range: InfoRange, tag: string, metric?: string): Promise<TagValueJson[]> {
    const params: string[] = [tag];
    if (metric !== undefined) params.push(metric);
    const result = await this.runner.run(
      `SELECT DISTINCT union_tag(tags[$1]) AS t, CAST(tags[$1] AS VARCHAR) AS v FROM ${this.series(table)}
       WHERE id IN ${this.live(table, range)} AND tags[$1] IS NOT NULL${metric === undefined ? '' : ' AND metric = $2'}`,
      params,
    );
    const values = result.rows.map(([t, v]) => tagValueOf({ t, v } as Pick<TagEntry, 't' | 'v'>));
    return values.sort(compareTagValues);
  }

  /** Metrics with a tag whose value is `value` (its text, for every type), and those tags. */
  async find(table: string, range: InfoRange, value: string): Promise<Record<string, string[]>> {
    const result = await this.runner.run(
      `SELECT metric, list(DISTINCT tag ORDER BY tag) FROM (
         SELECT metric, unnest(map_keys(tags)) AS tag, unnest(map_values(tags)) AS value FROM ${this.series(table)}
         WHERE id IN ${this.live(table, range)})
       WHERE CAST(value AS VARCHAR) = $1 OR (TRY_CAST($1 AS DOUBLE) IS NOT NULL AND coalesce(union_extract(value, 'i')::DOUBLE, union_extract(value, 'f')) = TRY_CAST($1 AS DOUBLE))
       GROUP BY metric ORDER BY metric`,
      [value],
    );
    return Object.fromEntries(result.rows.map(([metric, tags]) => [metric as string, tags as string[]]));
  }

  /** Whether the dataset ever had a series of `metric` / with tag `tag` (any time). */
  async exists(table: string, what: { metric?: string; tag?: string }): Promise<boolean> {
    const conditions: string[] = [];
    const params: string[] = [];
    if (what.metric !== undefined) {
      params.push(what.metric);
      conditions.push(`metric = $${params.length}`);
    }
    if (what.tag !== undefined) {
      params.push(what.tag);
      conditions.push(`tags[$${params.length}] IS NOT NULL`);
    }
    const result = await this.runner.run(
      `SELECT count(*) FROM (SELECT 1 FROM ${this.series(table)}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''} LIMIT 1)`,
      params,
    );
    return Number(result.rows[0]![0]) > 0;
  }
}
