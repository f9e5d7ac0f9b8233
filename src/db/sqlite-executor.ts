// SqlExecutor over one better-sqlite3 connection. Statements are prepared once and kept, so a
// hot-path read costs a few microseconds; the promise around it is already resolved.
//
// Reads are also remembered while the database is provably unchanged, because every request
// repeats the same few (its token, its datasets, their field notes). A remembered answer is
// served only when
//   - nothing was written by this process since: every executor and Prisma's connection count
//     their writes (sqlite-writes.ts), so a request reads what the one before it wrote, even
//     within the same turn of the event loop;
//   - no other process has committed since (`PRAGMA data_version`). That is asked once per turn
//     of the event loop, not once per read: what another process commits can only reach this
//     one through an event (a request, a timer), and each event starts a new turn.
// So a read still sees the store as it is now; it is only not read twice. Writes on this
// connection must therefore go through an executor (migrations run before any read).
import type Database from 'better-sqlite3';
import { BoundedMemo } from '../lib/bounded-memo';
import type { SqlExecutor, SqlStatement, SqlValue } from './sql';
import { noteSqliteWrite, sqliteWrites } from './sqlite-writes';

/** DateTime text as Prisma's SQLite adapter writes it, so both writers' rows compare and parse alike. */
export function sqliteTime(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

function bind(params: readonly SqlValue[] | undefined): unknown[] {
  if (!params) return [];
  return params.map((value) => (value instanceof Date ? sqliteTime(value) : value));
}

/** Answers remembered at most, and the most rows one remembered answer may hold. */
const REMEMBERED_READS = 1024;
const REMEMBERED_ROWS = 64;

export class SqliteExecutor implements SqlExecutor {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement>();
  /** Commits of other connections (`PRAGMA data_version`); this process's are counted in sqliteWrites. */
  private readonly commits: Database.Statement;
  /** data_version as asked in this turn of the event loop; undefined once the turn is over. */
  private commitsThisTurn: number | undefined;
  private readonly turnOver = () => {
    this.commitsThisTurn = undefined;
  };
  /** The state the remembered answers were read in: this process's writes, others' commits. */
  private writesSeen = -1;
  private commitsSeen = -1;
  /** Answers read in that state, by statement and parameters. */
  private readonly remembered = new BoundedMemo<readonly object[]>(REMEMBERED_READS);

  constructor(private readonly db: Database.Database) {
    this.commits = db.prepare('PRAGMA data_version').pluck();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The rows of a read (only its first when `first`), from memory when nothing was written since. */
  private read(sql: string, params: readonly SqlValue[] | undefined, first: boolean): readonly object[] {
    const statement = this.statement(sql);
    // A write that returns rows (RETURNING) runs every time, and counts as a write.
    if (!statement.readonly) {
      try {
        return this.execute(statement, params, first);
      } finally {
        noteSqliteWrite();
      }
    }
    const writes = sqliteWrites();
    const commits = this.otherCommits();
    if (writes !== this.writesSeen || commits !== this.commitsSeen) {
      this.remembered.clear();
      this.writesSeen = writes;
      this.commitsSeen = commits;
    }
    const key = `${first ? 'row' : 'rows'}\u0000${sql}\u0000${params?.length ? JSON.stringify(params) : ''}`;
    const known = this.remembered.find(key);
    if (known) return known;
    const rows = this.execute(statement, params, first);
    if (rows.length <= REMEMBERED_ROWS) {
      // Rows are flat objects of column values: frozen, no caller can change the remembered copy.
      for (const row of rows) Object.freeze(row);
      this.remembered.set(key, rows);
    }
    return rows;
  }

  /**
   * `PRAGMA data_version`, asked at most once per turn of the event loop: process.nextTick runs
   * once the current turn's callbacks and promise reactions are done, before the next event.
   */
  private otherCommits(): number {
    if (this.commitsThisTurn === undefined) {
      this.commitsThisTurn = this.commits.get() as number;
      process.nextTick(this.turnOver);
    }
    return this.commitsThisTurn;
  }

  private execute(statement: Database.Statement, params: readonly SqlValue[] | undefined, first: boolean): object[] {
    const values = bind(params);
    if (!first) return statement.all(...values) as object[];
    const row = statement.get(...values) as object | undefined;
    return row ? [row] : [];
  }

  async rows<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.read(sql, params, false).slice() as T[];
  }

  async row<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.read(sql, params, true)[0] as T | undefined;
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    try {
      const statement = this.statement(sql);
      // A write with RETURNING reads like a query; count the rows it returned.
      if (statement.reader) return statement.all(...bind(params)).length;
      return statement.run(...bind(params)).changes;
    } finally {
      noteSqliteWrite();
    }
  }

  async batch(statements: readonly SqlStatement[]): Promise<void> {
    if (statements.length === 0) return;
    try {
      this.db.transaction(() => {
        for (const { sql, params } of statements) this.statement(sql).run(...bind(params));
      })();
    } finally {
      noteSqliteWrite();
    }
  }
}
