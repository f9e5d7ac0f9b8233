// Go-style durations as Axiom's API takes them (`maxDuration: "1h30m"`): a sequence of
// number+unit pairs with units ns, us/µs, ms, s, m, h, and d for days.
import { invalidInput } from '../errors';

const NANOS_PER_UNIT: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86_400e9,
};

/** The longest duration accepted: a century, far past any retention and inside every date range. */
export const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/** Returns the duration in milliseconds (fractions kept). */
export function parseDuration(text: string, field = 'duration'): number {
  const trimmed = text.trim();
  const pattern = /(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = pattern.exec(trimmed); match; match = pattern.exec(trimmed)) {
    total += Number(match[1]) * NANOS_PER_UNIT[match[2]!]!;
    consumed = pattern.lastIndex;
  }
  if (trimmed === '' || consumed !== trimmed.length) {
    throw invalidInput(`${field} "${text}" is not a duration such as "30m", "1h30m" or "7d"`);
  }
  if (!(total / 1e6 <= MAX_DURATION_MS)) throw invalidInput(`${field} "${text}" is longer than the longest duration accepted, 876000h (100 years)`);
  return total / 1e6;
}
