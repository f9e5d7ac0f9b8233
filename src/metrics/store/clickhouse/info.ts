// The discovery queries (metrics, tags, tag values, find) over the ClickHouse layout of a
// metrics dataset: the questions of ../info.ts, answered the same way. A series counts when it
// has a point in the range; its tags and description come from its latest series row (FINAL).
import { type ClickHouseExecutor, type ClickHouseSettings, decodeRows } from '../../../engines/clickhouse/executor';
import { quoteLiteral } from '../../../engines/clickhouse/layout';
import { type TagEntry, tagValueOf } from '../../mpl/execution/result';
import { compareTagValues, type InfoRange, type MetricInfo, metricInfoOf, type TagValueJson } from '../info';
import { withoutNul } from '../series-key';
import type { MetricsInfo } from '../store';
import { metricsTablesOf, quoteIdentifier } from './layout';

const text = (value: string) => quoteLiteral(withoutNul(value));

export class ClickHouseMetricsInfo implements MetricsInfo {
  constructor(
    private readonly executor: ClickHouseExecutor,
    private readonly settings: ClickHouseSettings = {},
  ) {}

  private async rows(sql: string): Promise<unknown[][]> {
    return decodeRows(await this.executor.query(sql, { settings: this.settings }), 'nanos');
  }

  /** Series ids with a point in the range (a subquery). */
  private live(table: string, range: InfoRange): string {
    const names = metricsTablesOf(table);
    const within = `t >= ${Math.floor(range.from)} AND t <= ${Math.floor(range.to)}`;
    return `(SELECT series_id FROM ${quoteIdentifier(names.points)} WHERE ${within} UNION DISTINCT SELECT series_id FROM ${quoteIdentifier(names.dists)} WHERE ${within})`;
  }

  private series(table: string): string {
    return `${quoteIdentifier(metricsTablesOf(table).series)} FINAL`;
  }

  async metrics(table: string, range: InfoRange): Promise<Record<string, MetricInfo>> {
    const rows = await this.rows(
      `SELECT metric, toJSONString(groupUniqArray(concat(type, ':', ifNull(toString(monotonic), '')))), toJSONString(groupUniqArray(ifNull(temporality, ''))),
         toJSONString(groupUniqArray(unit))
       FROM ${this.series(table)} WHERE id IN ${this.live(table, range)} GROUP BY metric ORDER BY metric`,
    );
    const metrics: Record<string, MetricInfo> = {};
    for (const [metric, types, temporalities, units] of rows as [string, string, string, string][]) {
      metrics[metric] = metricInfoOf(JSON.parse(types), JSON.parse(temporalities), JSON.parse(units));
    }
    return metrics;
  }

  async tags(table: string, range: InfoRange, metric?: string): Promise<string[]> {
    const rows = await this.rows(
      `SELECT DISTINCT arrayJoin(mapKeys(tags)) AS tag FROM ${this.series(table)}
       WHERE id IN ${this.live(table, range)}${metric === undefined ? '' : ` AND metric = ${text(metric)}`} ORDER BY tag`,
    );
    return rows.map(([tag]) => tag as string);
  }

  async tagValues(table: string, range: InfoRange, tag: string, metric?: string): Promise<TagValueJson[]> {
    const value = `tags[${text(tag)}]`;
    const rows = await this.rows(
      `SELECT DISTINCT ${value} AS v FROM ${this.series(table)}
       WHERE id IN ${this.live(table, range)} AND ${value} != ''${metric === undefined ? '' : ` AND metric = ${text(metric)}`}`,
    );
    const values = rows.map(([stored]) => tagValueOf({ t: (stored as string)[0] as TagEntry['t'], v: (stored as string).slice(1) }));
    return values.sort(compareTagValues);
  }

  async find(table: string, range: InfoRange, value: string): Promise<Record<string, string[]>> {
    const wanted = text(value);
    const rows = await this.rows(
      `SELECT metric, toJSONString(arraySort(groupUniqArray(tag))) FROM (
         SELECT metric, tag, stored FROM ${this.series(table)} ARRAY JOIN mapKeys(tags) AS tag, mapValues(tags) AS stored
         WHERE id IN ${this.live(table, range)})
       WHERE substring(stored, 2) = ${wanted}
         OR (toFloat64OrNull(${wanted}) IS NOT NULL AND substring(stored, 1, 1) IN ('i', 'f') AND toFloat64OrNull(substring(stored, 2)) = toFloat64OrNull(${wanted}))
       GROUP BY metric ORDER BY metric`,
    );
    return Object.fromEntries(rows.map(([metric, tags]) => [metric as string, JSON.parse(tags as string) as string[]]));
  }

  async exists(table: string, what: { metric?: string; tag?: string }): Promise<boolean> {
    const conditions: string[] = [];
    if (what.metric !== undefined) conditions.push(`metric = ${text(what.metric)}`);
    if (what.tag !== undefined) conditions.push(`mapContains(tags, ${text(what.tag)})`);
    const rows = await this.rows(
      `SELECT count() FROM (SELECT 1 FROM ${this.series(table)}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''} LIMIT 1)`,
    );
    return Number(rows[0]![0]) > 0;
  }
}
