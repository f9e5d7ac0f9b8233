// Signing people in to the console with email and password, changing a password, and what the
// console learns about its session. Failures say the same thing whether the email is unknown or
// the password wrong, and take the same time (see passwords.ts); repeated failures are slowed
// down per client address and per account (login-rate-limit.ts).
import { z } from 'zod';
import type { PrismaClient } from '../db/store';
import { invalidInput, notFound, unauthenticated } from '../errors';
import { parseInput } from '../lib/validation';
import type { LoginRateLimiter } from './login-rate-limit';
import { hashPassword, verifyPassword } from './passwords';
import type { SessionOrigin, SessionService, StartedSession } from './sessions';

export const WRONG_CREDENTIALS = 'wrong email or password';

const loginSchema = z.object({
  email: z.string({ error: 'is required' }).trim().min(1, 'is required').max(320, 'must be at most 320 characters'),
  password: z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'must be at most 1024 characters'),
});

const changeSchema = z.object({
  currentPassword: z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  newPassword: z.string({ error: 'is required' }),
});

/** What the console is told about its session (GET /auth/session and every sign-in). */
export interface SessionAnswer {
  user: { id: string; name: string; email: string };
  csrfToken: string;
  organizations: { id: string; name: string; role: string }[];
  expiresAt: string;
}

export class SignInService {
  constructor(
    private readonly prisma: PrismaClient,
    readonly sessions: SessionService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  /** A new session for the owner of these credentials; `unauthenticated` or `rate_limited` otherwise. */
  async login(body: unknown, origin: SessionOrigin & { ip: string }): Promise<StartedSession> {
    const input = parseInput(loginSchema, body);
    const email = input.email.toLowerCase();
    this.limiter.check(origin.ip, email);
    const user = await this.prisma.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
    const matches = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !matches) {
      this.limiter.failed(origin.ip, email);
      throw unauthenticated(WRONG_CREDENTIALS);
    }
    this.limiter.succeeded(email);
    return this.sessions.start(user.id, origin);
  }

  /**
   * Changes the password of the session's user after checking the current one: every session of
   * the user ends, and the one that asked gets a fresh session.
   */
  async changePassword(userId: string, body: unknown, origin: SessionOrigin): Promise<StartedSession> {
    const input = parseInput(changeSchema, body);
    const user = await this.prisma.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
    if (!user) throw unauthenticated('the session has ended');
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw invalidInput('currentPassword: the current password is wrong');
    await this.setPassword(userId, input.newPassword);
    return this.sessions.start(userId, origin);
  }

  /** Sets a user's password (at least 8 characters) and ends all their sessions. */
  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.prisma.$transaction([
      this.prisma.user.update({ where: { id: userId }, data: { passwordHash, passwordSetAt: new Date() } }),
      this.prisma.session.deleteMany({ where: { userId } }),
    ]);
  }

  /** Sets the password of the user with this email; 404 when there is none. */
  async setPasswordByEmail(email: string, password: string): Promise<void> {
    const user = await this.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
    if (!user) throw notFound(`no user with email "${email}"`);
    await this.setPassword(user.id, password);
  }

  async describe(session: { userId: string; csrfToken: string; expiresAt: Date }): Promise<SessionAnswer> {
    const user = await this.prisma.user.findUnique({
      where: { id: session.userId },
      select: { id: true, name: true, email: true, memberships: { select: { role: true, org: { select: { id: true, name: true } } }, orderBy: { createdAt: 'asc' } } },
    });
    if (!user) throw unauthenticated('the session has ended');
    return {
      user: { id: user.id, name: user.name, email: user.email },
      csrfToken: session.csrfToken,
      organizations: user.memberships.map((membership) => ({ id: membership.org.id, name: membership.org.name, role: membership.role })),
      expiresAt: session.expiresAt.toISOString(),
    };
  }
}
