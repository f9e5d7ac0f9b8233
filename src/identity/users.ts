// The members of an organization (v2 `/users`, `/users/{id}/role`) and the current user
// (`/v1/user`, `/v2/user`). A member's base role is a base role name or a custom role id; a
// user may belong to several organizations, with a role in each. Removing a member takes their
// group memberships and the API tokens they created in that organization with them, and their
// personal tokens stop working there at the next request (authentication reads memberships on
// every request). An organization always keeps at least one owner.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Principal, requireOrgCapability } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { conflict, forbidden, invalidInput, notFound } from '../errors';
import { parseInput } from '../lib/validation';
import { requireHolds } from './grants';
import type { RoleDirectory } from './role-directory';

export interface UserRoleView {
  id: string;
  name: string;
}

export interface MemberView {
  id: string;
  name: string;
  email: string;
  role: UserRoleView;
}

/** The user a personal token acts for, in the organization of the request. */
export interface CurrentUser extends MemberView {
  orgId: string;
  /** The IANA time zone the user chose for showing times, or null (the browser's own). */
  timeZone: string | null;
}

const name = z.string().trim().min(1, 'is required').max(255);
/** An IANA time zone name the runtime knows ("Europe/Paris", "UTC"). */
const timeZone = z
  .string()
  .trim()
  .max(100)
  .refine((zone) => isKnownTimeZone(zone), 'must be an IANA time zone such as "Europe/Paris" or "UTC"');
const updateCurrentSchema = z
  .object({ name: name.optional(), timeZone: timeZone.nullable().optional() })
  .refine((input) => input.name !== undefined || input.timeZone !== undefined, 'name or timeZone is required');

function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}
const createUserSchema = z.object({
  name,
  email: z.email('must be an email address').max(320).transform((email) => email.toLowerCase()),
  role: z.string({ error: 'is required' }).min(1, 'is required'),
});
const updateRoleSchema = z.object({ role: z.string({ error: 'is required' }).min(1, 'is required') });

export const LAST_OWNER_MESSAGE = 'an organization needs at least one owner: make another member owner first';

export class UserService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly roles: RoleDirectory,
  ) {}

  async current(principal: Principal): Promise<CurrentUser> {
    if (principal.kind !== 'personal' || !principal.userId) {
      throw forbidden('API tokens do not act for a user; use a personal token');
    }
    const member = await this.member(principal.orgId, principal.userId);
    const user = await this.prisma.user.findUnique({ where: { id: principal.userId }, select: { timeZone: true } });
    return { ...member, orgId: principal.orgId, timeZone: user?.timeZone ?? null };
  }

  /** Renames the current user and/or sets their time zone (null clears it). */
  async updateCurrent(principal: Principal, body: unknown): Promise<CurrentUser> {
    const current = await this.current(principal);
    const input = parseInput(updateCurrentSchema, body);
    const data = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}) };
    await this.prisma.user.update({ where: { id: current.id }, data });
    return { ...current, ...data };
  }

  async list(principal: Principal): Promise<MemberView[]> {
    requireOrgCapability(principal, 'users', 'read');
    const memberships = await this.prisma.membership.findMany({
      where: { orgId: principal.orgId },
      include: { user: true },
      orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    });
    const roles = await this.roles.describe(principal.orgId, memberships.map((m) => m.role));
    return memberships.map((m) => viewOf(m.user, roles.get(m.role)!));
  }

  async get(principal: Principal, id: string): Promise<MemberView> {
    requireOrgCapability(principal, 'users', 'read');
    return this.member(principal.orgId, id);
  }

  /** Adds a user to the organization, creating the user when the email is new. */
  async create(principal: Principal, body: unknown): Promise<MemberView> {
    requireOrgCapability(principal, 'users', 'create');
    const input = parseInput(createUserSchema, body);
    const [role] = await this.roles.require(principal.orgId, [input.role]);
    requireHolds(principal, role!.capabilities, `give the role "${role!.id}"`);
    const existing = await this.prisma.user.findUnique({ where: { email: input.email } });
    if (existing) {
      const membership = await this.prisma.membership.findUnique({ where: { userId_orgId: { userId: existing.id, orgId: principal.orgId } } });
      if (membership) throw conflict(`a member with email "${input.email}" already exists`);
      await this.prisma.membership.create({ data: { userId: existing.id, orgId: principal.orgId, role: role!.id } });
      return viewOf(existing, role!);
    }
    const id = randomUUID();
    try {
      const user = await this.prisma.user.create({
        data: { id, name: input.name, email: input.email, memberships: { create: { orgId: principal.orgId, role: role!.id } } },
      });
      return viewOf(user, role!);
    } catch (error) {
      if (await this.prisma.user.findUnique({ where: { email: input.email } })) throw conflict(`a user with email "${input.email}" already exists`);
      throw error;
    }
  }

  async updateRole(principal: Principal, id: string, body: unknown): Promise<MemberView> {
    requireOrgCapability(principal, 'users', 'update');
    const input = parseInput(updateRoleSchema, body);
    const current = await this.member(principal.orgId, id);
    const [role] = await this.roles.require(principal.orgId, [input.role]);
    const previous = await this.roles.one(principal.orgId, current.role.id);
    requireHolds(principal, previous.capabilities, `change the role of a member whose role is "${previous.id}"`);
    requireHolds(principal, role!.capabilities, `give the role "${role!.id}"`);
    await this.prisma.$transaction(async (tx) => {
      if (current.role.id === 'owner' && role!.id !== 'owner') await requireAnotherOwner(tx, principal.orgId, id);
      await tx.membership.update({ where: { userId_orgId: { userId: id, orgId: principal.orgId } }, data: { role: role!.id } });
    });
    return { ...current, role: { id: role!.id, name: role!.name } };
  }

  /** Removes the member from the organization (the user remains, with their other organizations). */
  async remove(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'users', 'delete');
    const current = await this.member(principal.orgId, id);
    const role = await this.roles.one(principal.orgId, current.role.id);
    requireHolds(principal, role.capabilities, `remove a member whose role is "${role.id}"`);
    await this.prisma.$transaction(async (tx) => {
      if (current.role.id === 'owner') await requireAnotherOwner(tx, principal.orgId, id);
      await tx.groupMember.deleteMany({ where: { userId: id, group: { orgId: principal.orgId } } });
      await tx.token.deleteMany({ where: { orgId: principal.orgId, kind: 'api', createdBy: id } });
      await tx.membership.delete({ where: { userId_orgId: { userId: id, orgId: principal.orgId } } });
    });
  }

  /** The member with their role, or 404 (users of other organizations are not found either). */
  async member(orgId: string, userId: string): Promise<MemberView> {
    const membership = await this.prisma.membership.findUnique({ where: { userId_orgId: { userId, orgId } }, include: { user: true } });
    if (!membership) throw notFound(`user "${userId}" not found`);
    return viewOf(membership.user, await this.roles.one(orgId, membership.role));
  }
}

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

async function requireAnotherOwner(tx: Transaction, orgId: string, leaving: string) {
  const others = await tx.membership.count({ where: { orgId, role: 'owner', userId: { not: leaving } } });
  if (others === 0) throw invalidInput(LAST_OWNER_MESSAGE);
}

function viewOf(user: { id: string; name: string; email: string }, role: { id: string; name: string }): MemberView {
  return { id: user.id, name: user.name, email: user.email, role: { id: role.id, name: role.name } };
}
