// Console sessions: a random secret held by the browser in a cookie, stored only as a digest
// (like token secrets). A session ends at its idle expiry, which every use pushes forward (the
// row is written at most once a minute), or at its absolute expiry, whichever comes first; it
// is revoked by signing out, by a password change (every session of the user) and with the user.
// Lookups run on every cookie-authenticated request, so they go through the repository layer.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../db/store';
import type { Repository, SessionRow } from '../db/repository';
import { generateId, hashTokenSecret } from './secrets';

export interface SessionSettings {
  /** A session unused this long ends. */
  idleTimeoutMs: number;
  /** A session ends this long after it began, used or not. */
  maxAgeMs: number;
}

/** Where a session was started from, kept for the user's information. */
export interface SessionOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export interface StartedSession {
  id: string;
  userId: string;
  /** The cookie value; shown once, never stored. */
  secret: string;
  csrfToken: string;
  /** When the session ends if it stays unused (never after its absolute expiry). */
  expiresAt: Date;
  /** The absolute end, for the cookie's lifetime. */
  absoluteExpiresAt: Date;
}

export interface ActiveSession {
  id: string;
  userId: string;
  csrfToken: string;
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

/** A session as its user sees it in their list (never its secret or CSRF token). */
export interface SessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  /** When it ends if it stays unused (its idle expiry, never after its absolute one). */
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** Writing the last use more often than this would turn every request into a write. */
const TOUCH_INTERVAL_MS = 60_000;
const SECRET_PREFIX = 'eds-';

function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Constant-time comparison of two texts (false when their lengths differ). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class SessionService {
  /** The time source; tests replace it to move through idle and absolute expiry. */
  clock: () => number = Date.now;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly repository: Repository,
    private readonly settings: SessionSettings,
  ) {}

  async start(userId: string, origin: SessionOrigin = {}): Promise<StartedSession> {
    const now = this.clock();
    const secret = `${SECRET_PREFIX}${randomSecret()}`;
    const csrfToken = randomSecret();
    const absoluteExpiresAt = new Date(now + this.settings.maxAgeMs);
    const idleExpiresAt = new Date(Math.min(now + this.settings.idleTimeoutMs, absoluteExpiresAt.getTime()));
    const id = generateId();
    // Sessions nobody came back with are deleted here rather than by a sweeper.
    await this.prisma.session.deleteMany({ where: { userId, OR: [{ idleExpiresAt: { lte: new Date(now) } }, { expiresAt: { lte: new Date(now) } }] } });
    await this.prisma.session.create({
      data: {
        id,
        userId,
        secretHash: hashTokenSecret(secret),
        csrfToken,
        createdAt: new Date(now),
        lastSeenAt: new Date(now),
        idleExpiresAt,
        expiresAt: absoluteExpiresAt,
        ip: origin.ip?.slice(0, 100) ?? null,
        userAgent: origin.userAgent?.slice(0, 500) ?? null,
      },
    });
    return { id, userId, secret, csrfToken, expiresAt: idleExpiresAt, absoluteExpiresAt };
  }

  /** The live session behind a cookie value (its use recorded), or undefined. */
  async resolve(secret: string): Promise<ActiveSession | undefined> {
    if (!secret.startsWith(SECRET_PREFIX) || secret.length > 200) return undefined;
    const row = await this.repository.sessions.bySecretHash(hashTokenSecret(secret));
    if (!row) return undefined;
    const now = this.clock();
    if (row.idleExpiresAt.getTime() <= now || row.expiresAt.getTime() <= now) {
      await this.repository.sessions.delete(row.id);
      return undefined;
    }
    return this.touched(row, now);
  }

  private async touched(row: SessionRow, now: number): Promise<ActiveSession> {
    let idleExpiresAt = row.idleExpiresAt;
    if (now - row.lastSeenAt.getTime() >= Math.min(TOUCH_INTERVAL_MS, this.settings.idleTimeoutMs / 10)) {
      idleExpiresAt = new Date(Math.min(now + this.settings.idleTimeoutMs, row.expiresAt.getTime()));
      await this.repository.sessions.touch(row.id, new Date(now), idleExpiresAt);
    }
    return { id: row.id, userId: row.userId, csrfToken: row.csrfToken, expiresAt: idleExpiresAt, absoluteExpiresAt: row.expiresAt };
  }

  /** The user's live sessions, most recently used first, for them to review. */
  async listOf(userId: string): Promise<SessionView[]> {
    const now = new Date(this.clock());
    const rows = await this.prisma.session.findMany({
      where: { userId, idleExpiresAt: { gt: now }, expiresAt: { gt: now } },
      orderBy: [{ lastSeenAt: 'desc' }, { id: 'asc' }],
    });
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      expiresAt: new Date(Math.min(row.idleExpiresAt.getTime(), row.expiresAt.getTime())).toISOString(),
      ip: row.ip,
      userAgent: row.userAgent,
    }));
  }

  /** Ends one session of the user; false when they have none with this id (another user's included). */
  async endOf(userId: string, sessionId: string): Promise<boolean> {
    const { count } = await this.prisma.session.deleteMany({ where: { id: sessionId, userId } });
    return count > 0;
  }

  /** Ends every session of the user but one (signing out everywhere else); returns how many ended. */
  async endOthersOf(userId: string, keptSessionId: string): Promise<number> {
    const { count } = await this.prisma.session.deleteMany({ where: { userId, id: { not: keptSessionId } } });
    return count;
  }

  /** Signs one session out. */
  async end(sessionId: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { id: sessionId } });
  }

  /** Revokes every session of a user (a password change, a reset). */
  async endAllOf(userId: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { userId } });
  }
}
