// The relational store, whichever database holds it: SQLite (one file, the default) or
// PostgreSQL (shared by several server instances). It offers
// - `prisma`: management CRUD, the same code on both providers. Its type is the SQLite client's;
//   at run time it is the client generated for the configured provider from the same models,
//   so use what both providers support (no `mode: 'insensitive'`, no native database types).
// - `repository`: the hot-path reads and writes (src/db/repository), microseconds on SQLite.
// - `exclusive`: a deployment-wide lock for short start-up steps (first-start bootstrap, the
//   first catalog import), so instances starting together do them once.
// Background work that must run once per deployment takes a lease instead (src/db/lease.ts).
import type Database from 'better-sqlite3';
import type { PrismaClient } from '../generated/prisma/client';
import { Leases } from './lease';
import type { Repository } from './repository';
import { openSqliteStore } from './sqlite';

export type { PrismaClient };

export type DatabaseProvider = 'sqlite' | 'postgresql';

export type DatabaseLocation =
  | { provider: 'sqlite'; path: string }
  | { provider: 'postgresql'; url: string; poolSize?: number };

export interface RelationalStore {
  readonly provider: DatabaseProvider;
  /** True when other server instances may use the same store at the same time (PostgreSQL). */
  readonly shared: boolean;
  prisma: PrismaClient;
  repository: Repository;
  /** Leases for background work that runs once per deployment (src/db/lease.ts). */
  leases: Leases;
  /** Runs `task` while holding the deployment-wide lock `name`, waiting for it if needed. */
  exclusive<T>(name: string, task: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The SQLite store also hands out its connection, for tools and tests that inspect the file. */
export interface SqliteRelationalStore extends RelationalStore {
  readonly provider: 'sqlite';
  sqlite: Database.Database;
}

/** The location for messages: the SQLite path, or the PostgreSQL URL without its password. */
export function describeDatabase(location: DatabaseLocation): string {
  if (location.provider === 'sqlite') return location.path;
  const url = new URL(location.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/** Opens the store and brings its schema up to date; a string is a SQLite file path. */
export function openRelationalStore(location: string | { provider: 'sqlite'; path: string }): Promise<SqliteRelationalStore>;
export function openRelationalStore(location: DatabaseLocation | string): Promise<RelationalStore>;
export function openRelationalStore(location: DatabaseLocation | string): Promise<RelationalStore> {
  if (typeof location === 'string') return openSqliteStore(location);
  if (location.provider === 'sqlite') return openSqliteStore(location.path);
  // PostgreSQL's driver is loaded only where the store is PostgreSQL.
  return import('./postgres').then(({ openPostgresStore }) => openPostgresStore(location.url, location.poolSize));
}

export { Leases };
