// A single sign-on in progress, between leaving for the provider and coming back: its state,
// nonce, PKCE verifier and where to land afterwards. It travels sealed (AES-256-GCM under an
// installation-wide key, so any instance can finish what another began, and nobody can read or
// alter it) with an expiry, and each state is accepted once by this instance.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to land after signing in: a path under /app/. */
  next: string;
  /** Epoch milliseconds after which the sign-in must start again. */
  expiresAt: number;
}

/** How long someone may spend at the provider before the sign-in must start again. */
export const PENDING_SIGN_IN_TTL_MS = 10 * 60_000;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new random key for `PendingSignInSeal`, as stored text. */
export function newSealKey(): string {
  return randomBytes(32).toString('base64url');
}

export class PendingSignInSeal {
  private readonly key: Buffer;

  constructor(keyText: string) {
    this.key = Buffer.from(keyText, 'base64url');
    if (this.key.length !== 32) throw new Error('the single sign-on seal key must be 32 bytes');
  }

  seal(pending: PendingSignIn): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(pending), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The sealed sign-in, or undefined when the text was altered, sealed under another key or expired. */
  open(sealed: string, now = Date.now()): PendingSignIn | undefined {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
    const pending = JSON.parse(text) as PendingSignIn;
    return pending.expiresAt > now ? pending : undefined;
  }
}

/**
 * The states of sign-ins already finished (or attempted) here, kept until they would have
 * expired anyway, so a replayed callback is refused. Bounded: past `capacity` the oldest go
 * (their codes are single-use at the provider as well).
 */
export class UsedStates {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly capacity = 10_000) {}

  /** Records the state; false when it was recorded already. */
  claim(state: string, expiresAt: number, now = Date.now()): boolean {
    this.forgetExpired(now);
    if (this.expiries.has(state)) return false;
    if (this.expiries.size >= this.capacity) this.expiries.delete(this.expiries.keys().next().value!);
    this.expiries.set(state, expiresAt);
    return true;
  }

  private forgetExpired(now: number) {
    // Insertion order is nearly expiry order (every entry lives as long), so stop at the first live one.
    for (const [state, expiresAt] of this.expiries) {
      if (expiresAt > now) break;
      this.expiries.delete(state);
    }
  }
}
