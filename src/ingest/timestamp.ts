// Reads an event's time into nanoseconds since the Unix epoch (UTC), the unit of `_time`.
// Accepted: RFC 3339 and ISO 8601 date-times (extended or basic form, date only, any number of
// fraction digits of which nine are kept, `Z`, `UTC` or a numeric offset; no offset means UTC),
// and epoch numbers or digit strings whose unit follows from their magnitude (see `epochUnit`).

export class InvalidTimeError extends Error {
  override name = 'InvalidTimeError';
}

const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND;

// DuckDB's TIMESTAMP_NS is an int64 of nanoseconds whose two extremes mean ±infinity, so about
// 1677-09-21 to 2262-04-11.
const MIN_NS = -9_223_372_036_854_775_806n;
const MAX_NS = 9_223_372_036_854_775_806n;

export function checkTimeRange(ns: bigint): bigint {
  if (ns < MIN_NS || ns > MAX_NS) throw new InvalidTimeError('time is outside the storable range (years 1678 to 2261)');
  return ns;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = month > 2 ? month - 3 : month + 9;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Nanoseconds within the second. */
  nanosecond: number;
  /** Offset east of UTC, in seconds. */
  offsetSeconds: number;
}

/** Nanoseconds since the epoch of a validated civil time. */
export function civilToNs(time: CivilTime): bigint {
  const { year, month, day, hour, minute, second, nanosecond, offsetSeconds } = time;
  if (month < 1 || month > 12) throw new InvalidTimeError(`month ${month} is out of range`);
  if (day < 1 || day > daysInMonth(year, month)) throw new InvalidTimeError(`day ${day} is out of range for the month`);
  if (hour > 23) throw new InvalidTimeError(`hour ${hour} is out of range`);
  if (minute > 59) throw new InvalidTimeError(`minute ${minute} is out of range`);
  // 60 is a leap second (RFC 3339 allows it); it lands on the next minute's first second.
  if (second > 60) throw new InvalidTimeError(`second ${second} is out of range`);
  const seconds = hour * 3600 + minute * 60 + second - offsetSeconds;
  const ns = BigInt(daysFromCivil(year, month, day)) * NS_PER_DAY + BigInt(seconds) * NS_PER_SECOND + BigInt(nanosecond);
  return checkTimeRange(ns);
}

/** Reads up to nine fraction digits as nanoseconds ("5" is 500 ms); further digits are dropped. */
export function fractionToNs(digits: string | undefined): number {
  if (!digits) return 0;
  return Number(digits.slice(0, 9).padEnd(9, '0'));
}

/** Parses `Z`, `z`, `UTC`, `GMT`, `+hh`, `+hhmm` or `+hh:mm` (and `-`) into seconds east of UTC. */
export function parseOffset(zone: string | undefined): number {
  if (!zone || zone === 'Z' || zone === 'z' || zone === 'UTC' || zone === 'GMT') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) throw new InvalidTimeError(`offset ${zone} is out of range`);
  return sign * (hours * 3600 + minutes * 60);
}

const EXTENDED_DATE_TIME =
  /^([+-]?\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s?(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?$/;
const BASIC_DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:[Tt](\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?(Z|z|[+-]\d{2}(?:\d{2})?)?)?$/;

/** Parses an RFC 3339 / ISO 8601 date-time; undefined when the text has another shape. */
export function parseIsoDateTime(text: string): bigint | undefined {
  const match = EXTENDED_DATE_TIME.exec(text) ?? (text.length >= 8 && text.length <= 40 ? BASIC_DATE_TIME.exec(text) : null);
  if (!match) return undefined;
  return civilToNs({
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: match[4] ? Number(match[4]) : 0,
    minute: match[5] ? Number(match[5]) : 0,
    second: match[6] ? Number(match[6]) : 0,
    nanosecond: fractionToNs(match[7]),
    offsetSeconds: parseOffset(match[8]),
  });
}

export type EpochUnit = 's' | 'ms' | 'us' | 'ns';

const NS_PER_UNIT: Record<EpochUnit, bigint> = { s: 1_000_000_000n, ms: 1_000_000n, us: 1_000n, ns: 1n };
const DIGITS_PER_UNIT: Record<EpochUnit, number> = { s: 9, ms: 6, us: 3, ns: 0 };

/**
 * The unit of an epoch number, from the size of its whole part: below 1e11 seconds (up to the
 * year 5138), below 1e14 milliseconds, below 1e17 microseconds, nanoseconds above. So a
 * millisecond epoch before 1973-03-03 reads as seconds; send such old times as RFC 3339 text.
 */
export function epochUnit(magnitude: number): EpochUnit {
  if (magnitude < 1e11) return 's';
  if (magnitude < 1e14) return 'ms';
  if (magnitude < 1e17) return 'us';
  return 'ns';
}

export function epochNumberToNs(value: number): bigint {
  if (!Number.isFinite(value)) throw new InvalidTimeError('time is not a finite number');
  const unit = epochUnit(Math.abs(value));
  const whole = Math.trunc(value);
  const fraction = value - whole;
  let ns = BigInt(whole) * NS_PER_UNIT[unit];
  if (fraction !== 0 && unit !== 'ns') ns += BigInt(Math.round(fraction * Number(NS_PER_UNIT[unit])));
  return checkTimeRange(ns);
}

const EPOCH_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Parses an epoch written as digits, exactly (no floating point); undefined for other text. */
export function parseEpochText(text: string): bigint | undefined {
  const match = EPOCH_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, wholeDigits, fractionDigits] = match as unknown as [string, string, string, string | undefined];
  const unit = epochUnit(Number(wholeDigits));
  let ns = BigInt(wholeDigits) * NS_PER_UNIT[unit];
  const keep = DIGITS_PER_UNIT[unit];
  if (fractionDigits && keep > 0) ns += BigInt(fractionDigits.slice(0, keep).padEnd(keep, '0'));
  return checkTimeRange(sign === '-' ? -ns : ns);
}

const digitAt = (text: string, index: number) => text.charCodeAt(index) - 48;
const twoDigits = (text: string, index: number) => digitAt(text, index) * 10 + digitAt(text, index + 1);
const isDigitCode = (code: number) => code >= 48 && code <= 57;

// Events of one batch mostly share a date; remember the last one's start in nanoseconds.
let lastDate = '';
let lastDateNs = 0n;

/**
 * The most common form, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read without a regular expression;
 * undefined for any other shape (the general parser then decides).
 */
export function parseUtcDateTimeFast(text: string): bigint | undefined {
  const length = text.length;
  if (length < 20 || length > 30 || text.charCodeAt(length - 1) !== 90 /* Z */) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return undefined;
  }
  for (const index of [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]) if (!isDigitCode(text.charCodeAt(index))) return undefined;
  let nanosecond = 0;
  if (length > 20) {
    if (text.charCodeAt(19) !== 46 /* . */ || length === 21) return undefined;
    let scale = 100_000_000;
    for (let index = 20; index < length - 1; index++) {
      const code = text.charCodeAt(index);
      if (!isDigitCode(code)) return undefined;
      nanosecond += (code - 48) * scale;
      scale /= 10;
    }
    nanosecond = Math.floor(nanosecond);
  }
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const date = text.slice(0, 10);
  if (date !== lastDate) {
    const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
    const month = twoDigits(text, 5);
    const day = twoDigits(text, 8);
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
    lastDateNs = BigInt(daysFromCivil(year, month, day)) * NS_PER_DAY;
    lastDate = date;
  }
  return checkTimeRange(lastDateNs + BigInt((hour * 3600 + minute * 60 + second) * 1e9 + nanosecond));
}

/**
 * Reads a time value as sent in an event (string or number); throws InvalidTimeError. A bigint
 * is already nanoseconds since the epoch: parsers of binary formats hand times over that way.
 */
export function parseTimeValue(value: unknown): bigint {
  if (typeof value === 'number') return epochNumberToNs(value);
  if (typeof value === 'bigint') return checkTimeRange(value);
  if (typeof value === 'string') {
    const fast = parseUtcDateTimeFast(value);
    if (fast !== undefined) return fast;
    const text = value.trim();
    const ns = parseEpochText(text) ?? parseIsoDateTime(text);
    if (ns === undefined) throw new InvalidTimeError(`"${abbreviate(text)}" is neither RFC 3339 / ISO 8601 nor an epoch`);
    return ns;
  }
  throw new InvalidTimeError(`expected a string or a number, got ${describeType(value)}`);
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function abbreviate(text: string, max = 64): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** RFC 3339 text with nanoseconds, for failure reports and tests. */
export function formatNs(ns: bigint): string {
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  const iso = new Date(Number(ms)).toISOString();
  const subMs = ((ns % 1_000_000n) + 1_000_000n) % 1_000_000n;
  if (subMs === 0n) return iso;
  return `${iso.slice(0, -1)}${subMs.toString().padStart(6, '0').replace(/0+$/, '')}Z`;
}
