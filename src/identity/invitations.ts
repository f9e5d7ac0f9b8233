// Inviting people into the organization from the API (`POST /v2/users/invitations`): a one-time
// link (see src/auth/login-links.ts) that lets them choose a password and makes them a member
// with the given role when they use it. The caller needs `users:create` and must hold every
// capability of the role, as when adding a member directly. The link is mailed when a mail
// server is configured, and returned either way so it can be passed on by hand.
import { z } from 'zod';
import type { IssuedLink, LoginLinkService } from '../auth/login-links';
import { type Principal, requireOrgCapability } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { conflict } from '../errors';
import { parseInput } from '../lib/validation';
import { requireHolds } from './grants';
import type { RoleDirectory } from './role-directory';

export interface InvitationView {
  email: string;
  role: { id: string; name: string };
  /** The link to open, built from PUBLIC_URL. */
  url: string;
  /** The link's secret (what follows `#` in the URL), shown once. */
  token: string;
  expiresAt: string;
  organization: { id: string; name: string };
  /** Whether the link was also sent by mail. */
  mailed: boolean;
}

const inviteSchema = z.object({
  email: z.email('must be an email address').max(320).transform((email) => email.toLowerCase()),
  role: z.string({ error: 'is required' }).min(1, 'is required'),
});

export class InvitationService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly roles: RoleDirectory,
    private readonly loginLinks: Pick<LoginLinkService, 'invite'>,
    private readonly mail: (link: IssuedLink) => Promise<boolean>,
  ) {}

  async invite(principal: Principal, body: unknown): Promise<InvitationView> {
    requireOrgCapability(principal, 'users', 'create');
    const input = parseInput(inviteSchema, body);
    const [role] = await this.roles.require(principal.orgId, [input.role]);
    requireHolds(principal, role!.capabilities, `give the role "${role!.id}"`);
    const existing = await this.prisma.user.findUnique({ where: { email: input.email }, select: { id: true } });
    if (existing && (await this.prisma.membership.findUnique({ where: { userId_orgId: { userId: existing.id, orgId: principal.orgId } } }))) {
      throw conflict(`a member with email "${input.email}" already exists`);
    }
    const link = await this.loginLinks.invite(input.email, principal.orgId, role!.id);
    const mailed = await this.mail(link);
    return {
      email: link.email,
      role: { id: role!.id, name: role!.name },
      url: link.url,
      token: link.token,
      expiresAt: link.expiresAt.toISOString(),
      organization: link.organization!,
      mailed,
    };
  }
}
