// Token lookup for authentication, on every request: the token by the hash of its secret, and
// the memberships of a personal token's user.
import { readOptionalTime, type SqlExecutor } from '../sql';

export interface TokenRow {
  id: string;
  orgId: string | null;
  userId: string | null;
  kind: 'personal' | 'api';
  /** JSON text, as stored. */
  datasetCapabilities: string;
  /** JSON text, as stored. */
  orgCapabilities: string;
  /** JSON text, as stored. */
  viewCapabilities: string;
  expiresAt: Date | null;
  createdBy: string | null;
}

export interface MembershipRow {
  orgId: string;
  role: string;
}

interface StoredToken {
  id: string;
  org_id: string | null;
  user_id: string | null;
  kind: 'personal' | 'api';
  dataset_capabilities: string;
  org_capabilities: string;
  view_capabilities: string;
  expires_at: unknown;
  created_by: string | null;
}

export class TokenRows {
  constructor(private readonly sql: SqlExecutor) {}

  async bySecretHash(secretHash: string): Promise<TokenRow | undefined> {
    const row = await this.sql.row<StoredToken>(
      `SELECT id, org_id, user_id, kind, dataset_capabilities, org_capabilities, view_capabilities, expires_at, created_by
       FROM tokens WHERE secret_hash = ?`,
      [secretHash],
    );
    if (!row) return undefined;
    return {
      id: row.id,
      orgId: row.org_id,
      userId: row.user_id,
      kind: row.kind,
      datasetCapabilities: row.dataset_capabilities,
      orgCapabilities: row.org_capabilities,
      viewCapabilities: row.view_capabilities,
      expiresAt: readOptionalTime(row.expires_at),
      createdBy: row.created_by,
    };
  }

  /** The user's memberships, oldest first. */
  async membershipsOfUser(userId: string): Promise<MembershipRow[]> {
    const rows = await this.sql.rows<{ org_id: string; role: string }>(
      'SELECT org_id, role FROM memberships WHERE user_id = ? ORDER BY created_at, org_id',
      [userId],
    );
    return rows.map((row) => ({ orgId: row.org_id, role: row.role }));
  }
}
