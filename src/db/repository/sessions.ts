// Session lookup for authentication, on every request made with the console's cookie: the
// session by the digest of its secret, and the sliding of its idle expiry.
import { readTime, type SqlExecutor } from '../sql';

export interface SessionRow {
  id: string;
  userId: string;
  csrfToken: string;
  lastSeenAt: Date;
  idleExpiresAt: Date;
  expiresAt: Date;
}

interface StoredSession {
  id: string;
  user_id: string;
  csrf_token: string;
  last_seen_at: unknown;
  idle_expires_at: unknown;
  expires_at: unknown;
}

export class SessionRows {
  constructor(private readonly sql: SqlExecutor) {}

  async bySecretHash(secretHash: string): Promise<SessionRow | undefined> {
    const row = await this.sql.row<StoredSession>(
      'SELECT id, user_id, csrf_token, last_seen_at, idle_expires_at, expires_at FROM sessions WHERE secret_hash = ?',
      [secretHash],
    );
    if (!row) return undefined;
    return {
      id: row.id,
      userId: row.user_id,
      csrfToken: row.csrf_token,
      lastSeenAt: readTime(row.last_seen_at),
      idleExpiresAt: readTime(row.idle_expires_at),
      expiresAt: readTime(row.expires_at),
    };
  }

  /** Records a use of the session and pushes its idle expiry forward. */
  async touch(id: string, lastSeenAt: Date, idleExpiresAt: Date): Promise<void> {
    await this.sql.run('UPDATE sessions SET last_seen_at = ?, idle_expires_at = ? WHERE id = ?', [lastSeenAt, idleExpiresAt, id]);
  }

  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM sessions WHERE id = ?', [id]);
  }
}
