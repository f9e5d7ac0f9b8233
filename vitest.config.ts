import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { postgresAvailable } from './test/helpers/postgres.ts';

// Which stores a test file runs against is chosen by the folder it lives in (see CONTRIBUTING.md):
//   test/unit/        once, no server or a store of its own
//   test/server/      once, a server on the default stores (DuckDB events, SQLite)
//   test/engines/     on both event stores: DuckDB, and ClickHouse embedded (chdb)
//   test/relational/  on both relational stores: SQLite, and PostgreSQL
//   test/scale-out/   what several instances share: on both of each, and chdb with PostgreSQL together
//   test/postgres/, test/clickhouse/   one store's own suites
// A new file gets its matrix from where it is put; nothing else lists test files.
const ONCE = ['test/unit/**/*.test.ts', 'test/server/**/*.test.ts'];
const ENGINES = 'test/engines/**/*.test.ts';
const RELATIONAL = 'test/relational/**/*.test.ts';
const SCALE_OUT = 'test/scale-out/**/*.test.ts';

/** True when the optional chdb package is installed (CI installs it; elsewhere it may be absent). */
function chdbAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('chdb');
    return true;
  } catch {
    if (process.env.CI) throw new Error('the chdb test projects need the optional package chdb (npm ci installs it)');
    console.warn('chdb is not installed: the chdb test projects are skipped (npm install chdb)');
    return false;
  }
}

const withPostgres = { env: { TEST_DATABASE: 'postgres' }, globalSetup: ['test/helpers/postgres-setup.ts'] };
const withChdb = { TEST_EVENT_STORE: 'chdb' };

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS entry for every package; make Vite do the same so there is
    // only one copy of graphql in a test process (two copies break `instanceof` checks).
    alias: { graphql: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) },
  },
  test: {
    // Native addons (DuckDB, better-sqlite3) are happiest in child processes, not worker threads.
    pool: 'forks',
    // A worker keeps its modules from one file to the next instead of importing the server again
    // for every file (most of a file's cost); tests share no state but what they start themselves.
    isolate: false,
    // Most test time is spent waiting on servers, stores and browsers, not computing: more files
    // in flight than cores keeps both cores busy (vitest's default is one fewer than the cores).
    maxWorkers: Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism() + 1)),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: [...ONCE, ENGINES, RELATIONAL, SCALE_OUT] } },
      ...(chdbAvailable()
        ? [{ extends: true as const, test: { name: 'chdb', include: [ENGINES, SCALE_OUT, 'test/clickhouse/**/*.test.ts'], exclude: ['test/clickhouse/instances.test.ts'], env: withChdb } }]
        : []),
      // Skipped with a message when PostgreSQL is not installed (an error in CI).
      ...(postgresAvailable()
        ? [
            { extends: true as const, test: { name: 'postgres', include: [RELATIONAL, SCALE_OUT, 'test/postgres/**/*.test.ts'], ...withPostgres } },
            ...(chdbAvailable()
              ? [
                  {
                    extends: true as const,
                    // Two instances over one ClickHouse need a shared PostgreSQL: that test runs here.
                    test: { name: 'chdb-postgres', include: [SCALE_OUT, 'test/clickhouse/instances.test.ts'], ...withPostgres, env: { ...withChdb, ...withPostgres.env } },
                  },
                ]
              : []),
          ]
        : []),
    ],
  },
});
