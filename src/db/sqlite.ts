// Opens the relational store in SQLite: one better-sqlite3 connection for migrations and the
// repository's prepared statements, and the Prisma client (through the better-sqlite3 driver
// adapter) for everything else. One process owns the file, so `exclusive` is an in-process lock.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { PrismaClient } from '../generated/prisma/client';
import { Leases } from './lease';
import { applyMigrations } from './migrate';
import { Repository } from './repository';
import { SqliteExecutor } from './sqlite-executor';
import { notingPrismaWrites } from './sqlite-writes';
import type { SqliteRelationalStore } from './store';

export async function openSqliteStore(sqlitePath: string): Promise<SqliteRelationalStore> {
  mkdirSync(path.dirname(sqlitePath), { recursive: true });
  const sqlite = new Database(sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  applyMigrations(sqlite);
  // Prisma's writes are noted for the executor's remembered reads (see sqlite-writes.ts).
  const prisma = new PrismaClient({ adapter: notingPrismaWrites(new PrismaBetterSqlite3({ url: sqlitePath, timeout: 5000 })) });
  await prisma.$connect();
  const repository = new Repository(new SqliteExecutor(sqlite));
  const locks = new Map<string, Promise<unknown>>();
  const leases = new Leases(repository.leases);
  return {
    provider: 'sqlite',
    shared: false,
    prisma,
    sqlite,
    repository,
    leases,
    exclusive(name, task) {
      const previous = locks.get(name) ?? Promise.resolve();
      const run = previous.catch(() => {}).then(task);
      locks.set(name, run);
      return run;
    },
    async close() {
      await leases.close();
      await prisma.$disconnect();
      sqlite.close();
    },
  };
}
