// The current user (`/v1/user`, `/v2/user`): who a personal token acts for, and their role.
import { z } from 'zod';
import type { PrismaClient } from '../db/store';
import { forbidden, notFound } from '../errors';
import { parseInput } from '../validation';
import type { Principal } from './principal';

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  orgId: string;
  role: string;
}

const updateUserSchema = z.object({ name: z.string().trim().min(1, 'is required').max(255) });

export const ROLE_NAMES: Record<string, string> = {
  owner: 'Owner',
  admin: 'Admin',
  user: 'User',
  'read-only': 'Read-only',
};

export class UserService {
  constructor(private readonly prisma: PrismaClient) {}

  async current(principal: Principal): Promise<CurrentUser> {
    if (principal.kind !== 'personal' || !principal.userId) {
      throw forbidden('API tokens do not act for a user; use a personal token');
    }
    const membership = await this.prisma.membership.findUnique({
      where: { userId_orgId: { userId: principal.userId, orgId: principal.orgId } },
      include: { user: true },
    });
    if (!membership) throw notFound('user not found');
    const { user } = membership;
    return { id: user.id, name: user.name, email: user.email, orgId: principal.orgId, role: membership.role };
  }

  async updateCurrent(principal: Principal, body: unknown): Promise<CurrentUser> {
    const current = await this.current(principal);
    const { name } = parseInput(updateUserSchema, body);
    await this.prisma.user.update({ where: { id: current.id }, data: { name } });
    return { ...current, name };
  }
}
