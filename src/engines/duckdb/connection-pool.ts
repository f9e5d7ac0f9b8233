// A small pool of DuckDB connections: each borrower has one to itself (a connection runs one
// statement and holds one transaction at a time); more are opened on demand up to a maximum.
// The pool knows which connections are lent, so the store can interrupt them and wait for
// their return before it closes the database (see DuckDBDatabase's recovery).
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: { resolve: (connection: DuckDBConnection) => void; reject: (error: Error) => void }[] = [];
  private readonly lent = new Set<DuckDBConnection>();
  private drained: (() => void)[] = [];
  private opened = 0;
  private closed = false;

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly max: number,
  ) {}

  async acquire(): Promise<DuckDBConnection> {
    if (this.closed) throw new Error('the event store is closed');
    let connection = this.idle.pop();
    if (!connection && this.opened < this.max) {
      this.opened++;
      try {
        connection = await this.instance.connect();
      } catch (error) {
        this.opened--;
        throw error;
      }
    }
    if (!connection) connection = await new Promise<DuckDBConnection>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.lent.add(connection);
    return connection;
  }

  release(connection: DuckDBConnection): void {
    this.lent.delete(connection);
    if (this.closed) {
      connection.closeSync();
      if (this.lent.size === 0) for (const resolve of this.drained.splice(0)) resolve();
      return;
    }
    const next = this.waiting.shift();
    if (next) next.resolve(connection);
    else this.idle.push(connection);
  }

  async use<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      return await task(connection);
    } finally {
      this.release(connection);
    }
  }

  /** Interrupts the statement running on every lent connection. */
  interruptAll(): void {
    for (const connection of this.lent) connection.interrupt();
  }

  /**
   * Closes the idle connections and refuses new borrowers; lent connections are closed as they
   * come back. Resolves once all of them have.
   */
  close(): Promise<void> {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.closeSync();
    for (const waiter of this.waiting.splice(0)) waiter.reject(new Error('the event store is closed'));
    if (this.lent.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }
}
