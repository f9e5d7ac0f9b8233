// The one place that reads configuration. Everything else receives a validated `Config`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { DatabaseLocation } from './db/store';

export const DEFAULT_CATALOG_SOURCE =
  'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json';

const positiveInt = (fallback: number) =>
  z.coerce.number().int('must be a whole number').positive('must be greater than 0').default(fallback);

const httpUrl = (fallback: string) =>
  z
    .string()
    .regex(/^https?:\/\/[^/]/, 'must be an http:// or https:// URL')
    .transform((url) => url.replace(/\/+$/, ''))
    .default(fallback);

const boundedInt = (fallback: number, max: number) => positiveInt(fallback).pipe(z.number().max(max, `must be at most ${max}`));

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** A byte size: a number of bytes or a number with a unit (`512MB`, `2GiB`, `1.5 GB`). */
const byteSize = z.string().transform((text, context) => {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined || Number(match[1]) * unit < 1) {
    context.addIssue({ code: 'custom', message: 'must be a size such as 1073741824, 512MB or 2GiB' });
    return z.NEVER;
  }
  return Math.floor(Number(match[1]) * unit);
});

/**
 * DuckDB holds 256 KiB blocks per column of a table while it checkpoints it (the rows not yet
 * checkpointed, and the compressed segments being written), so the memory a checkpoint needs
 * grows with the width of the table. Measured with 500 rows of 300, 600 and 1,000 fields, a
 * checkpoint needed up to about 1 MiB (four blocks) per column; with less it fails, and DuckDB
 * invalidates the database. So: four blocks per column, beside 128 MiB for concurrent work.
 */
export const DUCKDB_BLOCK_BYTES = 256 * 1024;
export function minimumDuckDBMemory(columns: number): number {
  return 4 * columns * DUCKDB_BLOCK_BYTES + 128 * 2 ** 20;
}

/** The least memory DuckDB is given when DUCKDB_MEMORY_LIMIT is unset, whatever the datasets. */
export const DUCKDB_AUTO_MEMORY_FLOOR = 256 * 2 ** 20;

/**
 * DuckDB's memory when DUCKDB_MEMORY_LIMIT is unset, for the widest table it holds (in columns,
 * system columns included): enough to checkpoint that table beside concurrent work, and never
 * less than the floor. It grows as datasets widen, so narrow datasets do not pay for the field limit.
 */
export function duckDBMemoryForWidth(columns: number): number {
  return Math.max(DUCKDB_AUTO_MEMORY_FLOOR, minimumDuckDBMemory(columns));
}

const envSchema = z.object({
  /** Address to listen on (`0.0.0.0` for every interface). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Port to listen on. */
  PORT: z.coerce.number().int('must be a whole number').min(0).max(65535, 'must be at most 65535').default(8080),
  /** Where the embedded databases live (SQLite, DuckDB, chdb). */
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * Relational data: a SQLite location (`file:path` or a plain path; default
   * `$DATA_DIR/eventdeck.db`), or `postgres://user:password@host:5432/db` (also `postgresql://`;
   * TLS and other `pg` options as URL parameters, e.g. `?sslmode=require`).
   */
  DATABASE_URL: z.string().min(1).optional(),
  /** PostgreSQL connections per instance. */
  DATABASE_POOL_SIZE: z.coerce.number().int('must be a whole number').min(2, 'must be at least 2').default(10),
  /** Model catalog source: a file path or a URL of LiteLLM's `model_prices_and_context_window.json`. */
  MODEL_CATALOG_SOURCE: z.string().min(1).default(DEFAULT_CATALOG_SOURCE),
  /** How often a URL catalog source is read again (`30m`, `6h`, `1d`; `0` or `off`: never). */
  MODEL_CATALOG_REFRESH: z
    .string()
    .regex(/^(0|off|(\d+(\.\d+)?(ms|s|m|h|d))+)$/, 'must be a duration such as 1h, 30m or 90s, or 0 / off to disable')
    .default('1h'),
  /** The admin user's personal token; unset: one is generated at first start and printed once. */
  ADMIN_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{12,}$/, 'must be at least 12 printable characters without spaces (e.g. "xapt-" and a random string)')
    .optional(),
  /** Most fields a dataset may have; events bringing more fail alone. */
  MAX_FIELDS_PER_DATASET: positiveInt(1024),
  /** Most rows in one page of a query answer. */
  MAX_QUERY_ROWS: positiveInt(65_000),
  /** Time budget of one query (ms), every stage from parsing to the answer. */
  QUERY_TIMEOUT_MS: positiveInt(30_000),
  /** Largest result a query may read (bytes). */
  QUERY_MAX_RESULT_BYTES: positiveInt(64 * 2 ** 20),
  /**
   * Query statements kept prepared per event-store read connection when their text repeats (plans
   * only, never results); `0` plans every query anew.
   */
  QUERY_PREPARED_STATEMENTS: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').max(1000, 'must be at most 1000').default(32),
  /** Longest APL query text (bytes). */
  APL_MAX_QUERY_BYTES: positiveInt(256 * 1024),
  /** Deepest nesting of an APL query (parentheses, calls, operator chains, subqueries). */
  APL_MAX_NESTING: boundedInt(100, 256),
  /** Most tabular operators in a query, lets, functions and views expanded. */
  APL_MAX_OPERATORS: boundedInt(200, 1000),
  /** Largest expression once `let` names and function calls are replaced by their values and bodies. */
  APL_MAX_EXPRESSION_NODES: positiveInt(20_000),
  /** Longest string a query may compute (bytes). */
  APL_MAX_STRING_BYTES: positiveInt(2 ** 20),
  /** Deepest nesting of a JSON request body or of GraphQL variables. */
  JSON_MAX_DEPTH: boundedInt(128, 1000),
  /** Time for a whole request (headers and body) to arrive (ms). */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(120_000),
  /** `false` serves no web console (no /app/, no redirect from /); the API is unaffected. */
  CONSOLE_ENABLED: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
  /** Directory of the built web console served at /app/ (default: console/dist of this checkout). */
  CONSOLE_DIST_DIR: z.string().min(1).optional(),
  /**
   * Ingest requests parsed and written at once, every door together. Above 2, requests waiting
   * for the same dataset are written together, in one transaction: more ingest throughput, at
   * the cost of queries' latency while ingest saturates the machine.
   */
  INGEST_CONCURRENCY: positiveInt(2),
  /** Bytes of ingest bodies held in memory at once, shared fairly between tokens (bytes or `512MB`, `2GiB`). */
  INGEST_BUFFER_BYTES: byteSize.default(256 * 2 ** 20),
  /** An ingest body that sends nothing this long (ms) is refused with 408. */
  INGEST_BODY_IDLE_TIMEOUT_MS: positiveInt(10_000),
  /** Slowest average rate of an ingest body, after the idle timeout's time. */
  INGEST_BODY_MIN_BYTES_PER_SECOND: positiveInt(10_240),
  /** Deepest field nesting of a GraphQL operation. */
  GRAPHQL_MAX_DEPTH: boundedInt(15, 100),
  /** Most fields a GraphQL operation may resolve, page sizes multiplying what they contain. */
  GRAPHQL_MAX_COST: positiveInt(200_000),
  /** Most tokens in a GraphQL document. */
  GRAPHQL_MAX_TOKENS: boundedInt(5_000, 100_000),
  /** Time budget of one GraphQL request (ms). */
  GRAPHQL_TIMEOUT_MS: positiveInt(30_000),
  /** Live tails (GraphQL subscription `liveEvents`) one token may hold open at once. */
  LIVE_TAIL_MAX_PER_TOKEN: positiveInt(10),
  /** Live tails this server holds open at once, whoever holds them. */
  LIVE_TAIL_MAX_SUBSCRIPTIONS: positiveInt(500),
  /** Events held for one live tail client that reads slowly; past it the oldest are dropped (and counted as skipped). */
  LIVE_TAIL_QUEUE_EVENTS: boundedInt(5_000, 100_000),
  /**
   * Events sent per second at most to one live tail client (a burst of one second's worth is
   * allowed); a client is held at most two seconds' worth, and what comes faster counts as
   * skipped. Nobody reads more than a hundred lines a second, while every event and message sent
   * costs the server's one JavaScript thread work for that client: at 100 per client, a hundred
   * clients of a firehose cost 10,000 events/s of it, small beside the ingest they watch.
   */
  LIVE_TAIL_MAX_EVENTS_PER_SECOND: positiveInt(100),
  /**
   * The least time between two messages to one live tail client (ms), and between two reads of a
   * busy dataset by its tail: once a second is as often as a person reads a stream, and each
   * client costs the server one message a second (a hundred clients of a busy dataset cost its
   * ingest under 10%), whatever the rate of ingest.
   */
  LIVE_TAIL_MESSAGE_INTERVAL_MS: boundedInt(1_000, 5_000),
  /** How long a live tail waits after ingest before reading, gathering the requests that follow (ms). */
  LIVE_TAIL_COALESCE_MS: boundedInt(150, 800),
  /** How often the access of every live tail client is checked again (ms); a client whose access went away gets an error. */
  LIVE_TAIL_ACCESS_CHECK_MS: positiveInt(10_000),
  /**
   * DuckDB's memory for events; beyond it, operators spill to disk. Unset: sized by the widest
   * dataset, 1 MiB per field + 128 MiB and at least 256 MiB, growing as datasets widen. Set:
   * fixed, and at least 1 MiB x MAX_FIELDS_PER_DATASET + 128 MiB.
   */
  DUCKDB_MEMORY_LIMIT: byteSize.optional(),
  /** Where DuckDB spills (default `$DATA_DIR/events.duckdb.tmp`). */
  DUCKDB_TEMP_DIRECTORY: z.string().min(1).optional(),
  /** Most disk the spilled data may take (default: DuckDB's, 90% of the free disk). */
  DUCKDB_MAX_TEMP_DIRECTORY_SIZE: byteSize.optional(),
  /**
   * Tool calls one token may make per minute on the MCP endpoint (`POST /mcp`), with bursts of as
   * many; past it a call answers a tool error saying when to try again.
   */
  MCP_TOOL_CALLS_PER_MINUTE: positiveInt(120),
  /**
   * Browser origins allowed to call the MCP endpoint besides the server's own (comma-separated,
   * e.g. `https://agents.example.com`); any other `Origin` is refused with 403. Agents outside a
   * browser send none.
   */
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  /** Organizations one client address may provision a day through `POST /v2/orgs/provision` (`0` turns it off). */
  PROVISIONED_ORGS_PER_DAY: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(3),
  /** PEM certificate to serve HTTPS with (set together with TLS_KEY). */
  TLS_CERT: z.string().min(1).optional(),
  /** PEM private key of TLS_CERT. */
  TLS_KEY: z.string().min(1).optional(),
  /** Log level (pino). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Issuer URL of an OpenID Connect provider (discovered at `/.well-known/openid-configuration`);
   * setting it enables single sign-on.
   */
  OIDC_ISSUER: z.string().regex(/^https?:\/\/[^/]/, 'must be an http:// or https:// URL (the provider\'s issuer identifier)').optional(),
  /** The client id registered at the provider; required with OIDC_ISSUER. */
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** The client secret; leave unset for a public client (PKCE only). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** Label of the sign-in button (default "Single sign-on"). */
  OIDC_NAME: z.string().trim().min(1).max(100, 'must be at most 100 characters').optional(),
  /** Comma-separated email domains allowed to sign in; unset: any verified email. */
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .regex(/^\s*[a-z0-9.-]+\.[a-z0-9-]+\s*(,\s*[a-z0-9.-]+\.[a-z0-9-]+\s*)*,?\s*$/i, 'must be comma-separated email domains, e.g. example.com,example.org')
    .optional(),
  /** Base role of users created at their first single sign-on (default user). */
  OIDC_DEFAULT_ROLE: z.enum(['user', 'read-only', 'admin', 'none'], { error: 'must be user, read-only, admin or none' }).optional(),
  /** Organization that users created at their first single sign-on join (default: the first organization with an owner). */
  OIDC_ORG_ID: z.string().min(1).optional(),
  /** Scopes asked of the provider, space-separated (default "openid email profile"). */
  OIDC_SCOPES: z.string().regex(/(^|\s)openid(\s|$)/, 'must include "openid"').optional(),
  /**
   * Where events live: `duckdb` (embedded, `$DATA_DIR/events.duckdb`), `clickhouse` (a ClickHouse
   * server at CLICKHOUSE_URL) or `chdb` (ClickHouse embedded through the optional `chdb` package,
   * `$DATA_DIR/chdb`).
   */
  EVENT_STORE: z.enum(['duckdb', 'clickhouse', 'chdb']).default('duckdb'),
  /**
   * With EVENT_STORE=clickhouse: the HTTP interface, `http(s)://user:password@host:8123/database`
   * (TLS with `https://`, usually port 8443).
   */
  CLICKHOUSE_URL: z.string().min(1).optional(),
  /**
   * With EVENT_STORE=clickhouse: a cluster name from the server's configuration; tables become
   * replicated and DDL runs `ON CLUSTER`.
   */
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a cluster name from the ClickHouse configuration (letters, digits, "_", "-", ".")')
    .optional(),
  /** Mail server of email notifiers: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://...:465`. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587')
    .optional(),
  /** Sender of notification mails. */
  SMTP_FROM: z.string().min(3).default('eventdeck <alerts@localhost>'),
  /** Password of the bootstrap admin (admin@localhost) for the console; authoritative like ADMIN_TOKEN. */
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1024 characters').optional(),
  /** The address people reach the server at, for links in invitations and mails (default http(s)://HOST:PORT). */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/]/, 'must be an http:// or https:// URL, e.g. https://eventdeck.example.com')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** A console session unused this long ends (sliding). */
  SESSION_IDLE_TIMEOUT: z.string().regex(/^(\d+(\.\d+)?(ms|s|m|h|d))+$/, 'must be a duration such as 7d, 12h or 30m').default('7d'),
  /** A console session ends this long after sign-in, used or not. */
  SESSION_MAX_AGE: z.string().regex(/^(\d+(\.\d+)?(ms|s|m|h|d))+$/, 'must be a duration such as 30d or 12h').default('30d'),
  /** Failed sign-ins one client address may make per 15 minutes. */
  LOGIN_FAILURES_PER_ADDRESS: positiveInt(10),
  /** Failed sign-ins into one account per 15 minutes (a success resets it). */
  LOGIN_FAILURES_PER_ACCOUNT: positiveInt(5),
  /** `true` refuses notifier targets on loopback, private, link-local and CGNAT addresses. */
  NOTIFIER_DENY_PRIVATE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  /** Monitor queries run at once. */
  MONITOR_CONCURRENCY: positiveInt(2),
  /** PagerDuty Events API v2 endpoint. */
  PAGERDUTY_EVENTS_URL: httpUrl('https://events.pagerduty.com/v2/enqueue'),
  /** Opsgenie API. */
  OPSGENIE_API_URL: httpUrl('https://api.opsgenie.com'),
  /** Opsgenie API for notifiers with `isEU`. */
  OPSGENIE_EU_API_URL: httpUrl('https://api.eu.opsgenie.com'),
  /** Discord API of bot-token notifiers. */
  DISCORD_API_URL: httpUrl('https://discord.com/api/v10'),
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
  /** Absolute path of the DuckDB file holding the metrics (series and points). */
  metricsDuckdbPath: string;
  catalogSource: string;
  /** How often a URL catalog source is re-read, in ms; 0: never. */
  catalogRefreshMs: number;
  adminToken: string | undefined;
  /** Base URL people reach the server at (links in invitations and reset mails). */
  publicUrl: string;
  signIn: SignInConfig;
  maxFieldsPerDataset: number;
  maxQueryRows: number;
  queryTimeoutMs: number;
  /** Largest answer a query may produce (bytes of its values). */
  queryMaxResultBytes: number;
  /** Query statements kept prepared per read connection of the event store (0: none). */
  queryPreparedStatements: number;
  apl: AplLimits;
  /** Deepest nesting of a JSON request body (ingest bodies have their own per-event rule). */
  jsonMaxDepth: number;
  /** Time for a whole request (headers and body) to arrive. */
  httpRequestTimeoutMs: number;
  console: ConsoleConfig;
  ingest: IngestLimits;
  graphql: GraphQLLimits;
  liveTail: LiveTailConfig;
  duckdb: DuckDBSettings;
  /** Organizations one client address may provision a day through POST /v2/orgs/provision (0: none). */
  provisionedOrgsPerDay: number;
  /** The MCP endpoint for AI agents (src/mcp). */
  mcp: McpConfig;
  tls: { cert: string; key: string } | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Single sign-on with OpenID Connect; undefined when OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  monitors: MonitorsConfig;
}

export interface McpConfig {
  /** Tool calls per token and minute (also the burst). */
  toolCallsPerMinute: number;
  /** Browser origins allowed besides the server's own. */
  allowedOrigins: string[];
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Undefined for a public client, which authenticates with PKCE only. */
  clientSecret: string | undefined;
  /** Label of the sign-in button. */
  name: string;
  /** Lower-case email domains allowed to sign in; empty: any. */
  allowedDomains: string[];
  /** Base role of users created at their first sign-in. */
  defaultRole: 'user' | 'read-only' | 'admin' | 'none';
  /** Organization new users join; undefined: the first organization with an owner. */
  orgId: string | undefined;
  scopes: string;
}

export interface SignInConfig {
  /** Authoritative password of the bootstrap admin, if set. */
  adminPassword: string | undefined;
  sessionIdleTimeoutMs: number;
  sessionMaxAgeMs: number;
  loginFailuresPerAddress: number;
  loginFailuresPerAccount: number;
}

export interface MonitorsConfig {
  /** Monitor queries running at once. */
  concurrency: number;
  /** `smtp://` / `smtps://` URL of the mail server for email notifiers. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Refuse notifier targets on loopback, private and link-local addresses. */
  denyPrivateTargets: boolean;
  endpoints: { pagerduty: string; opsgenie: string; opsgenieEu: string; discord: string };
}

/** Where `npm run build:console` writes the web console. */
const DEFAULT_CONSOLE_DIST_DIR = fileURLToPath(new URL('../console/dist', import.meta.url));

export interface ConsoleConfig {
  /** Serve the web console at /app/ (and redirect / there). */
  enabled: boolean;
  /** Absolute path of the built console (index.html and assets/). */
  distDir: string;
}

export interface AplLimits {
  /** Longest APL query text, in bytes. */
  maxQueryBytes: number;
  /** Deepest nesting of parentheses, calls, operators and subqueries. */
  maxNesting: number;
  /** Most tabular operators (pipes) in a query, subqueries and lets included. */
  maxOperators: number;
  /** Largest expression tree after `let` names are replaced by their values. */
  maxExpressionNodes: number;
  /** Longest string a query may compute. */
  maxStringBytes: number;
}

export interface IngestLimits {
  /** Ingest requests processed (parsed and written) at once. */
  concurrency: number;
  /** Bytes of ingest bodies held in memory at once, being read or waiting for their turn. */
  bufferBytes: number;
  /** A body that sends nothing for this long is refused. */
  bodyIdleTimeoutMs: number;
  /** After the first idle-timeout period, a body must have arrived at least this fast on average. */
  bodyMinBytesPerSecond: number;
}

/** The live tail's caps and pace (LIVE_TAIL_*). */
export interface LiveTailConfig {
  maxPerToken: number;
  maxSubscriptions: number;
  queueLimit: number;
  maxEventsPerSecond: number;
  messageIntervalMs: number;
  coalesceMs: number;
  accessCheckMs: number;
}

export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
  maxTokens: number;
  timeoutMs: number;
}

export interface DuckDBSettings {
  /** DUCKDB_MEMORY_LIMIT; undefined: sized by the widest dataset (duckDBMemoryForWidth). */
  memoryLimitBytes: number | undefined;
  tempDirectory: string;
  maxTempDirectoryBytes: number | undefined;
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

/** Reads the `OIDC_*` variables: OIDC_ISSUER turns single sign-on on and needs OIDC_CLIENT_ID; the others need OIDC_ISSUER. */
function oidcFrom(e: z.infer<typeof envSchema>): OidcConfig | undefined {
  const fail = (message: string) => new ConfigError(`Invalid configuration:\n  ${message}`);
  if (!e.OIDC_ISSUER) {
    const stray = (['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME', 'OIDC_ALLOWED_DOMAINS', 'OIDC_DEFAULT_ROLE', 'OIDC_ORG_ID', 'OIDC_SCOPES'] as const).find(
      (variable) => e[variable] !== undefined,
    );
    if (stray) throw fail(`${stray}: only used with OIDC_ISSUER (set the provider's issuer URL to enable single sign-on)`);
    return undefined;
  }
  if (!URL.canParse(e.OIDC_ISSUER)) throw fail('OIDC_ISSUER: not a valid URL');
  if (!e.OIDC_CLIENT_ID) throw fail('OIDC_CLIENT_ID: required with OIDC_ISSUER (the client id registered at the provider)');
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_NAME ?? 'Single sign-on',
    allowedDomains: (e.OIDC_ALLOWED_DOMAINS ?? '').split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean),
    defaultRole: e.OIDC_DEFAULT_ROLE ?? 'user',
    orgId: e.OIDC_ORG_ID,
    scopes: (e.OIDC_SCOPES ?? 'openid email profile').trim().split(/\s+/).join(' '),
  };
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
  const duckdbPath = path.join(dataDir, 'events.duckdb');
  const minimumMemory = minimumDuckDBMemory(e.MAX_FIELDS_PER_DATASET);
  const memoryLimitBytes = e.DUCKDB_MEMORY_LIMIT;
  if (memoryLimitBytes !== undefined && memoryLimitBytes < minimumMemory) {
    throw new ConfigError(
      `Invalid configuration:\n  DUCKDB_MEMORY_LIMIT: must be at least ${Math.ceil(minimumMemory / 2 ** 20)} MiB with MAX_FIELDS_PER_DATASET=${e.MAX_FIELDS_PER_DATASET} ` +
        '(a checkpoint of a dataset at the field limit needs that much)',
    );
  }
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
    database: databaseFrom(e.DATABASE_URL, dataDir, e.DATABASE_POOL_SIZE),
    duckdbPath,
    eventStore: eventStoreFrom(e, dataDir, duckdbPath),
    metricsDuckdbPath: path.join(dataDir, 'metrics.duckdb'),
    catalogSource: e.MODEL_CATALOG_SOURCE,
    catalogRefreshMs: durationMs(e.MODEL_CATALOG_REFRESH),
    adminToken: e.ADMIN_TOKEN,
    publicUrl: e.PUBLIC_URL ?? `${e.TLS_CERT ? 'https' : 'http'}://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`,
    signIn: {
      adminPassword: e.ADMIN_PASSWORD,
      sessionIdleTimeoutMs: durationMs(e.SESSION_IDLE_TIMEOUT),
      sessionMaxAgeMs: durationMs(e.SESSION_MAX_AGE),
      loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS,
      loginFailuresPerAccount: e.LOGIN_FAILURES_PER_ACCOUNT,
    },
    maxFieldsPerDataset: e.MAX_FIELDS_PER_DATASET,
    maxQueryRows: e.MAX_QUERY_ROWS,
    queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    queryMaxResultBytes: e.QUERY_MAX_RESULT_BYTES,
    queryPreparedStatements: e.QUERY_PREPARED_STATEMENTS,
    apl: {
      maxQueryBytes: e.APL_MAX_QUERY_BYTES,
      maxNesting: e.APL_MAX_NESTING,
      maxOperators: e.APL_MAX_OPERATORS,
      maxExpressionNodes: e.APL_MAX_EXPRESSION_NODES,
      maxStringBytes: e.APL_MAX_STRING_BYTES,
    },
    jsonMaxDepth: e.JSON_MAX_DEPTH,
    httpRequestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    console: {
      enabled: e.CONSOLE_ENABLED === 'true',
      distDir: e.CONSOLE_DIST_DIR ? path.resolve(e.CONSOLE_DIST_DIR) : DEFAULT_CONSOLE_DIST_DIR,
    },
    ingest: {
      concurrency: e.INGEST_CONCURRENCY,
      bufferBytes: e.INGEST_BUFFER_BYTES,
      bodyIdleTimeoutMs: e.INGEST_BODY_IDLE_TIMEOUT_MS,
      bodyMinBytesPerSecond: e.INGEST_BODY_MIN_BYTES_PER_SECOND,
    },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxCost: e.GRAPHQL_MAX_COST,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      timeoutMs: e.GRAPHQL_TIMEOUT_MS,
    },
    liveTail: {
      maxPerToken: e.LIVE_TAIL_MAX_PER_TOKEN,
      maxSubscriptions: e.LIVE_TAIL_MAX_SUBSCRIPTIONS,
      queueLimit: e.LIVE_TAIL_QUEUE_EVENTS,
      maxEventsPerSecond: e.LIVE_TAIL_MAX_EVENTS_PER_SECOND,
      messageIntervalMs: e.LIVE_TAIL_MESSAGE_INTERVAL_MS,
      coalesceMs: e.LIVE_TAIL_COALESCE_MS,
      accessCheckMs: e.LIVE_TAIL_ACCESS_CHECK_MS,
    },
    duckdb: {
      memoryLimitBytes,
      tempDirectory: e.DUCKDB_TEMP_DIRECTORY ? path.resolve(e.DUCKDB_TEMP_DIRECTORY) : `${duckdbPath}.tmp`,
      maxTempDirectoryBytes: e.DUCKDB_MAX_TEMP_DIRECTORY_SIZE,
    },
    provisionedOrgsPerDay: e.PROVISIONED_ORGS_PER_DAY,
    mcp: {
      toolCallsPerMinute: e.MCP_TOOL_CALLS_PER_MINUTE,
      allowedOrigins: (e.MCP_ALLOWED_ORIGINS ?? '').split(',').map((origin) => origin.trim().replace(/\/+$/, '')).filter(Boolean),
    },
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    logLevel: e.LOG_LEVEL,
    oidc: oidcFrom(e),
    monitors: {
      concurrency: e.MONITOR_CONCURRENCY,
      smtpUrl: e.SMTP_URL,
      smtpFrom: e.SMTP_FROM,
      denyPrivateTargets: e.NOTIFIER_DENY_PRIVATE === 'true',
      endpoints: {
        pagerduty: e.PAGERDUTY_EVENTS_URL,
        opsgenie: e.OPSGENIE_API_URL,
        opsgenieEu: e.OPSGENIE_EU_API_URL,
        discord: e.DISCORD_API_URL,
      },
    },
  };
}
