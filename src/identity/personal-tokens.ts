// Personal tokens issued to a member by an operator (`npm run admin -- token`), without the API:
// the token acts for the user in every organization they belong to, with their role there.
import { generateId, generateTokenSecret, hashTokenSecret } from '../auth/secrets';
import type { PrismaClient } from '../db/store';
import { notFound } from '../errors';

/** Creates a personal token for the member with this email and returns its secret (shown once). */
export async function issuePersonalToken(prisma: PrismaClient, orgId: string, email: string, name = 'issued by npm run admin'): Promise<string> {
  const org = await prisma.organization.findUnique({ where: { id: orgId } });
  if (!org) throw notFound(`organization "${orgId}" not found`);
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const membership = user && (await prisma.membership.findUnique({ where: { userId_orgId: { userId: user.id, orgId } } }));
  if (!user || !membership) throw notFound(`no member with email "${email}" in organization "${orgId}"`);
  const secret = generateTokenSecret('personal');
  await prisma.token.create({
    data: { id: generateId(), userId: user.id, kind: 'personal', name, description: `for ${orgId}`, secretHash: hashTokenSecret(secret) },
  });
  return secret;
}
