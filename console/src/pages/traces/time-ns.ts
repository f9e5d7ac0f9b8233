// Span times to the nanosecond: the server writes instants in RFC 3339 with up to nine fraction
// digits and lengths as Go durations ("250.000123ms"), finer than a JavaScript Date keeps. An
// instant is kept as milliseconds since the epoch plus the nanoseconds inside that millisecond,
// so the distance between two of them is exact.

export interface Instant {
  ms: number;
  nanosInMs: number;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

export function parseInstant(value: unknown): Instant | undefined {
  if (typeof value !== 'string') return undefined;
  const match = RFC3339.exec(value);
  if (!match) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : { ms, nanosInMs: 0 };
  }
  const seconds = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(seconds)) return undefined;
  const digits = (match[2] ?? '').padEnd(9, '0');
  return { ms: seconds + Number(digits.slice(0, 3)), nanosInMs: Number(digits.slice(3)) };
}

/** Nanoseconds from `from` to `to` (negative when `to` is earlier). */
export function nanosBetween(from: Instant, to: Instant): number {
  return (to.ms - from.ms) * 1_000_000 + (to.nanosInMs - from.nanosInMs);
}

const UNIT_NANOS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const GO_DURATION = /^(-)?((?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const GO_DURATION_PART = /(\d+)(?:\.(\d+))?(ns|us|µs|μs|ms|s|m|h)/g;

/** Nanoseconds of a Go duration ("1h2m3.5s", "250.000123ms", "0s"), or of a number taken as nanoseconds. */
export function parseDurationNanos(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = GO_DURATION.exec(value.trim());
  if (!match) return undefined;
  let total = 0;
  for (const part of match[2]!.matchAll(GO_DURATION_PART)) {
    const unit = UNIT_NANOS[part[3]!]!;
    const fraction = part[2] ?? '';
    // Whole and fraction apart, so "250.000123ms" is 250000123 exactly.
    total += Number(part[1]) * unit + (fraction ? Math.round((Number(fraction) * unit) / 10 ** fraction.length) : 0);
  }
  return match[1] ? -total : total;
}
