// A small pool of DuckDB connections: each borrower has one to itself (a connection runs one
// statement and holds one transaction at a time); more are opened on demand up to a maximum.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: ((connection: DuckDBConnection) => void)[] = [];
  private opened = 0;
  private closed = false;

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly max: number,
  ) {}

  async acquire(): Promise<DuckDBConnection> {
    if (this.closed) throw new Error('the event store is closed');
    const connection = this.idle.pop();
    if (connection) return connection;
    if (this.opened < this.max) {
      this.opened++;
      try {
        return await this.instance.connect();
      } catch (error) {
        this.opened--;
        throw error;
      }
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(connection: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(connection);
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

  /** Closes the idle connections; call once every borrower has returned its own. */
  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.closeSync();
  }
}
