// Slows down password guessing: failed sign-ins are counted per client address and per account
// over a fixed window, and once either count reaches its limit further attempts are refused
// until the window ends. Counts live in memory, in a bounded map (the oldest entries go first),
// so a flood of distinct addresses or emails cannot grow it without limit.
import { DomainError } from '../errors';

export const LOGIN_WINDOW_MS = 15 * 60_000;
const MAX_ENTRIES = 10_000;

interface Window {
  failures: number;
  startedAt: number;
}

/** Counts failures per key within a window, in a map of bounded size. */
class FailureCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  waitFor(key: string, now: number): number {
    const window = this.windows.get(key);
    if (!window) return 0;
    const endsAt = window.startedAt + this.windowMs;
    if (endsAt <= now) {
      this.windows.delete(key);
      return 0;
    }
    return window.failures >= this.limit ? endsAt - now : 0;
  }

  fail(key: string, now: number): void {
    const window = this.windows.get(key);
    if (window && window.startedAt + this.windowMs > now) {
      window.failures += 1;
      return;
    }
    this.windows.delete(key);
    if (this.windows.size >= MAX_ENTRIES) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(key, { failures: 1, startedAt: now });
  }

  reset(key: string): void {
    this.windows.delete(key);
  }
}

export interface LoginLimits {
  failuresPerAddress: number;
  failuresPerAccount: number;
}

export class LoginRateLimiter {
  private readonly byAddress: FailureCounter;
  private readonly byAccount: FailureCounter;
  clock: () => number = Date.now;

  constructor(limits: LoginLimits, windowMs = LOGIN_WINDOW_MS) {
    this.byAddress = new FailureCounter(limits.failuresPerAddress, windowMs);
    this.byAccount = new FailureCounter(limits.failuresPerAccount, windowMs);
  }

  /** Throws `rate_limited` (with the seconds to wait in its details) when either limit is reached. */
  check(address: string, email: string): void {
    const now = this.clock();
    const wait = Math.max(this.byAddress.waitFor(address, now), this.byAccount.waitFor(accountKey(email), now));
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw rateLimitedFor(seconds);
    }
  }

  failed(address: string, email: string): void {
    const now = this.clock();
    this.byAddress.fail(address, now);
    this.byAccount.fail(accountKey(email), now);
  }

  /** A successful sign-in clears the account's count (not the address's). */
  succeeded(email: string): void {
    this.byAccount.reset(accountKey(email));
  }
}

function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

function rateLimitedFor(seconds: number): DomainError {
  return new DomainError('rate_limited', `too many failed sign-ins: try again in ${seconds} seconds`, { retryAfterSeconds: seconds });
}
