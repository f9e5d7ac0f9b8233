// Custom roles (v2 `/rbac/roles`): named capability sets in the shapes of API tokens. Members are
// derived: the users whose base role is the role. Sending `members` assigns the role as the base
// role of exactly those users (others who had it fall back to `none`), which needs `users:update`
// as well. Deleting a role resets its members to `none` and takes it out of every group.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type CapabilitySet, capabilitySetOf, unionOf } from '../auth/capabilities';
import { datasetCapabilitiesSchema, orgCapabilitiesSchema, viewCapabilitiesSchema } from '../auth/capability-schemas';
import { type Principal, requireOrgCapability } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { invalidInput, notFound } from '../errors';
import { parseInput } from '../lib/validation';
import { requireHolds } from './grants';
import type { RoleDirectory } from './role-directory';
import { writeWithUniqueName } from './unique-name';
import { LAST_OWNER_MESSAGE } from './users';

export interface RoleView extends CapabilitySet {
  id: string;
  name: string;
  description: string;
  members: string[];
}

const roleName = z.string().trim().min(1, 'is required').max(255);
const memberIds = z.array(z.string().min(1)).max(10_000).transform((ids) => [...new Set(ids)]);
const createRoleSchema = z.object({
  name: roleName,
  description: z.string().max(1024).default(''),
  datasetCapabilities: datasetCapabilitiesSchema.default({}),
  orgCapabilities: orgCapabilitiesSchema.default({}),
  viewCapabilities: viewCapabilitiesSchema.default({}),
  members: memberIds.optional(),
});
const updateRoleSchema = z.object({
  name: roleName.optional(),
  description: z.string().max(1024).optional(),
  datasetCapabilities: datasetCapabilitiesSchema.optional(),
  orgCapabilities: orgCapabilitiesSchema.optional(),
  viewCapabilities: viewCapabilitiesSchema.optional(),
  members: memberIds.optional(),
});

interface StoredRole {
  id: string;
  name: string;
  description: string;
  datasetCapabilities: string;
  orgCapabilities: string;
  viewCapabilities: string;
}

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export class CustomRoleService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly roles: RoleDirectory,
  ) {}

  async list(principal: Principal): Promise<RoleView[]> {
    requireOrgCapability(principal, 'rbac', 'read');
    const rows = await this.prisma.role.findMany({ where: { orgId: principal.orgId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    const members = await this.membersOf(principal.orgId, rows.map((row) => row.id));
    return rows.map((row) => viewOf(row, members.get(row.id) ?? []));
  }

  async get(principal: Principal, id: string): Promise<RoleView> {
    requireOrgCapability(principal, 'rbac', 'read');
    const row = await this.find(principal.orgId, id);
    return viewOf(row, (await this.membersOf(principal.orgId, [id])).get(id) ?? []);
  }

  async create(principal: Principal, body: unknown): Promise<RoleView> {
    requireOrgCapability(principal, 'rbac', 'create');
    const input = parseInput(createRoleSchema, body);
    const capabilities = { datasetCapabilities: input.datasetCapabilities, orgCapabilities: input.orgCapabilities, viewCapabilities: input.viewCapabilities };
    requireHolds(principal, capabilities, 'define a role with these capabilities');
    if (input.members && input.members.length > 0) requireOrgCapability(principal, 'users', 'update');
    const id = randomUUID();
    await this.uniqueName(principal.orgId, input.name, async () => {
      await this.prisma.$transaction(async (tx) => {
        await tx.role.create({
          data: {
            id,
            orgId: principal.orgId,
            name: input.name,
            description: input.description,
            datasetCapabilities: JSON.stringify(capabilities.datasetCapabilities),
            orgCapabilities: JSON.stringify(capabilities.orgCapabilities),
            viewCapabilities: JSON.stringify(capabilities.viewCapabilities),
          },
        });
        if (input.members) await this.assignMembers(tx, principal, id, input.members);
      });
    });
    return this.get(principal, id);
  }

  async update(principal: Principal, id: string, body: unknown): Promise<RoleView> {
    requireOrgCapability(principal, 'rbac', 'update');
    const existing = await this.find(principal.orgId, id);
    const input = parseInput(updateRoleSchema, body);
    const before = capabilitySetOf(existing);
    const after: CapabilitySet = {
      datasetCapabilities: input.datasetCapabilities ?? before.datasetCapabilities,
      orgCapabilities: input.orgCapabilities ?? before.orgCapabilities,
      viewCapabilities: input.viewCapabilities ?? before.viewCapabilities,
    };
    // Whoever reshapes a role must hold what it gave and what it will give.
    requireHolds(principal, unionOf([before, after]), `change the role "${existing.name}"`);
    const currentMembers = (await this.membersOf(principal.orgId, [id])).get(id) ?? [];
    const membersChange = input.members !== undefined && !sameSet(input.members, currentMembers);
    if (membersChange) requireOrgCapability(principal, 'users', 'update');
    await this.uniqueName(principal.orgId, input.name ?? existing.name, async () => {
      await this.prisma.$transaction(async (tx) => {
        await tx.role.update({
          where: { id },
          data: {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.description !== undefined ? { description: input.description } : {}),
            datasetCapabilities: JSON.stringify(after.datasetCapabilities),
            orgCapabilities: JSON.stringify(after.orgCapabilities),
            viewCapabilities: JSON.stringify(after.viewCapabilities),
          },
        });
        if (membersChange) await this.assignMembers(tx, principal, id, input.members!);
      });
    }, id);
    return this.get(principal, id);
  }

  /** Deletes the role: its members' base role becomes `none`, and groups lose it. */
  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'rbac', 'delete');
    await this.find(principal.orgId, id);
    await this.prisma.$transaction(async (tx) => {
      await tx.membership.updateMany({ where: { orgId: principal.orgId, role: id }, data: { role: 'none' } });
      await tx.groupRole.deleteMany({ where: { role: id, group: { orgId: principal.orgId } } });
      await tx.role.delete({ where: { id } });
    });
  }

  /** Makes the role the base role of exactly `userIds`; others who had it fall back to `none`. */
  private async assignMembers(tx: Transaction, principal: Principal, roleId: string, userIds: string[]) {
    const memberships = await tx.membership.findMany({ where: { orgId: principal.orgId, userId: { in: userIds } } });
    const found = new Map(memberships.map((m) => [m.userId, m]));
    const unknown = userIds.find((userId) => !found.has(userId));
    if (unknown !== undefined) throw invalidInput(`members: user "${unknown}" is not a member of the organization`);
    // Moving someone off their role needs what that role gave (as for PUT /users/{id}/role).
    const previous = await this.roles.describe(principal.orgId, memberships.map((m) => m.role).filter((role) => role !== roleId));
    for (const role of previous.values()) requireHolds(principal, role.capabilities, `change the role of a member whose role is "${role.id}"`);
    if (memberships.some((m) => m.role === 'owner')) {
      const owners = await tx.membership.count({ where: { orgId: principal.orgId, role: 'owner', userId: { notIn: userIds } } });
      if (owners === 0) throw invalidInput(LAST_OWNER_MESSAGE);
    }
    await tx.membership.updateMany({ where: { orgId: principal.orgId, role: roleId, userId: { notIn: userIds } }, data: { role: 'none' } });
    await tx.membership.updateMany({ where: { orgId: principal.orgId, userId: { in: userIds } }, data: { role: roleId } });
  }

  private async find(orgId: string, id: string): Promise<StoredRole> {
    const row = await this.prisma.role.findFirst({ where: { id, orgId } });
    if (!row) throw notFound(`role "${id}" not found`);
    return row;
  }

  private async membersOf(orgId: string, roleIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (roleIds.length === 0) return out;
    const rows = await this.prisma.membership.findMany({ where: { orgId, role: { in: roleIds } }, orderBy: { userId: 'asc' } });
    for (const row of rows) out.set(row.role, [...(out.get(row.role) ?? []), row.userId]);
    return out;
  }

  private uniqueName(orgId: string, name: string, write: () => Promise<unknown>, self?: string): Promise<void> {
    const holder = async (taken: string) => (await this.prisma.role.findFirst({ where: { orgId, name: taken }, select: { id: true } }))?.id;
    return writeWithUniqueName('role', name, holder, write, self);
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  return left.size === new Set(b).size && b.every((item) => left.has(item));
}

function viewOf(row: StoredRole, members: string[]): RoleView {
  return { id: row.id, name: row.name, description: row.description, ...capabilitySetOf(row), members };
}
