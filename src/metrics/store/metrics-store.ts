// The embedded metrics store (the default, events in DuckDB): its own DuckDB database
// (`metrics.duckdb`) with three tables per metrics dataset (see layout.ts). Series ids are
// assigned here and kept in memory by series key, so ingest resolves a point's series without a
// query; each write is one transaction
// (new series, changed series metadata and points together), serialized per dataset. Queries
// run on their own read connections and never wait for writes.
import type { EngineHealth } from '../../engines/health';
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBVector,
  LIST,
  listValue,
  UINTEGER,
  VARCHAR,
} from '@duckdb/node-api';
import { quoteLiteral } from '../../engines/duckdb/layout';
import { KeyedLock } from '../../lib/keyed-lock';
import { type ConnectionLender, DuckDBDatabase } from '../../engines/duckdb/database';
import type { DuckDBOptions } from '../../engines/duckdb/instance';
import { QueryRunner, type QueryOptions, type QueryParams, type QueryResult } from '../../engines/duckdb/query-runner';
import { notFound } from '../../errors';
import { type DistributionValue, type MetricDescriptor, type MetricType, pointClassOf, type SeriesPoints, type TagValue } from '../model';
import type { CompiledMetricsSql, SeriesRow } from '../mpl/dialect/dialect';
import { duckdbMetricsDialect } from '../mpl/dialect/duckdb';
import { MetricsInfoQueries } from './info';
import { baseOfSeriesTable, createTablesSql, dropTablesSql, metricsTablesOf, quoteIdentifier, TAG_MEMBER, TAG_VALUE_TYPE } from './layout';
import { seriesKey, sortedTags, withoutNul } from './series-key';
import { addToSummaries, checkAnswerSize, type MetricsStore, type MetricSummary, type MplRunOptions, sameDescription, type SeriesDescription, type WriteResult } from './store';

/** What the store knows of one series without reading its table. */
export interface SeriesMeta extends SeriesDescription {
  id: number;
}

interface DatasetState {
  table: string;
  byKey: Map<string, SeriesMeta>;
  metrics: Map<string, MetricSummary>;
  nextId: number;
}

export interface MetricsStoreOptions extends DuckDBOptions {
  readConnections?: number;
}

const CHUNK_ROWS = 2048;
const MAX_SERIES_ID = 0xffff_ffff;

function rebuildSummary(state: DatasetState, metric: string) {
  state.metrics.delete(metric);
  for (const meta of state.byKey.values()) if (meta.metric === metric) addToSummaries(state.metrics, meta);
}

const literal = (value: string) => quoteLiteral(withoutNul(value));
const nullableLiteral = (value: string | null) => (value === null ? 'NULL' : literal(value));

export class DuckDBMetricsStore implements MetricsStore {
  readonly engine = 'duckdb' as const;
  readonly dialect = duckdbMetricsDialect;
  readonly info: MetricsInfoQueries;
  private readonly datasets = new Map<string, DatasetState>();
  private readonly lock = new KeyedLock();
  private closing: Promise<void> | undefined;
  readonly queries: QueryRunner;
  /** The database, reopened by itself after a fatal error (the series are loaded again then). */
  private database!: DuckDBDatabase;

  private constructor(readonly databasePath: string) {
    this.queries = new QueryRunner((task) => this.database.useReader(task));
    this.info = new MetricsInfoQueries(this.queries);
  }

  static async open(databasePath: string, options: MetricsStoreOptions = {}): Promise<DuckDBMetricsStore> {
    const store = new DuckDBMetricsStore(databasePath);
    store.database = await DuckDBDatabase.open(
      databasePath,
      { ...options, writeConnections: 2, readConnections: options.readConnections ?? 4, label: 'metrics store' },
      (useWriter) => store.load(useWriter),
    );
    return store;
  }

  /** Reads every dataset's series into memory, so a restart continues where it was. */
  private async load(useWriter: ConnectionLender): Promise<void> {
    this.datasets.clear();
    await useWriter(async (connection) => {
      const tables = await connection.runAndReadAll(
        `SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'`,
      );
      for (const [name] of tables.getRows() as [string][]) {
        const table = baseOfSeriesTable(name);
        if (!table) continue;
        const state: DatasetState = { table, byKey: new Map(), metrics: new Map(), nextId: 1 };
        const rows = await connection.runAndReadAll(
          `SELECT id, metric, key, type, temporality, monotonic, unit FROM ${quoteIdentifier(name)}`,
        );
        for (const [id, metric, key, type, temporality, monotonic, unit] of rows.getRows() as [
          number,
          string,
          string,
          MetricType,
          MetricDescriptor['temporality'],
          boolean | null,
          string,
        ][]) {
          const meta: SeriesMeta = { id, metric, pointClass: pointClassOf(type), type, temporality, monotonic, unit };
          state.byKey.set(key, meta);
          addToSummaries(state.metrics, meta);
          if (id >= state.nextId) state.nextId = id + 1;
        }
        this.datasets.set(table, state);
      }
    });
  }

  /** The metrics database reopens itself after a fatal error, as the event store's does. */
  probe(): EngineHealth {
    return this.database.probe();
  }

  hasDataset(table: string): boolean {
    return this.datasets.has(table);
  }

  /** The file belongs to this instance alone: what it has loaded is all there is. */
  async holdsDataset(table: string): Promise<boolean> {
    return this.datasets.has(table);
  }

  async createDataset(table: string): Promise<void> {
    await this.lock.run(table, async () => {
      if (this.datasets.has(table)) return;
      await this.database.useWriter(async (connection) => {
        for (const sql of createTablesSql(table)) await connection.run(sql);
      });
      this.datasets.set(table, { table, byKey: new Map(), metrics: new Map(), nextId: 1 });
    });
  }

  async dropDataset(table: string): Promise<void> {
    await this.lock.run(table, async () => {
      await this.database.useWriter(async (connection) => {
        for (const sql of dropTablesSql(table)) await connection.run(sql);
      });
      this.datasets.delete(table);
    });
  }

  /** The metrics of a dataset and what their series say about them (kept in memory). */
  async metricsOf(table: string): Promise<ReadonlyMap<string, MetricSummary>> {
    return this.state(table).metrics;
  }

  private state(table: string): DatasetState {
    const state = this.datasets.get(table);
    if (!state) throw notFound('metrics dataset not found');
    return state;
  }

  /**
   * Stores the points of a batch of series in one transaction; new series get ids, series
   * whose metric description changed (type, temporality, unit) are updated.
   */
  write(table: string, batch: SeriesPoints[]): Promise<WriteResult> {
    return this.lock.run(table, async () => {
      const state = this.datasets.get(table);
      if (!state) throw notFound('metrics dataset not found');
      const created: [string, SeriesMeta, SeriesPoints][] = [];
      const changed: [string, SeriesMeta][] = [];
      const pending = new Map<string, SeriesMeta>();
      let nextId = state.nextId;
      const scalar: { ids: number[]; times: number[]; values: number[] } = { ids: [], times: [], values: [] };
      const dists: { ids: number[]; times: number[]; values: DistributionValue[] } = { ids: [], times: [], values: [] };
      for (const series of batch) {
        const pointClass = pointClassOf(series.metric.type);
        const key = seriesKey(series.metric.name, pointClass, series.tags);
        let meta = state.byKey.get(key) ?? pending.get(key);
        const descriptor = series.metric;
        if (!meta) {
          if (nextId > MAX_SERIES_ID) throw new Error('series id space of the dataset is exhausted');
          meta = { id: nextId++, metric: descriptor.name, pointClass, type: descriptor.type, temporality: descriptor.temporality, monotonic: descriptor.monotonic, unit: descriptor.unit };
          pending.set(key, meta);
          created.push([key, meta, series]);
        } else if (!sameDescription(meta, descriptor) && !pending.has(key)) {
          changed.push([key, { ...meta, type: descriptor.type, temporality: descriptor.temporality, monotonic: descriptor.monotonic, unit: descriptor.unit }]);
        }
        const target = pointClass === 'scalar' ? scalar : dists;
        for (let i = 0; i < series.times.length; i++) {
          target.ids.push(meta.id);
          target.times.push(series.times[i]!);
        }
        if (pointClass === 'scalar') for (const value of series.values) scalar.values.push(value);
        else for (const value of series.distributions) dists.values.push(value);
      }
      const names = metricsTablesOf(table);
      const chunks = await this.database.useWriter(async (connection) => {
        await connection.run('BEGIN TRANSACTION');
        try {
          if (created.length > 0) await insertSeries(connection, names.series, created);
          for (const [, meta] of changed) {
            await connection.run(
              `UPDATE ${quoteIdentifier(names.series)} SET type = ${literal(meta.type)}, temporality = ${nullableLiteral(meta.temporality)}, ` +
                `monotonic = ${meta.monotonic === null ? 'NULL' : meta.monotonic}, unit = ${literal(meta.unit)} WHERE id = ${meta.id}`,
            );
          }
          let written = 0;
          if (scalar.ids.length > 0) written += await appendScalar(connection, names.points, scalar);
          if (dists.ids.length > 0) written += await appendDistributions(connection, names.dists, dists);
          await connection.run('COMMIT');
          return written;
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
      // Only a committed write changes what the store remembers.
      state.nextId = nextId;
      for (const [key, meta] of created) {
        state.byKey.set(key, meta);
        addToSummaries(state.metrics, meta);
      }
      for (const [key, update] of changed) {
        state.byKey.set(key, update);
        rebuildSummary(state, update.metric);
      }
      return { points: scalar.ids.length + dists.ids.length, newSeries: created.length, chunks };
    });
  }

  /** Deletes points older than `olderThan`; returns how many. */
  trim(table: string, olderThan: Date): Promise<number> {
    return this.lock.run(table, async () => {
      if (!this.datasets.has(table)) return 0;
      const cut = Math.floor(olderThan.getTime() / 1000);
      const names = metricsTablesOf(table);
      return this.database.useWriter(async (connection) => {
        const points = await connection.run(`DELETE FROM ${quoteIdentifier(names.points)} WHERE t < ${cut}`);
        const dists = await connection.run(`DELETE FROM ${quoteIdentifier(names.dists)} WHERE t < ${cut}`);
        return points.rowsChanged + dists.rowsChanged;
      });
    });
  }

  /** Forgets series that no longer hold any point (e.g. after a trim); returns how many. */
  vacuum(table: string): Promise<number> {
    return this.lock.run(table, async () => {
      const state = this.datasets.get(table);
      if (!state) return 0;
      const names = metricsTablesOf(table);
      const removed = await this.database.useWriter(async (connection) => {
        const reader = await connection.runAndReadAll(
          `DELETE FROM ${quoteIdentifier(names.series)} WHERE id NOT IN (SELECT series_id FROM ${quoteIdentifier(names.points)}
           UNION ALL SELECT series_id FROM ${quoteIdentifier(names.dists)}) RETURNING id`,
        );
        return new Set((reader.getRows() as [number][]).map(([id]) => id));
      });
      if (removed.size > 0) {
        const metrics = new Set<string>();
        for (const [key, meta] of state.byKey) {
          if (removed.has(meta.id)) {
            state.byKey.delete(key);
            metrics.add(meta.metric);
          }
        }
        for (const metric of metrics) rebuildSummary(state, metric);
      }
      return removed.size;
    });
  }

  async runMpl(statement: CompiledMetricsSql, { maxResultBytes, ...options }: MplRunOptions): Promise<SeriesRow[]> {
    const result = await this.queries.run(statement.sql, statement.params, options);
    return checkAnswerSize(
      result.rows.map(([tags, ts, vs]) => ({ tags, ts, vs }) as SeriesRow),
      maxResultBytes,
    );
  }

  /** Runs read-only SQL on a read connection (DuckDB's SQL: tests and benchmarks). */
  query(sql: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult> {
    return this.queries.run(sql, params, options);
  }

  async checkpoint(): Promise<void> {
    await this.database.useWriter((connection) => connection.run('CHECKPOINT'));
  }

  /** Resolves once every queued write has settled. */
  idle(): Promise<void> {
    return this.lock.idle();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.lock.idle();
      await this.database.close();
    })();
    return this.closing;
  }
}

/** Reused chunks: a chunk's native memory is freed only when its wrapper is collected. */
let scalarChunk: DuckDBDataChunk | undefined;
let distChunk: DuckDBDataChunk | undefined;
let seriesChunk: DuckDBDataChunk | undefined;

/** Where new series wait, per connection, for one INSERT that builds their typed tag maps. */
const STAGING = 'metrics_new_series';
const STAGING_SQL = `CREATE TEMP TABLE IF NOT EXISTS ${STAGING} (
  id UINTEGER, metric VARCHAR, type VARCHAR, temporality VARCHAR, monotonic BOOLEAN, unit VARCHAR, key VARCHAR,
  names VARCHAR[], kinds VARCHAR[], texts VARCHAR[])`;

/** A tag value as text its column type reads back exactly (shortest round-trip doubles). */
function tagText(tag: TagValue): string {
  if (tag.type !== 'float') return withoutNul(String(tag.value));
  if (Number.isNaN(tag.value)) return 'nan';
  if (tag.value === Infinity) return 'inf';
  if (tag.value === -Infinity) return '-inf';
  return String(tag.value);
}

const TEXT_TO_TAG = `CASE e[2] WHEN 'i' THEN CAST(CAST(e[3] AS BIGINT) AS ${TAG_VALUE_TYPE}) WHEN 'f' THEN CAST(CAST(e[3] AS DOUBLE) AS ${TAG_VALUE_TYPE})
  WHEN 'b' THEN CAST(CAST(e[3] AS BOOLEAN) AS ${TAG_VALUE_TYPE}) ELSE CAST(e[3] AS ${TAG_VALUE_TYPE}) END`;

/**
 * New series go through the appender into a staging table, tags as parallel lists of names,
 * kinds and texts, then into the series table in one statement: far cheaper than SQL text with
 * a literal map per series.
 */
async function insertSeries(connection: DuckDBConnection, table: string, created: [string, SeriesMeta, SeriesPoints][]) {
  await connection.run(STAGING_SQL);
  await withAppender(
    connection,
    STAGING,
    (appender) => {
      seriesChunk ??= DuckDBDataChunk.create([UINTEGER, VARCHAR, VARCHAR, VARCHAR, BOOLEAN, VARCHAR, VARCHAR, TEXT_LIST, TEXT_LIST, TEXT_LIST]);
      appendRows(appender, seriesChunk, created.length, (vectors, row, index) => {
        const [key, meta, series] = created[index]!;
        const tags = sortedTags(series.tags);
        const cells: unknown[] = [
          meta.id,
          withoutNul(meta.metric),
          meta.type,
          meta.temporality,
          meta.monotonic,
          withoutNul(meta.unit),
          withoutNul(key),
          listValue(tags.map(([name]) => withoutNul(name))),
          listValue(tags.map(([, tag]) => TAG_MEMBER[tag.type])),
          listValue(tags.map(([, tag]) => tagText(tag))),
        ];
        cells.forEach((cell, column) => vectors[column]!.setItem(row, cell as never));
      });
    },
    'temp',
  );
  await connection.run(
    `INSERT INTO ${quoteIdentifier(table)} SELECT id, metric,
       map_from_entries(list_transform(list_zip(names, kinds, texts), lambda e: {'key': e[1], 'value': ${TEXT_TO_TAG}})),
       type, temporality, monotonic, unit, key FROM ${STAGING}`,
  );
  await connection.run(`DELETE FROM ${STAGING}`);
}

async function withAppender<T>(connection: DuckDBConnection, table: string, task: (appender: DuckDBAppender) => T, catalog?: string): Promise<T> {
  const appender = await connection.createAppender(table, null, catalog ?? null);
  try {
    return task(appender);
  } finally {
    appender.closeSync();
  }
}

/**
 * Appends `count` rows through a reused data chunk, 2,048 at a time; `fill` writes row `index`
 * of the batch into row `row` of the chunk's vectors. Returns the chunks written.
 */
function appendRows(appender: DuckDBAppender, chunk: DuckDBDataChunk, count: number, fill: (vectors: DuckDBVector<never>[], row: number, index: number) => void): number {
  const vectors = Array.from({ length: chunk.columnCount }, (_, column) => column);
  let chunks = 0;
  for (let offset = 0; offset < count; offset += CHUNK_ROWS) {
    const rows = Math.min(CHUNK_ROWS, count - offset);
    chunk.reset();
    chunk.rowCount = rows;
    const columns = vectors.map((column) => chunk.getColumnVector(column) as DuckDBVector<never>);
    for (let row = 0; row < rows; row++) fill(columns, row, offset + row);
    for (const column of columns) column.flush();
    appender.appendDataChunk(chunk);
    chunks++;
  }
  chunk.reset();
  return chunks;
}

function appendScalar(connection: DuckDBConnection, table: string, rows: { ids: number[]; times: number[]; values: number[] }) {
  return withAppender(connection, table, (appender) => {
    scalarChunk ??= DuckDBDataChunk.create([UINTEGER, BIGINT, DOUBLE]);
    return appendRows(appender, scalarChunk, rows.ids.length, ([ids, times, values], row, index) => {
      ids!.setItem(row, rows.ids[index]! as never);
      times!.setItem(row, BigInt(rows.times[index]!) as never);
      values!.setItem(row, rows.values[index]! as never);
    });
  });
}

const DOUBLE_LIST = LIST(DOUBLE);
const TEXT_LIST = LIST(VARCHAR);
const listOrNull = (values: number[] | null) => (values === null ? null : listValue(values));

function appendDistributions(connection: DuckDBConnection, table: string, rows: { ids: number[]; times: number[]; values: DistributionValue[] }) {
  return withAppender(connection, table, (appender) => {
    distChunk ??= DuckDBDataChunk.create([UINTEGER, BIGINT, DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE_LIST, DOUBLE_LIST, DOUBLE_LIST, DOUBLE_LIST]);
    return appendRows(appender, distChunk, rows.ids.length, (vectors, row, index) => {
      const point = rows.values[index]!;
      const cells: unknown[] = [
        rows.ids[index]!,
        BigInt(rows.times[index]!),
        point.count,
        point.sum,
        point.min,
        point.max,
        listOrNull(point.bounds),
        listOrNull(point.counts),
        listOrNull(point.quantiles),
        listOrNull(point.quantileValues),
      ];
      cells.forEach((cell, column) => vectors[column]!.setItem(row, cell as never));
    });
  });
}
