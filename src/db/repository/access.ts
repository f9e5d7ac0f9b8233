// What a member may do in an organization, read on every request: their base role and the
// roles of their groups, with the definitions of the custom ones, in one query. Nothing is
// cached, so a role, group or membership changed through any instance counts from the next
// request on.
import type { SqlExecutor } from '../sql';

/** One role a member holds: by membership (`base`) or through a group. */
export interface RoleGrant {
  via: 'base' | 'group';
  /** A base role name, or a custom role's id. */
  role: string;
  /** The custom role's capabilities as stored (JSON text); null for base roles and unknown ids. */
  custom: { datasetCapabilities: string; orgCapabilities: string; viewCapabilities: string } | null;
}

interface StoredGrant {
  via: string;
  role: string;
  dataset_capabilities: string | null;
  org_capabilities: string | null;
  view_capabilities: string | null;
}

export class AccessRows {
  constructor(private readonly sql: SqlExecutor) {}

  /** The roles the user holds in the organization; empty when they are not a member. */
  async grantsOf(orgId: string, userId: string): Promise<RoleGrant[]> {
    const rows = await this.sql.rows<StoredGrant>(
      `SELECT 'base' AS via, m.role AS role, r.dataset_capabilities, r.org_capabilities, r.view_capabilities
         FROM memberships m
         LEFT JOIN roles r ON r.id = m.role AND r.org_id = m.org_id
        WHERE m.user_id = ? AND m.org_id = ?
       UNION ALL
       SELECT 'group' AS via, gr.role AS role, r.dataset_capabilities, r.org_capabilities, r.view_capabilities
         FROM group_members gm
         JOIN groups g ON g.id = gm.group_id
         JOIN memberships m ON m.user_id = gm.user_id AND m.org_id = g.org_id
         JOIN group_roles gr ON gr.group_id = g.id
         LEFT JOIN roles r ON r.id = gr.role AND r.org_id = g.org_id
        WHERE gm.user_id = ? AND g.org_id = ?`,
      [userId, orgId, userId, orgId],
    );
    if (!rows.some((row) => row.via === 'base')) return [];
    return rows.map((row) => ({
      via: row.via === 'base' ? 'base' : 'group',
      role: row.role,
      custom:
        row.dataset_capabilities === null
          ? null
          : {
              datasetCapabilities: row.dataset_capabilities,
              orgCapabilities: row.org_capabilities ?? '{}',
              viewCapabilities: row.view_capabilities ?? '{}',
            },
    }));
  }
}
