// One-time links that let a person set their password: an invitation (which also makes a new
// user, or an existing one, a member of an organization with a role) or a reset. The link
// carries a random secret; only its digest is stored. A link works once and expires (an
// invitation after 7 days, a reset after 1 hour).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { PrismaClient } from '../db/store';
import { DomainError, invalidInput, notFound } from '../errors';
import { RoleDirectory } from '../identity/role-directory';
import { parseInput } from '../lib/validation';
import { checkPasswordRules } from './passwords';
import { generateId, hashTokenSecret } from './secrets';
import type { SignInService } from './sign-in';

export type LoginLinkKind = 'invite' | 'reset';

export const LINK_LIFETIME_MS: Record<LoginLinkKind, number> = { invite: 7 * 86_400_000, reset: 3_600_000 };
const SECRET_PREFIX = 'edl-';

export interface IssuedLink {
  kind: LoginLinkKind;
  email: string;
  token: string;
  url: string;
  expiresAt: Date;
  organization?: { id: string; name: string };
}

export interface LinkDescription {
  kind: LoginLinkKind;
  email: string;
  organization?: { id: string; name: string };
}

const acceptSchema = z.object({
  token: z.string({ error: 'is required' }).min(1, 'is required').max(200, 'is not a valid link token'),
  password: z.string({ error: 'is required' }),
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());

function emailAddress(text: string): string {
  const parsed = emailSchema.safeParse(text);
  if (!parsed.success) throw invalidInput(`"${text}" is not an email address`);
  return parsed.data;
}

/** 410: the link existed but can no longer be used. */
const linkGone = (message: string) => new DomainError('conflict', message, { gone: true });

export class LoginLinkService {
  /** The time source; tests replace it to reach expiry. */
  clock: () => number = Date.now;
  private readonly roles: RoleDirectory;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly signIn: SignInService,
    private readonly publicUrl: string,
  ) {
    this.roles = new RoleDirectory(prisma);
  }

  /** An invitation into `orgId` with `role`; the user is created when the email is new. */
  async invite(email: string, orgId: string, role = 'user'): Promise<IssuedLink> {
    const address = emailAddress(email);
    const org = await this.prisma.organization.findUnique({ where: { id: orgId }, select: { id: true, name: true } });
    if (!org) throw notFound(`organization "${orgId}" not found`);
    await this.roles.require(orgId, [role]);
    let user = await this.prisma.user.findUnique({ where: { email: address }, select: { id: true } });
    user ??= await this.prisma.user.create({ data: { id: generateId(), name: address.split('@')[0]!, email: address }, select: { id: true } });
    const link = await this.issue('invite', user.id, address, { orgId, role });
    return { ...link, organization: org };
  }

  /** A password reset for an existing user. */
  async reset(email: string): Promise<IssuedLink> {
    const address = emailAddress(email);
    const user = await this.prisma.user.findUnique({ where: { email: address }, select: { id: true } });
    if (!user) throw notFound(`no user with email "${address}"`);
    return this.issue('reset', user.id, address, {});
  }

  private async issue(kind: LoginLinkKind, userId: string, email: string, membership: { orgId?: string; role?: string }): Promise<IssuedLink> {
    const token = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.clock();
    const expiresAt = new Date(now + LINK_LIFETIME_MS[kind]);
    await this.prisma.loginLink.create({
      data: {
        id: generateId(),
        kind,
        userId,
        secretHash: hashTokenSecret(token),
        orgId: membership.orgId ?? null,
        role: membership.role ?? null,
        createdAt: new Date(now),
        expiresAt,
      },
    });
    return { kind, email, token, url: `${this.publicUrl}/app/accept#${token}`, expiresAt };
  }

  /** What a link is for, so the console can show it: 404 unknown, 410 used or expired. */
  async describe(token: string): Promise<LinkDescription> {
    const link = await this.usable(token);
    return { kind: link.kind, email: link.user.email, ...(link.org ? { organization: link.org } : {}) };
  }

  /** Consumes a link: sets the password (ending other sessions), joins the organization; returns the user id. */
  async accept(body: unknown): Promise<string> {
    const input = parseInput(acceptSchema, body);
    checkPasswordRules(input.password);
    const link = await this.usable(input.token);
    // Marking the link used first, conditionally, lets only one of two racing requests through.
    const claimed = await this.prisma.loginLink.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: new Date(this.clock()) } });
    if (claimed.count !== 1) throw linkGone('this link has already been used');
    if (link.kind === 'invite' && link.orgId && link.role) {
      const role = link.role;
      const orgId = link.orgId;
      await this.prisma.membership.upsert({
        where: { userId_orgId: { userId: link.userId, orgId } },
        create: { userId: link.userId, orgId, role },
        update: {},
      });
    }
    if (input.name) await this.prisma.user.update({ where: { id: link.userId }, data: { name: input.name } });
    await this.signIn.setPassword(link.userId, input.password);
    return link.userId;
  }

  private async usable(token: string) {
    if (!token.startsWith(SECRET_PREFIX) || token.length > 200) throw notFound('unknown link: ask for a new one');
    const link = await this.prisma.loginLink.findUnique({ where: { secretHash: hashTokenSecret(token) }, include: { user: { select: { email: true } } } });
    if (!link) throw notFound('unknown link: ask for a new one');
    if (link.usedAt) throw linkGone('this link has already been used: ask for a new one');
    if (link.expiresAt.getTime() <= this.clock()) throw linkGone('this link has expired: ask for a new one');
    const org = link.orgId ? await this.prisma.organization.findUnique({ where: { id: link.orgId }, select: { id: true, name: true } }) : null;
    if (link.kind === 'invite' && link.orgId && !org) throw linkGone('the organization of this invitation no longer exists');
    return { ...link, kind: link.kind as LoginLinkKind, org };
  }
}

export function isLinkGone(error: unknown): boolean {
  return error instanceof DomainError && error.details?.gone === true;
}
