// Opens the relational store in PostgreSQL: one `pg` pool shared by the Prisma client (through
// @prisma/adapter-pg) and the repository. Migrations run under an advisory lock, so instances
// starting together apply each once; `exclusive` takes the same kind of lock for its task.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaClient as PostgresPrismaClient } from '../generated/prisma-postgres/client';
import { Leases } from './lease';
import { applyPostgresMigrations } from './migrate-postgres';
import { PostgresExecutor } from './postgres-executor';
import { Repository } from './repository';
import type { RelationalStore } from './store';

/** First key of every advisory lock taken here, so they do not collide with other software's. */
const LOCK_NAMESPACE = 0x65766463; // "evdc"

async function withAdvisoryLock<T>(pool: pg.Pool, name: string, task: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_NAMESPACE, name]);
    try {
      return await task(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_NAMESPACE, name]).catch((error: Error) => {
        broken = error;
      });
    }
  } finally {
    // A connection that could not unlock may still hold the lock: close it rather than reuse it.
    client.release(broken);
  }
}

export async function openPostgresStore(url: string, poolSize = 10): Promise<RelationalStore> {
  // A connection that cannot be had within 30 s is an error to report, not a request to hang.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'eventdeck', connectionTimeoutMillis: 30_000 });
  // An idle connection that breaks (server restart, network) must not take the process down;
  // the pool replaces it and the next query reports any lasting problem.
  pool.on('error', () => {});
  try {
    await withAdvisoryLock(pool, 'migrations', (client) => applyPostgresMigrations(client));
  } catch (error) {
    await pool.end();
    throw error;
  }
  const prisma = new PostgresPrismaClient({ adapter: new PrismaPg(pool) }) as unknown as PrismaClient;
  await prisma.$connect();
  const repository = new Repository(new PostgresExecutor(pool));
  const leases = new Leases(repository.leases);
  return {
    provider: 'postgresql',
    shared: true,
    prisma,
    repository,
    leases,
    exclusive: (name, task) => withAdvisoryLock(pool, name, () => task()),
    async close() {
      await leases.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
