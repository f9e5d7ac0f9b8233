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
  MODEL_CATALOG_REFRESH: z
    .string()
    .regex(/^(0|off|(\d+(\.\d+)?(ms|s|m|h|d))+)$/, 'must be a duration such as 1h, 30m or 90s, or 0 / off to disable')
    .default('1h'),
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
});

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Where the relational data lives: a SQLite file (default) or a PostgreSQL database. */
  database: DatabaseLocation;
  /** Absolute path of the DuckDB file holding the events. */
  duckdbPath: string;
  catalogSource: string;
  /** How often a URL catalog source is re-read, in ms; 0: never. */
  catalogRefreshMs: number;
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

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1h30m`, `90s`, `0` or `off` (validated by the schema) in milliseconds. */
function durationMs(text: string): number {
  if (text === '0' || text === 'off') return 0;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return Math.round(total);
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
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    database: databaseFrom(e.DATABASE_URL, dataDir, e.DATABASE_POOL_SIZE),
    duckdbPath: path.join(dataDir, 'events.duckdb'),
    catalogSource: e.MODEL_CATALOG_SOURCE,
    catalogRefreshMs: durationMs(e.MODEL_CATALOG_REFRESH),
    adminToken: e.ADMIN_TOKEN,
    maxFieldsPerDataset: e.MAX_FIELDS_PER_DATASET,
    maxQueryRows: e.MAX_QUERY_ROWS,
    queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    logLevel: e.LOG_LEVEL,
  };
}
