// Writes to SQLite files made by this process, counted: the SQLite executor answers a repeated
// read from memory only while nothing was written (see sqlite-executor.ts). Every writer of the
// process counts here: each executor, and Prisma's connection through notingPrismaWrites. Writes
// by other processes are what `PRAGMA data_version` is asked about.

let writes = 0;

/** Writes noted so far by every writer of this process. */
export function sqliteWrites(): number {
  return writes;
}

/** Notes a write (a statement that changed or may have changed a database), once it is done. */
export function noteSqliteWrite(): void {
  writes++;
}

/** SQL of Prisma's reads; anything else it sends (INSERT ... RETURNING included) is a write. */
const READ = /^\s*SELECT\b/i;

/** Operations of Prisma's driver adapter and its transactions that change the database. */
const WRITING = new Set<PropertyKey>(['executeRaw', 'executeScript', 'commit', 'rollback']);

/**
 * A Prisma driver adapter (its factory, the adapter it connects, the transactions it starts)
 * whose writes are noted as they complete.
 */
export function notingPrismaWrites<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'connect' || property === 'connectToShadowDb' || property === 'startTransaction') {
        return async (...args: unknown[]) => notingPrismaWrites((await method.apply(object, args)) as object);
      }
      if (WRITING.has(property)) {
        return async (...args: unknown[]) => {
          try {
            return await method.apply(object, args);
          } finally {
            noteSqliteWrite();
          }
        };
      }
      if (property === 'queryRaw') {
        return async (query: { sql: string }) => {
          try {
            return await method.call(object, query);
          } finally {
            if (!READ.test(query.sql)) noteSqliteWrite();
          }
        };
      }
      return method.bind(object);
    },
  });
}
