import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { postgresAvailable } from './test/helpers/postgres.ts';

// Suites that run a second time with PostgreSQL as the relational store (a fresh database per
// test server, see test/helpers/server.ts), beside the PostgreSQL-only tests in test/postgres.
// POSTGRES_TEST_SUITES (comma-separated globs) runs others there too, e.g.
// POSTGRES_TEST_SUITES='test/queries/*.test.ts' npx vitest run --project postgres
const POSTGRES_SUITES = process.env.POSTGRES_TEST_SUITES?.split(',') ?? [
  'test/auth/identity.test.ts',
  'test/auth/tokens.test.ts',
  'test/auth/graphql.test.ts',
  'test/identity/*.test.ts',
  'test/shared-objects/*.test.ts',
  'test/datasets/*.test.ts',
  'test/db/*.test.ts',
  'test/monitors/api.test.ts',
  'test/monitors/threshold.test.ts',
  'test/monitors/instances.test.ts',
];

// Suites that run a second time with events in ClickHouse embedded (chdb, EVENT_STORE=chdb and
// the ClickHouse dialect): the APL conformance tables, the engine's injection and pagination
// suites, and every suite that ingests or queries through the API (the shippers' doors included)
// or fuzzes it, monitors evaluating over it, LLM costs priced from the model catalog, and the
// metrics suites (the metrics store lives in the same ClickHouse, queried through the ClickHouse
// dialect of MPL). CHDB_TEST_SUITES (comma-separated globs) replaces the list.
const CHDB_SUITES = process.env.CHDB_TEST_SUITES?.split(',') ?? [
  'test/clickhouse/**/*.test.ts',
  'test/apl/conformance*.test.ts',
  'test/apl/legacy.test.ts',
  'test/apl/robustness.test.ts',
  'test/apl/timeout.test.ts',
  'test/apl/injection.test.ts',
  'test/apl/pagination.test.ts',
  'test/events/http-ingest.test.ts',
  'test/events/sdk.test.ts',
  'test/events/live-tail.test.ts',
  'test/queries/*.test.ts',
  'test/datasets/*.test.ts',
  'test/shippers/{edge-query,elastic,hec,heroku,loki,otlp,zstd-ingest}.test.ts',
  'test/fuzz.test.ts',
  'test/monitors/{threshold,match}.test.ts',
  'test/genai/*.test.ts',
  'test/metrics/*.test.ts',
];

// Suites that run a third time with both: events in chdb and the relational store in PostgreSQL,
// the configuration several instances share (the API's datasets, ingest, queries and monitors),
// and two instances sharing both.
const CHDB_POSTGRES_SUITES = process.env.CHDB_POSTGRES_TEST_SUITES?.split(',') ?? [
  'test/datasets/*.test.ts',
  'test/events/http-ingest.test.ts',
  'test/queries/*.test.ts',
  'test/monitors/threshold.test.ts',
  'test/clickhouse/instances.test.ts',
];

/** True when the optional chdb package is installed (CI installs it; elsewhere it may be absent). */
function chdbAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('chdb');
    return true;
  } catch {
    if (process.env.CI) throw new Error('the chdb test project needs the optional package chdb (npm ci installs it)');
    console.warn('chdb is not installed: the chdb test project is skipped (npm install chdb)');
    return false;
  }
}

// Two instances over one ClickHouse need a shared PostgreSQL: that test runs in chdb-postgres.
const CHDB_EXCLUDED = ['test/clickhouse/instances.test.ts'];

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS entry for every package; make Vite do the same so there is
    // only one copy of graphql in a test process (two copies break `instanceof` checks).
    alias: { graphql: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) },
  },
  test: {
    // Native addons (DuckDB, better-sqlite3) are happiest in child processes, not worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/postgres/**', 'test/clickhouse/**'] },
      },
      ...(chdbAvailable()
        ? [{ extends: true as const, test: { name: 'chdb', include: CHDB_SUITES, exclude: CHDB_EXCLUDED, env: { TEST_EVENT_STORE: 'chdb' } } }]
        : []),
      // Skipped with a message when PostgreSQL is not installed (an error in CI).
      ...(postgresAvailable()
        ? [
            // The scale-out configuration whole: events in ClickHouse (chdb), the rest in PostgreSQL.
            ...(chdbAvailable()
              ? [
                  {
                    extends: true as const,
                    test: {
                      name: 'chdb-postgres',
                      include: CHDB_POSTGRES_SUITES,
                      env: { TEST_EVENT_STORE: 'chdb', TEST_DATABASE: 'postgres' },
                      globalSetup: ['test/helpers/postgres-setup.ts'],
                    },
                  },
                ]
              : []),
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/postgres/**/*.test.ts', ...POSTGRES_SUITES],
                env: { TEST_DATABASE: 'postgres' },
                globalSetup: ['test/helpers/postgres-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
