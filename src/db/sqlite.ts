// Opens the relational store: one better-sqlite3 connection for migrations and hot-path reads,
// and the Prisma client (through the better-sqlite3 driver adapter) for everything else.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { PrismaClient } from '../generated/prisma/client';
import { applyMigrations } from './migrate';

export type { PrismaClient };

export interface RelationalStore {
  prisma: PrismaClient;
  /** Direct handle for the few reads that must not pay Prisma's per-query cost. */
  sqlite: Database.Database;
  close(): Promise<void>;
}

export async function openRelationalStore(sqlitePath: string): Promise<RelationalStore> {
  mkdirSync(path.dirname(sqlitePath), { recursive: true });
  const sqlite = new Database(sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  applyMigrations(sqlite);
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqlitePath, timeout: 5000 }) });
  await prisma.$connect();
  return {
    prisma,
    sqlite,
    async close() {
      await prisma.$disconnect();
      sqlite.close();
    },
  };
}
