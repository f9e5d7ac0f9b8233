// Applies prisma/postgres/migrations/*/migration.sql to PostgreSQL in order, each in its own
// transaction (PostgreSQL's DDL is transactional), recorded in `_prisma_migrations` with the
// table shape Prisma itself uses there. The caller holds the deployment-wide lock, so instances
// starting together apply each migration once.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type Migration, POSTGRES_MIGRATIONS_DIR, readMigrations, requireUnchanged } from './migrate';

/** Returns the names of the migrations applied by this call. */
export async function applyPostgresMigrations(
  client: pg.ClientBase,
  migrations: Migration[] = readMigrations(POSTGRES_MIGRATIONS_DIR),
): Promise<string[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const { rows } = await client.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL',
  );
  const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
  const newlyApplied: string[] = [];
  for (const migration of migrations) {
    const previous = applied.get(migration.name);
    if (previous !== undefined) {
      requireUnchanged(migration, previous);
      continue;
    }
    const startedAt = new Date();
    await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, $4, 1)`,
        [randomUUID(), migration.checksum, migration.name, startedAt],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
    }
    newlyApplied.push(migration.name);
  }
  return newlyApplied;
}
