// The metrics store in ClickHouse, through the executor the event store uses (a server, or chdb
// embedded), in the layout of `layout.ts`. Several server instances may write one dataset at
// once: a series' id is a hash of its key, so no instance assigns ids for the others; its row is
// written whenever an instance sees it first (or sees its description change) and the
// ReplacingMergeTree keeps one. What an instance remembers of series only spares it rewriting
// them; what the store answers (metrics, summaries, queries) is read from the tables.
// ClickHouse has no transaction over several tables: a write inserts the series, then the
// scalar points, then the distribution points, each acknowledged once stored; a failure part-way
// leaves the earlier inserts (series rows without points are what vacuum removes).
import type { EngineHealth } from '../../../engines/health';
import { createClickHouseRunner } from '../../../engines/clickhouse/apl-runner';
import type { QueryRunner as AplRunner } from '../../../apl/execution/runner';
import { type ClickHouseExecutor, ClickHouseError, CLICKHOUSE_ERROR, type ClickHouseSettings, decodeRows, insertSettings } from '../../../engines/clickhouse/executor';
import { quoteLiteral } from '../../../engines/clickhouse/layout';
import { escapeText } from '../../../engines/clickhouse/tsv';
import { KeyedLock } from '../../../lib/keyed-lock';
import { notFound } from '../../../errors';
import { type DistributionValue, type MetricType, pointClassOf, type SeriesPoints, type Tags } from '../../model';
import type { CompiledMetricsSql, SeriesRow } from '../../mpl/dialect/dialect';
import { clickhouseMetricsDialect } from '../../mpl/dialect/clickhouse';
import type { TagEntry } from '../../mpl/execution/result';
import { baseOfSeriesTable } from '../layout';
import { seriesKey, withoutNul } from '../series-key';
import { addToSummaries, checkAnswerSize, type MetricsStore, type MetricSummary, type MplRunOptions, sameDescription, type SeriesDescription, type WriteResult } from '../store';
import { ClickHouseMetricsInfo } from './info';
import { createTablesSql, DIST_COLUMNS, dropTablesSql, floatText, metricsTablesOf, onCluster, POINT_COLUMNS, quoteIdentifier, SERIES_COLUMNS, seriesIdOf, storedTable, storedTag } from './layout';

/** Deletions wait until done, so the next statement (and the caller's count) sees them. */
const SYNC = { mutations_sync: 2, lightweight_deletes_sync: 2 };

const nullableFloat = (value: number | null) => (value === null ? '\\N' : floatText(value));
const floatList = (values: number[] | null) => `[${(values ?? []).map(floatText).join(',')}]`;

export class ClickHouseMetricsStore implements MetricsStore {
  readonly dialect = clickhouseMetricsDialect;
  readonly info: ClickHouseMetricsInfo;
  private readonly runner: AplRunner;
  private readonly known = new Set<string>();
  /** Per dataset: the series this instance has written or read, by key (absent until first write). */
  private readonly seen = new Map<string, Map<string, SeriesDescription>>();
  private readonly lock = new KeyedLock();
  private lastVersion = 0n;

  private constructor(
    private readonly executor: ClickHouseExecutor,
    private readonly cluster: string | undefined,
  ) {
    this.runner = createClickHouseRunner(executor, { ...clickhouseMetricsDialect.settings, ...this.readSettings });
    this.info = new ClickHouseMetricsInfo(executor, this.readSettings);
  }

  /**
   * On a cluster, a subquery over another Distributed table reads that table's shard-local
   * copy: a series' row and its points share a shard (both are sharded by series id).
   */
  private get readSettings(): ClickHouseSettings {
    return this.cluster ? { distributed_product_mode: 'local' } : {};
  }

  get engine(): 'clickhouse' | 'chdb' {
    return this.executor.engine;
  }

  static async open(executor: ClickHouseExecutor, options: { cluster?: string | undefined } = {}): Promise<ClickHouseMetricsStore> {
    const store = new ClickHouseMetricsStore(executor, options.cluster);
    const { rows } = await executor.query(
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '%\\_series'`,
    );
    for (const [name] of rows as [string][]) {
      const table = baseOfSeriesTable(name);
      if (table) store.known.add(table);
    }
    return store;
  }

  hasDataset(table: string): boolean {
    return this.known.has(table);
  }

  async holdsDataset(table: string): Promise<boolean> {
    if (this.known.has(table)) return true;
    const { rows } = await this.executor.query(
      `SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = ${quoteLiteral(metricsTablesOf(table).series)}`,
    );
    if (Number(rows[0]![0]) === 0) return false;
    this.known.add(table);
    return true;
  }

  async createDataset(table: string): Promise<void> {
    await this.lock.run(table, async () => {
      for (const sql of createTablesSql(table, this.cluster)) await this.executor.command(sql);
      this.known.add(table);
    });
  }

  async dropDataset(table: string): Promise<void> {
    await this.lock.run(table, async () => {
      for (const sql of dropTablesSql(table, this.cluster)) await this.executor.command(sql);
      this.known.delete(table);
      this.seen.delete(table);
    });
  }

  async metricsOf(table: string): Promise<ReadonlyMap<string, MetricSummary>> {
    const series = quoteIdentifier(metricsTablesOf(table).series);
    const { rows } = await this.read(
      `SELECT metric, type, temporality, monotonic, unit, count() FROM ${series} FINAL GROUP BY metric, type, temporality, monotonic, unit`,
    );
    const summaries = new Map<string, MetricSummary>();
    for (const [metric, type, temporality, , unit, count] of rows as [string, MetricType, SeriesDescription['temporality'], unknown, string, bigint][]) {
      addToSummaries(summaries, { metric, type, pointClass: pointClassOf(type), temporality, monotonic: null, unit }, Number(count));
    }
    return summaries;
  }

  /** Runs a statement of the store's own, turning a missing table into a missing dataset. */
  private async read(sql: string) {
    try {
      const result = await this.executor.query(sql, { settings: this.readSettings });
      return { rows: decodeRows(result, 'nanos') };
    } catch (error) {
      if (error instanceof ClickHouseError && error.code === CLICKHOUSE_ERROR.UNKNOWN_TABLE) throw notFound('metrics dataset not found');
      throw error;
    }
  }

  /** The series of a dataset this instance knows, read from the table on its first write. */
  private async seenOf(table: string): Promise<Map<string, SeriesDescription>> {
    let seen = this.seen.get(table);
    if (seen) return seen;
    const series = quoteIdentifier(metricsTablesOf(table).series);
    const { rows } = await this.read(`SELECT key, metric, type, temporality, monotonic, unit FROM ${series} FINAL`);
    seen = new Map();
    for (const [key, metric, type, temporality, monotonic, unit] of rows as [string, string, MetricType, SeriesDescription['temporality'], boolean | null, string][]) {
      seen.set(key, { metric, type, pointClass: pointClassOf(type), temporality, monotonic, unit });
    }
    this.seen.set(table, seen);
    return seen;
  }


  /** A version above every earlier one of this instance (the clock in microseconds). */
  private nextVersion(): bigint {
    const now = BigInt(Date.now()) * 1000n;
    this.lastVersion = now > this.lastVersion ? now : this.lastVersion + 1n;
    return this.lastVersion;
  }

  write(table: string, batch: SeriesPoints[]): Promise<WriteResult> {
    return this.lock.run(table, async () => {
      if (!(await this.holdsDataset(table))) throw notFound('metrics dataset not found');
      const seen = await this.seenOf(table);
      const names = metricsTablesOf(table);
      const pending = new Map<string, SeriesDescription>();
      const seriesRows: string[] = [];
      let created = 0;
      const points: string[] = [];
      const dists: string[] = [];
      for (const series of batch) {
        const descriptor = series.metric;
        const pointClass = pointClassOf(descriptor.type);
        const key = seriesKey(descriptor.name, pointClass, series.tags);
        const id = seriesIdOf(key).toString();
        const known = pending.get(key) ?? seen.get(key);
        if (!known || (!pending.has(key) && !sameDescription(known, descriptor))) {
          if (!known) created++;
          const meta: SeriesDescription = { metric: descriptor.name, pointClass, type: descriptor.type, temporality: descriptor.temporality, monotonic: descriptor.monotonic, unit: descriptor.unit };
          pending.set(key, meta);
          seriesRows.push(
            [
              id,
              tsvText(meta.metric),
              tagsText(series.tags),
              meta.type,
              meta.temporality ?? '\\N',
              meta.monotonic === null ? '\\N' : String(meta.monotonic),
              tsvText(meta.unit),
              tsvText(key),
              this.nextVersion().toString(),
            ].join('\t'),
          );
        }
        if (pointClass === 'scalar') {
          for (let i = 0; i < series.times.length; i++) points.push(`${id}\t${series.times[i]}\t${floatText(series.values[i]!)}`);
        } else {
          for (let i = 0; i < series.times.length; i++) dists.push(`${id}\t${series.times[i]}\t${distText(series.distributions[i]!)}`);
        }
      }
      let chunks = 0;
      const inserting = { settings: insertSettings(this.executor.engine, this.cluster) };
      if (seriesRows.length > 0) {
        await this.executor.insert(names.series, SERIES_COLUMNS, Buffer.from(`${seriesRows.join('\n')}\n`), inserting);
      }
      if (points.length > 0) {
        await this.executor.insert(names.points, POINT_COLUMNS, Buffer.from(`${points.join('\n')}\n`), inserting);
        chunks++;
      }
      if (dists.length > 0) {
        await this.executor.insert(names.dists, DIST_COLUMNS, Buffer.from(`${dists.join('\n')}\n`), inserting);
        chunks++;
      }
      // Only what was stored is remembered.
      for (const [key, meta] of pending) seen.set(key, meta);
      return { points: points.length + dists.length, newSeries: created, chunks };
    });
  }

  trim(table: string, olderThan: Date): Promise<number> {
    return this.lock.run(table, async () => {
      if (!(await this.holdsDataset(table))) return 0;
      const cut = Math.floor(olderThan.getTime() / 1000);
      const names = metricsTablesOf(table);
      let deleted = 0;
      for (const name of [names.points, names.dists]) {
        const { rows } = await this.read(`SELECT count() FROM ${quoteIdentifier(name)} WHERE t < ${cut}`);
        const count = Number(rows[0]![0]);
        if (count === 0) continue;
        await this.executor.command(`DELETE FROM ${quoteIdentifier(storedTable(name, this.cluster))}${onCluster(this.cluster)} WHERE t < ${cut}`, { settings: SYNC });
        deleted += count;
      }
      return deleted;
    });
  }

  vacuum(table: string): Promise<number> {
    return this.lock.run(table, async () => {
      if (!(await this.holdsDataset(table))) return 0;
      const names = metricsTablesOf(table);
      const empty = (series: string, points: string, dists: string) =>
        `SELECT id FROM ${quoteIdentifier(series)} WHERE id NOT IN (SELECT series_id FROM ${quoteIdentifier(points)})
         AND id NOT IN (SELECT series_id FROM ${quoteIdentifier(dists)})`;
      const { rows } = await this.read(`SELECT count(DISTINCT id) FROM (${empty(names.series, names.points, names.dists)})`);
      const count = Number(rows[0]![0]);
      if (count > 0) {
        // On a cluster each node deletes from its shard, where a series' points are.
        const [series, points, dists] = [names.series, names.points, names.dists].map((name) => storedTable(name, this.cluster)) as [string, string, string];
        await this.executor.command(`DELETE FROM ${quoteIdentifier(series)}${onCluster(this.cluster)} WHERE id IN (${empty(series, points, dists)})`, { settings: SYNC });
        // What this instance remembered is read again on its next write.
        this.seen.delete(table);
      }
      return count;
    });
  }

  async runMpl(statement: CompiledMetricsSql, { maxResultBytes, ...options }: MplRunOptions): Promise<SeriesRow[]> {
    const { rows } = await this.runner.run(statement, options);
    const series = rows.map(([tags, ts, vs]) => ({
      tags: Object.entries(JSON.parse(tags as string) as Record<string, string>).map(([k, value]): TagEntry => ({ k, t: value[0] as TagEntry['t'], v: value.slice(1) })),
      ts: JSON.parse(ts as string) as number[],
      vs: JSON.parse(vs as string) as (number | null)[],
    }));
    return checkAnswerSize(series, maxResultBytes);
  }

  /** Runs ClickHouse SQL as it is (tests and benchmarks). */
  async query(sql: string): Promise<{ rows: unknown[][] }> {
    return { rows: decodeRows(await this.executor.query(sql), 'nanos') };
  }

  idle(): Promise<void> {
    return this.lock.idle();
  }

  /** The executor belongs to the event store, which closes it. */
  /** The tables live in the event store's ClickHouse, whose own probe reports the engine. */
  probe(): EngineHealth {
    return { state: 'ok' };
  }

  async close(): Promise<void> {
    await this.lock.idle();
  }
}

/** Text as a TabSeparated field (NUL replaced, as everywhere the store writes text). */
const tsvText = (value: string) => escapeText(withoutNul(value));

/**
 * A series' tags as a TabSeparated Map field: `{'name':'value',...}` with quoted strings, sorted
 * by name in UTF-8 byte order (ClickHouse's order, which mapSort keeps in the dialect), so equal
 * tag sets are equal maps.
 */
function tagsText(tags: Tags): string {
  const entries = [...tags.entries()].map(([name, tag]) => [withoutNul(name), withoutNul(storedTag(tag))] as const);
  entries.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${entries.map(([name, value]) => `${quoteLiteral(name)}:${quoteLiteral(value)}`).join(',')}}`;
}

/** The columns of a distribution point after its series id and time, as TabSeparated text. */
function distText(point: DistributionValue): string {
  return [
    floatText(point.count),
    nullableFloat(point.sum),
    nullableFloat(point.min),
    nullableFloat(point.max),
    floatList(point.bounds),
    floatList(point.counts),
    floatList(point.quantiles),
    floatList(point.quantileValues),
  ].join('\t');
}
