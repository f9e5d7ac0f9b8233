// Starts the real application on 127.0.0.1 with an ephemeral port and a temporary data
// directory (SQLite + DuckDB files), and offers small helpers for HTTP requests against it.
// With TEST_DATABASE=postgres (set by the `postgres` test project) the relational store is a
// fresh PostgreSQL database per server instead of the SQLite file; with TEST_EVENT_STORE=chdb
// (the `chdb` project) events live in ClickHouse embedded under the data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { type App, createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Clock } from '../../src/monitors/clock';
import { createTestDatabase, type TestDatabase } from './postgres';

export const TEST_ADMIN_TOKEN = 'xapt-test-admin-token-0123456789';
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures', import.meta.url));
export const SMALL_CATALOG = path.join(FIXTURES_DIR, 'litellm-small.json');

export interface TestServer {
  url: string;
  app: App;
  dataDir: string;
  /** The configuration the server started with: start another over the same stores with it. */
  env: Record<string, string>;
  adminToken: string;
  /** fetch() relative to the server, with the admin token unless `auth: false` or another token. */
  request(pathAndQuery: string, init?: RequestInit & { auth?: string | false }): Promise<Response>;
  /** POST a GraphQL document; returns the parsed JSON body. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | false): Promise<GraphQLResult<T>>;
  close(): Promise<void>;
}

export interface GraphQLResult<T> {
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

/** True when test servers keep their events in ClickHouse embedded (the `chdb` test project). */
export const ON_CHDB = process.env.TEST_EVENT_STORE === 'chdb';

/** SQL for a stored time column as epoch nanoseconds, or milliseconds, in the test store's dialect. */
export const sqlEpochNanos = (column: string) => (ON_CHDB ? `toUnixTimestamp64Nano(${column})` : `epoch_ns(${column})`);
export const sqlEpochMillis = (column: string) => (ON_CHDB ? `toUnixTimestamp64Milli(${column})` : `epoch_ms(${column})`);

/** True when test servers keep their relational data in PostgreSQL. */
export const ON_POSTGRES = process.env.TEST_DATABASE === 'postgres';

/** A fresh PostgreSQL database in the test cluster (the `postgres` project's, or TEST_POSTGRES_URL's server). */
export function freshPostgresDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl') ?? process.env.TEST_POSTGRES_URL;
  if (!adminUrl) throw new Error('no PostgreSQL for the tests: run them in the `postgres` project or set TEST_POSTGRES_URL');
  return createTestDatabase(adminUrl);
}

/**
 * `dataDir` reuses a directory (a restart); such a directory is kept when the server closes.
 * `monitorClock` runs the monitors on a clock the test moves (test/helpers/monitors/virtual-clock.ts).
 */
export async function startTestServer(env: Record<string, string> = {}, options: { dataDir?: string; monitorClock?: Clock } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'eventdeck-test-'));
  const database = ON_POSTGRES && env.DATABASE_URL === undefined ? await freshPostgresDatabase() : undefined;
  const fullEnv = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    MODEL_CATALOG_SOURCE: SMALL_CATALOG,
    ...(database ? { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '4' } : {}),
    ...(ON_CHDB ? { EVENT_STORE: 'chdb' } : {}),
    // A console build of one's own (e.g. while the default one is being rebuilt).
    ...(process.env.CONSOLE_DIST_DIR ? { CONSOLE_DIST_DIR: process.env.CONSOLE_DIST_DIR } : {}),
    ...env,
  };
  const config = loadConfig(fullEnv);
  let app: App;
  try {
    app = await createApp(config, undefined, options.monitorClock ? { monitorClock: options.monitorClock } : {});
  } catch (error) {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const address = await app.server.listen({ host: config.host, port: 0 });
  const adminToken = config.adminToken ?? TEST_ADMIN_TOKEN;

  const request: TestServer['request'] = (pathAndQuery, init = {}) => {
    const { auth, ...rest } = init;
    const headers = new Headers(rest.headers);
    const token = auth === undefined ? adminToken : auth;
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return fetch(`${address}${pathAndQuery}`, { ...rest, headers });
  };

  return {
    url: address,
    app,
    dataDir,
    env: fullEnv,
    adminToken,
    request,
    async graphql(query, variables, token) {
      const response = await request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        auth: token,
      });
      return (await response.json()) as GraphQLResult<any>;
    },
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
