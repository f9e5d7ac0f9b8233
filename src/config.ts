// The one place that reads configuration. Everything else receives a validated `Config`.
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseLocation } from './db/store';

export const DEFAULT_CATALOG_SOURCE =
  'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json';

const positiveInt = (fallback: number) =>
  z.coerce.number().int('must be a whole number').positive('must be greater than 0').default(fallback);

const envSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int('must be a whole number').min(0).max(65535, 'must be at most 65535').default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int('must be a whole number').min(2, 'must be at least 2').default(10),
  MODEL_CATALOG_SOURCE: z.string().min(1).default(DEFAULT_CATALOG_SOURCE),
  ADMIN_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{12,}$/, 'must be at least 12 printable characters without spaces (e.g. "xapt-" and a random string)')
    .optional(),
  MAX_FIELDS_PER_DATASET: positiveInt(1024),
  MAX_QUERY_ROWS: positiveInt(65_000),
  QUERY_TIMEOUT_MS: positiveInt(30_000),
  TLS_CERT: z.string().min(1).optional(),
  TLS_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  EVENT_STORE: z.enum(['duckdb', 'clickhouse', 'chdb']).default('duckdb'),
  CLICKHOUSE_URL: z.string().min(1).optional(),
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a cluster name from the ClickHouse configuration (letters, digits, "_", "-", ".")')
    .optional(),
});

/** Where events live: embedded DuckDB (default), a ClickHouse server, or ClickHouse embedded (chdb). */
export type EventStoreLocation =
  | { engine: 'duckdb'; path: string }
  | { engine: 'clickhouse'; url: string; cluster: string | undefined }
  | { engine: 'chdb'; path: string };

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Where the relational data lives: a SQLite file (default) or a PostgreSQL database. */
  database: DatabaseLocation;
  /** Absolute path of the DuckDB file holding the events (with the default event store). */
  duckdbPath: string;
  eventStore: EventStoreLocation;
  catalogSource: string;
  adminToken: string | undefined;
  maxFieldsPerDataset: number;
  maxQueryRows: number;
  queryTimeoutMs: number;
  tls: { cert: string; key: string } | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads `DATABASE_URL`: `postgres://` or `postgresql://` URLs select PostgreSQL; anything else is
 * a SQLite location as Prisma spells it (`file:./dev.db`) or a plain path.
 */
function databaseFrom(databaseUrl: string | undefined, dataDir: string, poolSize: number): DatabaseLocation {
  if (!databaseUrl) return { provider: 'sqlite', path: path.join(dataDir, 'eventdeck.db') };
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    if (!URL.canParse(databaseUrl)) throw new ConfigError('Invalid configuration:\n  DATABASE_URL: not a valid PostgreSQL URL');
    return { provider: 'postgresql', url: databaseUrl, poolSize };
  }
  const withoutScheme = databaseUrl.replace(/^file:(\/\/)?/, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(withoutScheme)) {
    throw new ConfigError(
      `Invalid configuration:\n  DATABASE_URL: use a SQLite file location or a postgres:// URL (got a "${databaseUrl.split(':')[0]}:" URL)`,
    );
  }
  return { provider: 'sqlite', path: path.resolve(withoutScheme.split('?')[0]!) };
}

/** Reads `EVENT_STORE` with `CLICKHOUSE_URL` and `CLICKHOUSE_CLUSTER`. */
function eventStoreFrom(e: z.infer<typeof envSchema>, dataDir: string, duckdbPath: string): EventStoreLocation {
  const fail = (message: string) => new ConfigError(`Invalid configuration:\n  ${message}`);
  if (e.EVENT_STORE !== 'clickhouse') {
    if (e.CLICKHOUSE_URL) throw fail(`CLICKHOUSE_URL: only used with EVENT_STORE=clickhouse (EVENT_STORE is ${e.EVENT_STORE})`);
    if (e.CLICKHOUSE_CLUSTER) throw fail(`CLICKHOUSE_CLUSTER: only used with EVENT_STORE=clickhouse (EVENT_STORE is ${e.EVENT_STORE})`);
    return e.EVENT_STORE === 'chdb' ? { engine: 'chdb', path: path.join(dataDir, 'chdb') } : { engine: 'duckdb', path: duckdbPath };
  }
  if (!e.CLICKHOUSE_URL) throw fail('CLICKHOUSE_URL: required with EVENT_STORE=clickhouse (e.g. http://user:password@clickhouse:8123/eventdeck)');
  if (!URL.canParse(e.CLICKHOUSE_URL) || !/^https?:$/.test(new URL(e.CLICKHOUSE_URL).protocol)) {
    throw fail('CLICKHOUSE_URL: must be an http:// or https:// URL of the ClickHouse HTTP interface');
  }
  return { engine: 'clickhouse', url: e.CLICKHOUSE_URL, cluster: e.CLICKHOUSE_CLUSTER };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as shells and .env files often produce them.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.TLS_CERT) !== Boolean(e.TLS_KEY)) {
    throw new ConfigError('Invalid configuration:\n  TLS_CERT and TLS_KEY must be set together');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const duckdbPath = path.join(dataDir, 'events.duckdb');
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    database: databaseFrom(e.DATABASE_URL, dataDir, e.DATABASE_POOL_SIZE),
    duckdbPath,
    eventStore: eventStoreFrom(e, dataDir, duckdbPath),
    catalogSource: e.MODEL_CATALOG_SOURCE,
    adminToken: e.ADMIN_TOKEN,
    maxFieldsPerDataset: e.MAX_FIELDS_PER_DATASET,
    maxQueryRows: e.MAX_QUERY_ROWS,
    queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    logLevel: e.LOG_LEVEL,
  };
}
