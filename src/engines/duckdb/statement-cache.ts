// Prepared statements kept per read connection, so that a statement the query engine runs again
// (a dashboard refreshing the same window, a client polling the same question) skips DuckDB's
// parse, bind and optimize steps, which cost more than running a small query. Only plans are
// kept, never results: every run reads the tables as they are, and DuckDB binds a statement
// again by itself when a table it reads has changed.
//
// A statement is prepared only from its second sighting on (a one-off query runs directly, with
// no extra round trip), and the number of statements per connection and the length of the text
// are bounded, so memory stays small whatever clients send.
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';

/** Longest statement text worth keeping (longer ones run directly each time). */
const MAX_SQL_CHARS = 16_384;

export class StatementCache {
  /** Statement texts seen recently, oldest first: the second sighting prepares. */
  private readonly seen = new Set<string>();
  private readonly byConnection = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

  /** @param perConnection statements kept per connection (0 disables the cache). */
  constructor(private readonly perConnection: number) {}

  /**
   * The prepared statement for `sql` on this connection, preparing it when the text has been
   * seen before; undefined when the statement should simply run.
   */
  async statementFor(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement | undefined> {
    if (this.perConnection <= 0 || sql.length > MAX_SQL_CHARS) return undefined;
    let statements = this.byConnection.get(connection);
    const cached = statements?.get(sql);
    if (cached) {
      // Most recently used last, so eviction takes the least recently used.
      statements!.delete(sql);
      statements!.set(sql, cached);
      return cached;
    }
    if (!this.seen.has(sql)) {
      this.seen.add(sql);
      // The texts remembered are bounded like the statements (a few per connection).
      if (this.seen.size > this.perConnection * 4) this.seen.delete(this.seen.values().next().value!);
      return undefined;
    }
    const prepared = await connection.prepare(sql);
    if (!statements) {
      statements = new Map();
      this.byConnection.set(connection, statements);
    }
    statements.set(sql, prepared);
    if (statements.size > this.perConnection) {
      const [oldestSql, oldest] = statements.entries().next().value!;
      statements.delete(oldestSql);
      oldest.destroySync();
    }
    return prepared;
  }

  /** Forgets a statement that failed, so the next run prepares it afresh. */
  forget(connection: DuckDBConnection, sql: string): void {
    const statements = this.byConnection.get(connection);
    const prepared = statements?.get(sql);
    if (!prepared) return;
    statements!.delete(sql);
    prepared.destroySync();
  }
}
