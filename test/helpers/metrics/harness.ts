// A server with a metrics dataset holding the MPL fixture, written through the metrics service
// (the store's own ingest), and a helper that runs MPL over HTTP; and a metrics store opened on
// its own, of the engine the test project runs, for the store's unit tests.
import path from 'node:path';
import { expect } from 'vitest';
import type { Principal } from '../../../src/auth/principal';
import { ChdbExecutor } from '../../../src/engines/clickhouse/chdb-executor';
import { ClickHouseMetricsStore } from '../../../src/metrics/store/clickhouse/clickhouse-metrics-store';
import { DuckDBMetricsStore } from '../../../src/metrics/store/metrics-store';
import type { MetricsStore } from '../../../src/metrics/store/store';
import { ON_CHDB, startTestServer, type TestServer } from '../server';
import { END, type FixtureSeries, START, toSeriesPoints } from './fixture';

export interface MetricsServer extends TestServer {
  /** Runs MPL through POST /v1/query/_mpl (over the fixture's range unless told) and expects a 200. */
  mpl(query: string, body?: Record<string, unknown>, path?: string): Promise<any>;
  /** Runs MPL and expects a 400; returns the error body. */
  mplError(query: string, body?: Record<string, unknown>): Promise<{ error: string; message: string; line?: number; column?: number }>;
  /** Writes series into a metrics dataset through the metrics service. */
  write(dataset: string, series: FixtureSeries[]): Promise<void>;
  principal(): Promise<Principal>;
}

export async function createDataset(server: TestServer, name: string, kind = 'otel:metrics:v1') {
  const response = await server.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, kind }) });
  expect(response.status).toBe(200);
}

/** `dataDir` reuses a directory, kept when the server closes (see startTestServer). */
export async function startMetricsServer(options: { dataDir?: string } = {}): Promise<MetricsServer> {
  const server = await startTestServer({}, options);
  const principal = () => server.app.services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
  const run = (query: string, body: Record<string, unknown> = {}, path = '/v1/query/_mpl') =>
    server.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mpl: query, startTime: START, endTime: END, ...body }),
    });
  return {
    ...server,
    principal,
    async mpl(query, body, path) {
      const response = await run(query, body, path);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      return JSON.parse(text);
    },
    async mplError(query, body) {
      const response = await run(query, body);
      const text = await response.text();
      expect(response.status, text).toBe(400);
      return JSON.parse(text);
    },
    async write(dataset, series) {
      const metrics = server.app.services.metrics;
      await metrics.write(await metrics.resolve(await principal(), dataset, 'ingest'), toSeriesPoints(series));
    },
  };
}

/** A metrics store opened on its own, of the kind the test project runs (DuckDB, or ClickHouse through chdb). */
export interface OpenedMetricsStore {
  store: MetricsStore;
  /** Runs the engine's own SQL. */
  rows(sql: string): Promise<unknown[][]>;
  /** A series table as a query reads its latest rows (`FINAL` on ClickHouse). */
  series(table: string): string;
  /** Closes the store (and its engine), then opens it again over the same data. */
  reopen(): Promise<OpenedMetricsStore>;
  close(): Promise<void>;
}

/** Opens a metrics store over `dir`: a DuckDB file, or (chdb project) ClickHouse embedded. */
export async function openMetricsStoreIn(dir: string): Promise<OpenedMetricsStore> {
  if (!ON_CHDB) {
    const store = await DuckDBMetricsStore.open(path.join(dir, 'metrics.duckdb'));
    return {
      store,
      rows: async (sql) => (await store.query(sql)).rows,
      series: (table) => `${table}_series`,
      reopen: async () => {
        await store.close();
        return openMetricsStoreIn(dir);
      },
      close: () => store.close(),
    };
  }
  const executor = await ChdbExecutor.open(path.join(dir, 'chdb'));
  const store = await ClickHouseMetricsStore.open(executor);
  const close = async () => {
    await store.close();
    await executor.close();
  };
  return {
    store,
    rows: async (sql) => (await store.query(sql)).rows,
    series: (table) => `${table}_series FINAL`,
    reopen: async () => {
      await close();
      return openMetricsStoreIn(dir);
    },
    close,
  };
}

/** How many tables of a metrics dataset remain in the server's metrics store. */
export async function metricsTablesLeft(server: TestServer, table: string): Promise<number> {
  const store = server.app.services.metrics.store;
  const pattern = `${table.replaceAll('_', '\\_')}\\_%`;
  const rows =
    store instanceof DuckDBMetricsStore
      ? (await store.query(`SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '${pattern}' ESCAPE '\\'`)).rows
      : (await (store as ClickHouseMetricsStore).query(`SELECT count() FROM system.tables WHERE database = currentDatabase() AND name LIKE '${pattern.replaceAll('\\', '\\\\')}'`)).rows;
  return Number(rows[0]![0]);
}
