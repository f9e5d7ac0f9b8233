import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CATALOG_SOURCE, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: path.resolve('./data'),
      database: { provider: 'sqlite', path: path.resolve('./data/eventdeck.db') },
      duckdbPath: path.resolve('./data/events.duckdb'),
      metricsDuckdbPath: path.resolve('./data/metrics.duckdb'),
      catalogSource: DEFAULT_CATALOG_SOURCE,
      adminToken: undefined,
      tls: undefined,
    });
  });

  it('reads DATABASE_URL as a Prisma-style file URL or a plain path', () => {
    expect(loadConfig({ DATABASE_URL: 'file:./x/app.db' }).database).toEqual({ provider: 'sqlite', path: path.resolve('x/app.db') });
    expect(loadConfig({ DATABASE_URL: '/tmp/y.db' }).database).toEqual({ provider: 'sqlite', path: '/tmp/y.db' });
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(/DATABASE_URL: use a SQLite file location or a postgres:\/\/ URL/);
  });

  it('selects PostgreSQL for postgres:// and postgresql:// URLs, with a pool size', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://app:secret@db.internal:5432/eventdeck?sslmode=require' }).database).toEqual({
      provider: 'postgresql',
      url: 'postgres://app:secret@db.internal:5432/eventdeck?sslmode=require',
      poolSize: 10,
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/db', DATABASE_POOL_SIZE: '25' }).database).toMatchObject({
      provider: 'postgresql',
      poolSize: 25,
    });
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://localhost/db', DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE: must be at least 2/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://[bad' })).toThrow(/not a valid PostgreSQL URL/);
  });

  it('selects the event store with EVENT_STORE, CLICKHOUSE_URL and CLICKHOUSE_CLUSTER', () => {
    expect(loadConfig({}).eventStore).toEqual({ engine: 'duckdb', path: path.resolve('./data/events.duckdb') });
    expect(loadConfig({ EVENT_STORE: 'chdb', DATA_DIR: '/srv/ed' }).eventStore).toEqual({ engine: 'chdb', path: '/srv/ed/chdb' });
    expect(loadConfig({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: 'https://u:p@ch.internal:8443/events' }).eventStore).toEqual({
      engine: 'clickhouse',
      url: 'https://u:p@ch.internal:8443/events',
      cluster: undefined,
    });
    expect(loadConfig({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_CLUSTER: 'main' }).eventStore).toMatchObject({ cluster: 'main' });
    expect(() => loadConfig({ EVENT_STORE: 'clickhouse' })).toThrow(/CLICKHOUSE_URL: required with EVENT_STORE=clickhouse/);
    expect(() => loadConfig({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: 'tcp://ch:9000' })).toThrow(/must be an http:\/\/ or https:\/\/ URL/);
    expect(() => loadConfig({ CLICKHOUSE_URL: 'http://ch:8123' })).toThrow(/CLICKHOUSE_URL: only used with EVENT_STORE=clickhouse/);
    expect(() => loadConfig({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: 'http://ch:8123', CLICKHOUSE_CLUSTER: 'a b' })).toThrow(/CLICKHOUSE_CLUSTER/);
    expect(() => loadConfig({ EVENT_STORE: 'mysql' })).toThrow(/EVENT_STORE/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '' })).toMatchObject({ port: 8080, host: '127.0.0.1' });
  });

  it('rejects invalid values with a message naming each variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', MAX_QUERY_ROWS: '-5', ADMIN_TOKEN: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT:/);
    expect(message).toMatch(/MAX_QUERY_ROWS: must be greater than 0/);
    expect(message).toMatch(/ADMIN_TOKEN: must be at least 12/);
  });

  it('reads the monitor and notifier settings', () => {
    expect(loadConfig({}).monitors).toEqual({
      concurrency: 2,
      smtpUrl: undefined,
      smtpFrom: 'eventdeck <alerts@localhost>',
      denyPrivateTargets: false,
      endpoints: {
        pagerduty: 'https://events.pagerduty.com/v2/enqueue',
        opsgenie: 'https://api.opsgenie.com',
        opsgenieEu: 'https://api.eu.opsgenie.com',
        discord: 'https://discord.com/api/v10',
      },
    });
    const custom = loadConfig({ MONITOR_CONCURRENCY: '4', SMTP_URL: 'smtps://u:p@mail.example.com:465', NOTIFIER_DENY_PRIVATE: 'true', DISCORD_API_URL: 'http://127.0.0.1:9/api/' });
    expect(custom.monitors).toMatchObject({ concurrency: 4, smtpUrl: 'smtps://u:p@mail.example.com:465', denyPrivateTargets: true, endpoints: { discord: 'http://127.0.0.1:9/api' } });
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ NOTIFIER_DENY_PRIVATE: 'yes' })).toThrow(/NOTIFIER_DENY_PRIVATE: must be true or false/);
    expect(() => loadConfig({ MONITOR_CONCURRENCY: '0' })).toThrow(/MONITOR_CONCURRENCY: must be greater than 0/);
  });

  it('requires TLS_CERT and TLS_KEY together', () => {
    expect(() => loadConfig({ TLS_CERT: '/c.pem' })).toThrow(/TLS_CERT and TLS_KEY must be set together/);
  });

  it('sizes DuckDB memory by the widest dataset unless told, and refuses a fixed limit below the field limit', () => {
    const defaults = loadConfig({});
    expect(defaults.graphql).toEqual({ maxDepth: 15, maxCost: 200_000, maxTokens: 5000, timeoutMs: 30_000 });
    expect(defaults.duckdb).toEqual({ memoryLimitBytes: undefined, tempDirectory: path.resolve('./data/events.duckdb.tmp'), maxTempDirectoryBytes: undefined });
    expect(loadConfig({ DUCKDB_MEMORY_LIMIT: '2GiB', DUCKDB_MAX_TEMP_DIRECTORY_SIZE: '10GB' }).duckdb).toMatchObject({
      memoryLimitBytes: 2 * 2 ** 30,
      maxTempDirectoryBytes: 10e9,
    });
    // 4 × 1,024 fields × 256 KiB + 128 MiB = 1,152 MiB.
    expect(loadConfig({ DUCKDB_MEMORY_LIMIT: '1152MiB' }).duckdb.memoryLimitBytes).toBe(1152 * 2 ** 20);
    expect(() => loadConfig({ DUCKDB_MEMORY_LIMIT: '1GiB' })).toThrow(/DUCKDB_MEMORY_LIMIT: must be at least 1152 MiB with MAX_FIELDS_PER_DATASET=1024/);
    expect(loadConfig({ DUCKDB_MEMORY_LIMIT: '256MiB', MAX_FIELDS_PER_DATASET: '100' }).duckdb.memoryLimitBytes).toBe(256 * 2 ** 20);
    expect(() => loadConfig({ DUCKDB_MEMORY_LIMIT: 'plenty' })).toThrow(/DUCKDB_MEMORY_LIMIT: must be a size/);
  });

  it('reads the request limits and bounds those the stack depends on', () => {
    const config = loadConfig({ APL_MAX_NESTING: '32', INGEST_BUFFER_BYTES: '64MiB', GRAPHQL_MAX_COST: '1000' });
    expect(config.apl.maxNesting).toBe(32);
    expect(config.ingest.bufferBytes).toBe(64 * 2 ** 20);
    expect(config.graphql.maxCost).toBe(1000);
    expect(() => loadConfig({ APL_MAX_NESTING: '10000' })).toThrow(/APL_MAX_NESTING: must be at most 256/);
    expect(() => loadConfig({ JSON_MAX_DEPTH: '0' })).toThrow(/JSON_MAX_DEPTH: must be greater than 0/);
  });
});
