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
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/postgres/**'] },
      },
      // Skipped with a message when PostgreSQL is not installed (an error in CI).
      ...(postgresAvailable()
        ? [
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
