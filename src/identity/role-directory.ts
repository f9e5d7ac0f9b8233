// Role references as users, groups and requests spell them: a base role name ("owner",
// "admin", "user", "read-only", "none") or the id of one of the organization's custom roles.
// Resolves them to a display name and a capability set, and refuses ones that do not exist.
import { type CapabilitySet, capabilitySetOf } from '../auth/capabilities';
import { BASE_ROLE_NAMES, baseRoleCapabilities, isBaseRole } from '../auth/roles';
import type { PrismaClient } from '../db/store';
import { invalidInput } from '../errors';

export interface ResolvedRole {
  id: string;
  name: string;
  capabilities: CapabilitySet;
  custom: boolean;
}

export class RoleDirectory {
  constructor(private readonly prisma: PrismaClient) {}

  /** The roles by id; ids that name nothing come back as a role without capabilities, named by their id. */
  async describe(orgId: string, ids: Iterable<string>): Promise<Map<string, ResolvedRole>> {
    const wanted = [...new Set(ids)];
    const out = new Map<string, ResolvedRole>();
    const customIds = wanted.filter((id) => !isBaseRole(id));
    const rows = customIds.length > 0 ? await this.prisma.role.findMany({ where: { orgId, id: { in: customIds } } }) : [];
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of wanted) {
      if (isBaseRole(id)) {
        out.set(id, { id, name: BASE_ROLE_NAMES[id], capabilities: baseRoleCapabilities(id), custom: false });
        continue;
      }
      const row = byId.get(id);
      out.set(id, row ? { id, name: row.name, capabilities: capabilitySetOf(row), custom: true } : { id, name: id, capabilities: baseRoleCapabilities('none'), custom: true });
    }
    return out;
  }

  async one(orgId: string, id: string): Promise<ResolvedRole> {
    return (await this.describe(orgId, [id])).get(id)!;
  }

  /** The roles, or a 400 naming the first that is neither a base role nor a custom role of the organization. */
  async require(orgId: string, ids: readonly string[], field = 'role'): Promise<ResolvedRole[]> {
    const customIds = [...new Set(ids.filter((id) => !isBaseRole(id)))];
    if (customIds.length > 0) {
      const found = new Set((await this.prisma.role.findMany({ where: { orgId, id: { in: customIds } }, select: { id: true } })).map((row) => row.id));
      const unknown = customIds.find((id) => !found.has(id));
      if (unknown !== undefined) {
        throw invalidInput(`${field}: role "${unknown}" does not exist (use owner, admin, user, read-only, none or a custom role id)`);
      }
    }
    const described = await this.describe(orgId, ids);
    return ids.map((id) => described.get(id)!);
  }
}
