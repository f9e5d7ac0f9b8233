// Applies prisma/migrations/*/migration.sql to SQLite in order, each in its own transaction,
// recording them in Prisma's own `_prisma_migrations` table so the history stays readable by
// Prisma tools. PostgreSQL has the twins of these migrations (same folder names) in
// prisma/postgres/migrations, applied by migrate-postgres.ts.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
export const POSTGRES_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/postgres/migrations', import.meta.url));

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** Refuses a migration whose text changed after it was applied. */
export function requireUnchanged(migration: Migration, appliedChecksum: string): void {
  if (appliedChecksum !== migration.checksum) {
    throw new Error(`migration ${migration.name} was changed after it was applied; add a new migration instead`);
  }
}

/** Returns the names of the migrations applied by this call. */
export function applyMigrations(db: Database.Database, migrations = readMigrations()): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL,
    "checksum" TEXT NOT NULL,
    "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL,
    "logs" TEXT,
    "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`);
  const applied = new Map(
    (
      db.prepare('SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL').all() as {
        migration_name: string;
        checksum: string;
      }[]
    ).map((row) => [row.migration_name, row.checksum]),
  );
  const record = db.prepare(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
     VALUES (?, ?, ?, ?, ?, 1)`,
  );
  const newlyApplied: string[] = [];
  for (const migration of migrations) {
    const previous = applied.get(migration.name);
    if (previous !== undefined) {
      requireUnchanged(migration, previous);
      continue;
    }
    const startedAt = new Date().toISOString();
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt);
    })();
    newlyApplied.push(migration.name);
  }
  return newlyApplied;
}
