// First start with an empty store: create an organization, its admin user and a personal token.
// With ADMIN_TOKEN set, that value is (and stays) a valid personal token of the admin, so
// scripts can rely on it across restarts; otherwise a generated token is printed once.
// ADMIN_PASSWORD is authoritative the same way for signing in to the console as admin@localhost:
// set when the admin has none, replaced (ending the admin's sessions) when it differs.
import type { PrismaClient } from '../db/store';
import { hashPassword, verifyPassword } from './passwords';
import { generateId, generateOrgId, generateTokenSecret, hashTokenSecret } from './secrets';

export interface BootstrapResult {
  orgId: string;
  adminUserId: string;
  /** Set when this start created a token that nobody has seen yet. */
  generatedToken?: string;
}

export const BOOTSTRAP_ADMIN_EMAIL = 'admin@localhost';

export async function ensureAdminIdentity(prisma: PrismaClient, adminToken: string | undefined, adminPassword?: string): Promise<BootstrapResult> {
  const result = await ensureAdminUser(prisma, adminToken);
  if (adminPassword) await ensureAdminPassword(prisma, adminPassword);
  return result;
}

async function ensureAdminUser(prisma: PrismaClient, adminToken: string | undefined): Promise<BootstrapResult> {
  const existingOwner = await prisma.membership.findFirst({ where: { role: 'owner' }, orderBy: { createdAt: 'asc' } });
  if (existingOwner) {
    if (adminToken) await ensurePersonalToken(prisma, existingOwner.userId, adminToken);
    return { orgId: existingOwner.orgId, adminUserId: existingOwner.userId };
  }

  const secret = adminToken ?? generateTokenSecret('personal');
  const orgId = generateOrgId('default');
  const adminUserId = generateId();
  await prisma.$transaction([
    prisma.organization.create({ data: { id: orgId, name: 'Default' } }),
    prisma.user.create({ data: { id: adminUserId, name: 'Admin', email: BOOTSTRAP_ADMIN_EMAIL } }),
    prisma.membership.create({ data: { userId: adminUserId, orgId, role: 'owner' } }),
    prisma.token.create({
      data: {
        id: generateId(),
        userId: adminUserId,
        kind: 'personal',
        name: 'admin',
        description: adminToken ? 'set by ADMIN_TOKEN' : 'created at first start',
        secretHash: hashTokenSecret(secret),
      },
    }),
  ]);
  return { orgId, adminUserId, ...(adminToken ? {} : { generatedToken: secret }) };
}

async function ensurePersonalToken(prisma: PrismaClient, userId: string, secret: string) {
  const secretHash = hashTokenSecret(secret);
  const existing = await prisma.token.findUnique({ where: { secretHash } });
  if (existing) {
    // The variable is authoritative: revive it if it was expired or handed to someone else.
    if (existing.userId !== userId || existing.kind !== 'personal' || existing.expiresAt) {
      await prisma.token.update({ where: { id: existing.id }, data: { userId, orgId: null, kind: 'personal', expiresAt: null } });
    }
    return;
  }
  await prisma.token.create({
    data: { id: generateId(), userId, kind: 'personal', name: 'admin', description: 'set by ADMIN_TOKEN', secretHash },
  });
}

/** The bootstrap admin's password follows ADMIN_PASSWORD; a change ends the admin's sessions. */
async function ensureAdminPassword(prisma: PrismaClient, password: string) {
  const admin = await prisma.user.findUnique({ where: { email: BOOTSTRAP_ADMIN_EMAIL }, select: { id: true, passwordHash: true } });
  if (!admin) return;
  if (admin.passwordHash && (await verifyPassword(admin.passwordHash, password))) return;
  const passwordHash = await hashPassword(password);
  await prisma.$transaction([
    prisma.user.update({ where: { id: admin.id }, data: { passwordHash, passwordSetAt: new Date() } }),
    prisma.session.deleteMany({ where: { userId: admin.id } }),
  ]);
}
