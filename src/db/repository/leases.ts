// The rows behind src/db/lease.ts: one per lease name, naming the instance that holds it and
// until when. Taking, renewing and stealing an expired lease are one atomic upsert, so two
// instances can never both succeed. PostgreSQL decides with its own clock (instances' clocks
// may drift apart); SQLite serves one machine, whose clock the process reads.
import { readTime, type SqlExecutor } from '../sql';
import { sqliteTime } from '../sqlite-executor';

export interface LeaseState {
  holder: string;
  expiresAt: Date;
  /** False once the lease has expired: anyone may take it. */
  live: boolean;
}

const UPSERT_TAIL = `ON CONFLICT (name) DO UPDATE SET
    acquired_at = CASE WHEN leases.holder = excluded.holder AND leases.expires_at > excluded.acquired_at
                       THEN leases.acquired_at ELSE excluded.acquired_at END,
    holder = excluded.holder,
    expires_at = excluded.expires_at
  WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.acquired_at
  RETURNING holder`;

const PG_NOW = `(now() AT TIME ZONE 'UTC')`;

export class LeaseRows {
  constructor(private readonly sql: SqlExecutor) {}

  /** Takes the lease, renews it, or takes it over once expired; true when `holder` now holds it. */
  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    if (this.sql.dialect === 'postgresql') {
      const changed = await this.sql.run(
        `INSERT INTO leases (name, holder, acquired_at, expires_at)
         VALUES (?, ?, ${PG_NOW}, ${PG_NOW} + make_interval(secs => ?::float8 / 1000)) ${UPSERT_TAIL}`,
        [name, holder, ttlMs],
      );
      return changed > 0;
    }
    const now = Date.now();
    const changed = await this.sql.run(`INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?) ${UPSERT_TAIL}`, [
      name,
      holder,
      sqliteTime(new Date(now)),
      sqliteTime(new Date(now + ttlMs)),
    ]);
    return changed > 0;
  }

  /** Gives the lease up if `holder` holds it. */
  async release(name: string, holder: string): Promise<void> {
    await this.sql.run('DELETE FROM leases WHERE name = ? AND holder = ?', [name, holder]);
  }

  async state(name: string): Promise<LeaseState | undefined> {
    const row =
      this.sql.dialect === 'postgresql'
        ? await this.sql.row<{ holder: string; expires_at: unknown; live: boolean }>(
            `SELECT holder, expires_at, expires_at > ${PG_NOW} AS live FROM leases WHERE name = ?`,
            [name],
          )
        : await this.sql.row<{ holder: string; expires_at: unknown; live: number }>(
            'SELECT holder, expires_at, expires_at > ? AS live FROM leases WHERE name = ?',
            [sqliteTime(new Date()), name],
          );
    if (!row) return undefined;
    return { holder: row.holder, expiresAt: readTime(row.expires_at), live: row.live === true || row.live === 1 };
  }
}
