// Span times to the nanosecond: the server writes instants in RFC 3339 with up to nine fraction
// digits and lengths as Go durations ("250.000123ms"), finer than a JavaScript Date keeps. An
// instant is kept as milliseconds since the epoch plus the nanoseconds inside that millisecond,
// so the distance between two of them is exact.

export interface Instant {
  ms: number;
  nanosInMs: number;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

// The spans of a trace mostly share their second: its milliseconds are looked up once.
let lastSecondText = '';
let lastSecondMs = 0;

/** Digits from `from` to `to` (exclusive) as a number, or -1 when one is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The server's own form, `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, read without a regular expression. */
function parseUtcInstant(value: string): Instant | undefined {
  const length = value.length;
  if (length < 20 || length > 30 || value.charCodeAt(length - 1) !== 90 /* Z */ || value.charCodeAt(10) !== 84 /* T */) return undefined;
  const secondText = value.slice(0, 19);
  if (secondText !== lastSecondText) {
    const ms = Date.parse(`${secondText}Z`);
    if (Number.isNaN(ms)) return undefined;
    lastSecondText = secondText;
    lastSecondMs = ms;
  }
  if (length === 20) return { ms: lastSecondMs, nanosInMs: 0 };
  if (value.charCodeAt(19) !== 46 /* . */ || length === 21) return undefined;
  const fraction = digitsAt(value, 20, length - 1);
  if (fraction < 0) return undefined;
  const nanos = fraction * 10 ** (9 - (length - 21));
  const msInSecond = Math.floor(nanos / 1e6);
  return { ms: lastSecondMs + msInSecond, nanosInMs: nanos - msInSecond * 1e6 };
}

export function parseInstant(value: unknown): Instant | undefined {
  if (typeof value !== 'string') return undefined;
  const fast = parseUtcInstant(value);
  if (fast) return fast;
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
  const fast = parseSingleUnitDuration(value);
  if (fast !== undefined) return fast;
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

/** The usual span length, one number and one unit ("12.345678ms", "850µs", "2s"), read without a regular expression. */
function parseSingleUnitDuration(value: string): number | undefined {
  let end = value.length;
  while (end > 0 && !(value.charCodeAt(end - 1) >= 48 && value.charCodeAt(end - 1) <= 57)) end--;
  const unitText = value.slice(end);
  if (end === 0 || !Object.hasOwn(UNIT_NANOS, unitText)) return undefined;
  const unit = UNIT_NANOS[unitText]!;
  const dot = value.indexOf('.');
  const wholeEnd = dot === -1 || dot > end ? end : dot;
  const whole = digitsAt(value, 0, wholeEnd);
  if (whole < 0 || wholeEnd === 0) return undefined;
  if (wholeEnd === end) return whole * unit;
  const fractionLength = end - wholeEnd - 1;
  // More digits than a double holds exactly: the general reader handles it.
  if (fractionLength === 0 || fractionLength > 15) return undefined;
  const fraction = digitsAt(value, wholeEnd + 1, end);
  if (fraction < 0) return undefined;
  return whole * unit + Math.round((fraction * unit) / 10 ** fractionLength);
}
