import { describe, expect, it } from 'vitest';
import {
  epochUnit,
  formatNs,
  InvalidTimeError,
  parseEpochText,
  parseIsoDateTime,
  parseTimeValue,
  parseUtcDateTimeFast,
} from '../../../src/ingest/timestamp';

const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

describe('RFC 3339 and ISO 8601 times', () => {
  it('reads RFC 3339 with Z and keeps all nine fraction digits', () => {
    expect(parseTimeValue('2024-01-02T03:04:05.123456789Z')).toBe(ns('2024-01-02T03:04:05Z') + 123_456_789n);
  });

  it('reads short fractions as fractions of a second and drops digits past nanoseconds', () => {
    expect(parseTimeValue('2024-01-02T03:04:05.5Z')).toBe(ns('2024-01-02T03:04:05.500Z'));
    expect(parseTimeValue('2024-01-02T03:04:05.1234567891234Z')).toBe(ns('2024-01-02T03:04:05Z') + 123_456_789n);
  });

  it('applies numeric offsets in every written form', () => {
    const utc = ns('2024-01-02T01:04:05Z');
    expect(parseTimeValue('2024-01-02T03:04:05+02:00')).toBe(utc);
    expect(parseTimeValue('2024-01-02T03:04:05+0200')).toBe(utc);
    expect(parseTimeValue('2024-01-02T03:04:05+02')).toBe(utc);
    expect(parseTimeValue('2024-01-01T23:34:05-01:30')).toBe(utc);
  });

  it('accepts lower-case t and z, a space separator, UTC, and no zone (UTC)', () => {
    const expected = ns('2024-01-02T03:04:05Z');
    expect(parseTimeValue('2024-01-02t03:04:05z')).toBe(expected);
    expect(parseTimeValue('2024-01-02 03:04:05')).toBe(expected);
    expect(parseTimeValue('2024-01-02 03:04:05 UTC')).toBe(expected);
    expect(parseTimeValue('2024-01-02T03:04:05')).toBe(expected);
  });

  it('accepts ISO 8601 basic form, minutes-only times and dates alone', () => {
    expect(parseTimeValue('20240102T030405Z')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parseTimeValue('20240102T030405.25+0100')).toBe(ns('2024-01-02T02:04:05.250Z'));
    expect(parseTimeValue('2024-01-02T03:04Z')).toBe(ns('2024-01-02T03:04:00Z'));
    expect(parseTimeValue('2024-01-02')).toBe(ns('2024-01-02T00:00:00Z'));
  });

  it('handles dates before 1970 and leap days', () => {
    expect(parseTimeValue('1969-12-31T23:59:59.5Z')).toBe(-500_000_000n);
    expect(parseTimeValue('2024-02-29T00:00:00Z')).toBe(ns('2024-02-29T00:00:00Z'));
  });

  it('refuses impossible dates and times', () => {
    for (const text of ['2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-32', '2024-01-01T24:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T00:00:00+25:00']) {
      expect(() => parseTimeValue(text), text).toThrow(InvalidTimeError);
    }
  });

  it('returns undefined for text of another shape, so callers can try other forms', () => {
    expect(parseIsoDateTime('yesterday')).toBeUndefined();
    expect(parseIsoDateTime('02/01/2024')).toBeUndefined();
  });
});

describe('the fast path for YYYY-MM-DDTHH:MM:SS[.f]Z', () => {
  it('agrees with the general parser on every fraction length and across dates', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const iso = new Date(Date.UTC(1900, 0, 1) + Math.floor(next() * 300 * 365.25 * 86_400_000)).toISOString().slice(0, 19);
      const digits = Math.floor(next() * 10);
      const fraction = digits === 0 ? '' : `.${String(Math.floor(next() * 10 ** digits)).padStart(digits, '0')}`;
      const text = `${iso}${fraction}Z`;
      expect(parseUtcDateTimeFast(text), text).toBe(parseIsoDateTime(text));
    }
  });

  it('leaves other shapes and impossible dates to the general parser', () => {
    expect(parseUtcDateTimeFast('2024-01-02T03:04:05+01:00')).toBeUndefined();
    expect(parseUtcDateTimeFast('2024-01-02 03:04:05Z')).toBeUndefined();
    expect(parseUtcDateTimeFast('2024-01-02T03:04:05.Z')).toBeUndefined();
    expect(parseUtcDateTimeFast('2023-02-29T00:00:00Z')).toBeUndefined();
    expect(() => parseTimeValue('2023-02-29T00:00:00Z')).toThrow(/day 29 is out of range/);
  });
});

describe('epoch times, unit by magnitude', () => {
  const second = 1_704_164_645n; // 2024-01-02T03:04:05Z

  it('picks seconds, milliseconds, microseconds and nanoseconds by size', () => {
    expect(epochUnit(1_704_164_645)).toBe('s');
    expect(epochUnit(1_704_164_645_123)).toBe('ms');
    expect(epochUnit(1_704_164_645_123_456)).toBe('us');
    expect(epochUnit(1_704_164_645_123_456_789)).toBe('ns');
    expect(epochUnit(99_999_999_999)).toBe('s');
    expect(epochUnit(100_000_000_000)).toBe('ms');
  });

  it('reads numbers in each unit', () => {
    expect(parseTimeValue(1_704_164_645)).toBe(second * 1_000_000_000n);
    expect(parseTimeValue(1_704_164_645_123)).toBe(second * 1_000_000_000n + 123_000_000n);
    expect(parseTimeValue(1_704_164_645_123_456)).toBe(second * 1_000_000_000n + 123_456_000n);
    // A nanosecond number above 2^53 arrives already rounded by JSON; it still lands within a microsecond.
    const fromNumber = parseTimeValue(1_704_164_645_123_456_789);
    expect(Number(fromNumber - (second * 1_000_000_000n + 123_456_789n))).toBeLessThan(1000);
  });

  it('reads fractional seconds and milliseconds', () => {
    expect(parseTimeValue(1_704_164_645.25)).toBe(second * 1_000_000_000n + 250_000_000n);
    expect(parseTimeValue(1_704_164_645_123.5)).toBe(second * 1_000_000_000n + 123_500_000n);
  });

  it('reads digit strings exactly, nanoseconds included', () => {
    expect(parseTimeValue('1704164645')).toBe(second * 1_000_000_000n);
    expect(parseTimeValue('1704164645123')).toBe(second * 1_000_000_000n + 123_000_000n);
    expect(parseTimeValue('1704164645123456')).toBe(second * 1_000_000_000n + 123_456_000n);
    expect(parseTimeValue('1704164645123456789')).toBe(second * 1_000_000_000n + 123_456_789n);
    expect(parseTimeValue('1704164645.123456789')).toBe(second * 1_000_000_000n + 123_456_789n);
    expect(parseEpochText('-1.5')).toBe(-1_500_000_000n);
  });

  it('refuses values outside what TIMESTAMP_NS can hold', () => {
    expect(() => parseTimeValue(99_999_999_999)).toThrow(/outside the storable range/);
    expect(() => parseTimeValue('3000-01-01T00:00:00Z')).toThrow(/outside the storable range/);
  });
});

describe('other values', () => {
  it('names what was wrong with values that are not times', () => {
    expect(() => parseTimeValue('not a time')).toThrow('"not a time" is neither RFC 3339 / ISO 8601 nor an epoch');
    expect(() => parseTimeValue(true)).toThrow('expected a string or a number, got a boolean');
    expect(() => parseTimeValue({ at: 1 })).toThrow('got an object');
  });

  it('formats nanoseconds back as RFC 3339', () => {
    expect(formatNs(ns('2024-01-02T03:04:05Z') + 123_456_789n)).toBe('2024-01-02T03:04:05.123456789Z');
    expect(formatNs(ns('2024-01-02T03:04:05.120Z'))).toBe('2024-01-02T03:04:05.120Z');
    expect(formatNs(-500_000_000n)).toBe('1969-12-31T23:59:59.500Z');
  });
});
