// SqlExecutor over one better-sqlite3 connection. Statements are prepared once and kept, so a
// hot-path read costs a few microseconds; the promise around it is already resolved.
import type Database from 'better-sqlite3';
import type { SqlExecutor, SqlStatement, SqlValue } from './sql';

/** DateTime text as Prisma's SQLite adapter writes it, so both writers' rows compare and parse alike. */
export function sqliteTime(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

function bind(params: readonly SqlValue[] | undefined): unknown[] {
  if (!params) return [];
  return params.map((value) => (value instanceof Date ? sqliteTime(value) : value));
}

export class SqliteExecutor implements SqlExecutor {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async rows<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.statement(sql).all(...bind(params)) as T[];
  }

  async row<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.statement(sql).get(...bind(params)) as T | undefined;
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    const statement = this.statement(sql);
    // A write with RETURNING reads like a query; count the rows it returned.
    if (statement.reader) return statement.all(...bind(params)).length;
    return statement.run(...bind(params)).changes;
  }

  async batch(statements: readonly SqlStatement[]): Promise<void> {
    if (statements.length === 0) return;
    this.db.transaction(() => {
      for (const { sql, params } of statements) this.statement(sql).run(...bind(params));
    })();
  }
}
