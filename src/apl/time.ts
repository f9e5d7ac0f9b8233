// Time values as the engine sees them: instants and durations in integer nanoseconds (bigint),
// so the nanosecond precision of `_time` survives parsing, arithmetic and formatting.
import { nanosPerTimespanUnit, timespanNanos } from './syntax/lexer';

export const NANOS_PER_MILLI = 1_000_000n;
export const NANOS_PER_SECOND = 1_000_000_000n;
export const NANOS_PER_MINUTE = 60n * NANOS_PER_SECOND;
export const NANOS_PER_HOUR = 60n * NANOS_PER_MINUTE;
export const NANOS_PER_DAY = 24n * NANOS_PER_HOUR;

const ISO_PATTERN =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9})\d*)?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

/** Days from 1970-01-01 to a proleptic Gregorian date (no Date object, so no range limits). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Parses an ISO 8601 / RFC 3339 date-time (UTC unless an offset is given) to epoch nanoseconds. */
export function parseDateTime(text: string): bigint | undefined {
  const match = ISO_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const days = daysFromCivil(Number(y), month, day);
  let nanos =
    BigInt(days) * NANOS_PER_DAY +
    BigInt(hour) * NANOS_PER_HOUR +
    BigInt(minute) * NANOS_PER_MINUTE +
    BigInt(second) * NANOS_PER_SECOND +
    BigInt(fraction.padEnd(9, '0') || '0');
  if (zone && zone !== 'Z' && zone !== 'z' && zone !== 'UTC') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    const digits = zone.slice(1).replace(':', '');
    const offset = BigInt(Number(digits.slice(0, 2))) * NANOS_PER_HOUR + BigInt(Number(digits.slice(2) || '0')) * NANOS_PER_MINUTE;
    nanos -= sign * offset;
  }
  return nanos;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const MIN_FAST_SECONDS = -62_167_219_200; // 0000-01-01
const MAX_FAST_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59
let cachedDay = Number.NaN;
let cachedDayText = '';

/** The fraction of a second as ".123456789" with trailing zeros trimmed, or nothing. */
function fractionText(nanos: number): string {
  if (nanos === 0) return '';
  let digits = 9;
  while (nanos % 10 === 0) {
    nanos /= 10;
    digits--;
  }
  return `.${String(nanos).padStart(digits, '0')}`;
}

/** RFC 3339 with nanoseconds and trailing zeros trimmed, as Go's time.RFC3339Nano prints it. */
export function formatDateTime(nanos: bigint): string {
  // Results carry thousands of timestamps: split once into seconds and nanoseconds, and
  // reuse the text of the day, which neighbouring rows usually share.
  let whole = nanos / NANOS_PER_SECOND;
  let fraction = Number(nanos - whole * NANOS_PER_SECOND);
  if (fraction < 0) {
    fraction += 1_000_000_000;
    whole -= 1n;
  }
  const seconds = Number(whole);
  if (seconds < MIN_FAST_SECONDS || seconds > MAX_FAST_SECONDS) return formatDateTimeSlow(nanos);
  const day = Math.floor(seconds / 86_400);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayText = new Date(day * 86_400_000).toISOString().slice(0, 10);
  }
  const time = seconds - day * 86_400;
  const hours = Math.floor(time / 3600);
  const minutes = Math.floor((time % 3600) / 60);
  return `${cachedDayText}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[time % 60]}${fractionText(fraction)}Z`;
}

function formatDateTimeSlow(nanos: bigint): string {
  let days = nanos / NANOS_PER_DAY;
  let rest = nanos % NANOS_PER_DAY;
  if (rest < 0n) {
    rest += NANOS_PER_DAY;
    days -= 1n;
  }
  const { year, month, day } = civilFromDays(Number(days));
  const seconds = Number(rest / NANOS_PER_SECOND);
  const fraction = rest % NANOS_PER_SECOND;
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = seconds % 60;
  const fractionText = fraction === 0n ? '' : '.' + fraction.toString().padStart(9, '0').replace(/0+$/, '');
  const yearText = year >= 0 && year <= 9999 ? pad(year, 4) : String(year);
  return `${yearText}-${pad(month)}-${pad(day)}T${pad(hh)}:${pad(mm)}:${pad(ss)}${fractionText}Z`;
}

/** A duration printed the way Go prints time.Duration ("1h30m0s", "1.5s", "250ms"). */
export function formatTimespan(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  let rest = nanos < 0n ? -nanos : nanos;
  const fractionOf = (value: bigint, unit: bigint, digits: number) => {
    const whole = value / unit;
    const fraction = (value % unit).toString().padStart(digits, '0').replace(/0+$/, '');
    return fraction ? `${whole}.${fraction}` : `${whole}`;
  };
  if (rest < 1_000n) return `${sign}${rest}ns`;
  if (rest < 1_000_000n) return `${sign}${fractionOf(rest, 1_000n, 3)}µs`;
  if (rest < NANOS_PER_SECOND) return `${sign}${fractionOf(rest, 1_000_000n, 6)}ms`;
  const hours = rest / NANOS_PER_HOUR;
  rest %= NANOS_PER_HOUR;
  const minutes = rest / NANOS_PER_MINUTE;
  rest %= NANOS_PER_MINUTE;
  const seconds = fractionOf(rest, NANOS_PER_SECOND, 9);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

const DURATION_PART = /(\d+(?:\.\d+)?)\s*([A-Za-zµ]+)/y;

/** A duration such as "1h", "90s", "1h30m" or "1.5d" (Go and Kusto units, plus `w` for weeks). */
export function parseDuration(text: string): bigint | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  let total = 0n;
  DURATION_PART.lastIndex = 0;
  let consumed = 0;
  for (;;) {
    const match = DURATION_PART.exec(trimmed);
    if (!match) break;
    const unit = match[2]!;
    const nanos = unit === 'w' ? 7n * NANOS_PER_DAY : nanosPerTimespanUnit(unit);
    if (nanos === undefined) return undefined;
    total += timespanNanos(match[1]!, nanos);
    consumed = DURATION_PART.lastIndex;
  }
  return consumed === trimmed.length ? total : undefined;
}

/**
 * A request time: RFC 3339, or relative to now as Axiom accepts it (`now`, `now-1h`,
 * `now-1d`, `now-1w`, `now+30m`, `now-1h30m`).
 */
export function parseRequestTime(text: string, nowNanos: bigint): bigint | undefined {
  const trimmed = text.trim();
  const relative = /^now\s*(?:([+-])\s*(.+))?$/i.exec(trimmed);
  if (relative) {
    if (!relative[1]) return nowNanos;
    const span = parseDuration(relative[2]!);
    if (span === undefined) return undefined;
    return relative[1] === '-' ? nowNanos - span : nowNanos + span;
  }
  return parseDateTime(trimmed);
}

export function nowNanos(): bigint {
  return BigInt(Date.now()) * NANOS_PER_MILLI;
}
