// Passwords for signing in to the console: argon2id (19 MiB, 2 passes, 1 lane, the parameters
// OWASP recommends; about 25 ms per hash here). Checking an unknown account verifies against a
// dummy hash, so it costs what a wrong password costs and does not reveal which emails exist.
import { hash, verify } from '@node-rs/argon2';
import { invalidInput } from '../errors';

export const MIN_PASSWORD_LENGTH = 8;
/** Longer passwords are refused so a request cannot make hashing arbitrarily slow. */
export const MAX_PASSWORD_LENGTH = 1024;

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot import)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/** Throws `invalid_input` when the password is too short or too long. */
export function checkPasswordRules(password: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw invalidInput(`the password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidInput(`the password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
}

export function hashPassword(password: string): Promise<string> {
  checkPasswordRules(password);
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * True when `password` matches `passwordHash`; with no hash (unknown user, or a user without a
 * password) the same work is done against a dummy hash and the answer is false.
 */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  const candidate = password.length > MAX_PASSWORD_LENGTH ? password.slice(0, MAX_PASSWORD_LENGTH) : password;
  if (!passwordHash) {
    dummyHash ??= hash('not a password of anyone', OPTIONS);
    await verify(await dummyHash, candidate).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, candidate);
  } catch {
    return false;
  }
}
