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

let lastMillis = 0;
let sequence = 0;

/**
 * A unique id that sorts by creation within this process (48 bits of milliseconds, a counter for
 * ids made in the same millisecond, then 64 random bits), so lists ordered by id follow the
 * order things were made in.
 */
export function generateSortableId(): string {
  const now = Date.now();
  sequence = now === lastMillis ? sequence + 1 : 0;
  lastMillis = now;
  return `${now.toString(16).padStart(12, '0')}${(sequence & 0xffff).toString(16).padStart(4, '0')}${randomBytes(8).toString('hex')}`;
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
