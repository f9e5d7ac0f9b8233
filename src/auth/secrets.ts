// Token secrets and identifiers. Secrets are random (122 bits), shown once, and stored only as
// a SHA-256 digest: high-entropy secrets need no slow hash, and lookups stay a single indexed read.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export type TokenKind = 'personal' | 'api';

const PREFIX: Record<TokenKind, string> = { personal: 'xapt-', api: 'xaat-' };

export function generateTokenSecret(kind: TokenKind): string {
  return `${PREFIX[kind]}${randomUUID()}`;
}

export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateId(): string {
  return randomUUID();
}

/** A readable, unique organization id: the name's slug plus a short random suffix. */
export function generateOrgId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${slug || 'org'}-${randomBytes(3).toString('hex')}`;
}
