// Groups (v2 `/rbac/groups`): members of a group hold the capabilities of its roles on top of
// their base role. A group's roles are base roles other than `owner` (ownership is only ever a
// member's own base role) or custom role ids; its members are users of the organization. Both
// are checked when written (400 naming what does not exist), and the caller must hold whatever
// the group's roles give.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { unionOf } from '../auth/capabilities';
import { type Principal, requireOrgCapability } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { invalidInput, notFound } from '../errors';
import { parseInput } from '../lib/validation';
import { requireHolds } from './grants';
import type { RoleDirectory } from './role-directory';
import { writeWithUniqueName } from './unique-name';

export interface GroupView {
  id: string;
  name: string;
  description: string;
  roles: string[];
  members: string[];
  isManaged: boolean;
}

const ids = z.array(z.string().min(1)).max(10_000).transform((list) => [...new Set(list)]);
const groupName = z.string().trim().min(1, 'is required').max(255);
const createGroupSchema = z.object({
  name: groupName,
  description: z.string().max(1024).default(''),
  roles: ids.default([]),
  members: ids.default([]),
});
const updateGroupSchema = z.object({
  name: groupName.optional(),
  description: z.string().max(1024).optional(),
  roles: ids.optional(),
  members: ids.optional(),
});

interface StoredGroup {
  id: string;
  name: string;
  description: string;
  roles: { role: string }[];
  members: { userId: string }[];
}

const withLinks = { roles: { orderBy: { role: 'asc' } }, members: { orderBy: { userId: 'asc' } } } as const;

export class GroupService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly roles: RoleDirectory,
  ) {}

  async list(principal: Principal): Promise<GroupView[]> {
    requireOrgCapability(principal, 'rbac', 'read');
    const rows = await this.prisma.group.findMany({ where: { orgId: principal.orgId }, include: withLinks, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    return rows.map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<GroupView> {
    requireOrgCapability(principal, 'rbac', 'read');
    return viewOf(await this.find(principal.orgId, id));
  }

  async create(principal: Principal, body: unknown): Promise<GroupView> {
    requireOrgCapability(principal, 'rbac', 'create');
    const input = parseInput(createGroupSchema, body);
    await this.checkRoles(principal, input.roles);
    await this.checkMembers(principal.orgId, input.members);
    const id = randomUUID();
    await this.uniqueName(principal.orgId, input.name, () =>
      this.prisma.group.create({
        data: {
          id,
          orgId: principal.orgId,
          name: input.name,
          description: input.description,
          roles: { create: input.roles.map((role) => ({ role })) },
          members: { create: input.members.map((userId) => ({ userId })) },
        },
      }),
    );
    return this.get(principal, id);
  }

  async update(principal: Principal, id: string, body: unknown): Promise<GroupView> {
    requireOrgCapability(principal, 'rbac', 'update');
    const existing = await this.find(principal.orgId, id);
    const input = parseInput(updateGroupSchema, body);
    // Whoever changes a group must hold what it gave and what it will give.
    const before = existing.roles.map((link) => link.role);
    await this.checkRoles(principal, [...new Set([...before, ...(input.roles ?? [])])], input.roles ?? []);
    if (input.members) await this.checkMembers(principal.orgId, input.members);
    await this.uniqueName(principal.orgId, input.name ?? existing.name, () =>
      this.prisma.$transaction(async (tx) => {
        await tx.group.update({
          where: { id },
          data: {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.description !== undefined ? { description: input.description } : {}),
          },
        });
        if (input.roles) {
          await tx.groupRole.deleteMany({ where: { groupId: id } });
          if (input.roles.length > 0) await tx.groupRole.createMany({ data: input.roles.map((role) => ({ groupId: id, role })) });
        }
        if (input.members) {
          await tx.groupMember.deleteMany({ where: { groupId: id } });
          if (input.members.length > 0) await tx.groupMember.createMany({ data: input.members.map((userId) => ({ groupId: id, userId })) });
        }
      }),
    id);
    return this.get(principal, id);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'rbac', 'delete');
    await this.find(principal.orgId, id);
    await this.prisma.group.delete({ where: { id } });
  }

  /**
   * Refuses `owner` and unknown roles among `newRoles` (400) and roles giving more than the
   * caller holds among `held` (403).
   */
  private async checkRoles(principal: Principal, held: string[], newRoles: string[] = held) {
    if (newRoles.includes('owner')) throw invalidInput('roles: "owner" cannot be given through a group; make the user an owner instead');
    await this.roles.require(principal.orgId, newRoles, 'roles');
    const resolved = await this.roles.describe(principal.orgId, held);
    requireHolds(principal, unionOf([...resolved.values()].map((role) => role.capabilities)), 'give these roles through a group');
  }

  private async checkMembers(orgId: string, userIds: string[]) {
    if (userIds.length === 0) return;
    const found = new Set(
      (await this.prisma.membership.findMany({ where: { orgId, userId: { in: userIds } }, select: { userId: true } })).map((m) => m.userId),
    );
    const unknown = userIds.find((userId) => !found.has(userId));
    if (unknown !== undefined) throw invalidInput(`members: user "${unknown}" is not a member of the organization`);
  }

  private async find(orgId: string, id: string): Promise<StoredGroup> {
    const row = await this.prisma.group.findFirst({ where: { id, orgId }, include: withLinks });
    if (!row) throw notFound(`group "${id}" not found`);
    return row;
  }

  private uniqueName(orgId: string, name: string, write: () => Promise<unknown>, self?: string): Promise<void> {
    const holder = async (taken: string) => (await this.prisma.group.findFirst({ where: { orgId, name: taken }, select: { id: true } }))?.id;
    return writeWithUniqueName('group', name, holder, write, self);
  }
}

function viewOf(row: StoredGroup): GroupView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    roles: row.roles.map((link) => link.role),
    members: row.members.map((link) => link.userId),
    isManaged: false,
  };
}
