import { describe, expect, it } from 'vitest';
import { compileGoLayout } from '../../../src/ingest/go-time-layout';
import { InvalidTimeError } from '../../../src/ingest/timestamp';

const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
const receivedAt = new Date('2025-06-15T12:00:00Z');
const parse = (layout: string, text: string) => compileGoLayout(layout)(text, receivedAt);

describe('timestamp-format with Go layouts', () => {
  it('reads a layout written with the reference time', () => {
    expect(parse('02/01/2006 15:04:05', '24/12/2023 18:30:00')).toBe(ns('2023-12-24T18:30:00Z'));
    expect(parse('2006-01-02 15:04:05 -0700', '2023-12-24 18:30:00 +0200')).toBe(ns('2023-12-24T16:30:00Z'));
    expect(parse('Jan 2, 2006 at 3:04pm (MST)', 'Feb 3, 2013 at 7:54pm (PST)')).toBe(ns('2013-02-03T19:54:00Z'));
  });

  it('knows the names of Go predefined layouts', () => {
    expect(parse('RFC3339', '2024-01-02T03:04:05+01:00')).toBe(ns('2024-01-02T02:04:05Z'));
    expect(parse('RFC3339Nano', '2024-01-02T03:04:05.123456789Z')).toBe(ns('2024-01-02T03:04:05Z') + 123_456_789n);
    expect(parse('RFC1123Z', 'Tue, 02 Jan 2024 03:04:05 -0500')).toBe(ns('2024-01-02T08:04:05Z'));
    expect(parse('RFC1123', 'Tue, 02 Jan 2024 03:04:05 GMT')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parse('UnixDate', 'Tue Jan  2 03:04:05 UTC 2024')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parse('RFC822', '02 Jan 24 03:04 UTC')).toBe(ns('2024-01-02T03:04:00Z'));
    expect(parse('RFC850', 'Tuesday, 02-Jan-24 03:04:05 UTC')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parse('DateTime', '2024-01-02 03:04:05')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parse('DateOnly', '2024-01-02')).toBe(ns('2024-01-02T00:00:00Z'));
  });

  it('takes the missing year, or the whole missing date, from the receive time', () => {
    expect(parse('Stamp', 'Mar  4 05:06:07')).toBe(ns('2025-03-04T05:06:07Z'));
    expect(parse('Kitchen', '3:04PM')).toBe(ns('2025-06-15T15:04:00Z'));
    expect(parse('TimeOnly', '00:00:01')).toBe(ns('2025-06-15T00:00:01Z'));
  });

  it('reads fixed and optional fractions, and a fraction the layout does not mention', () => {
    expect(parse('StampMilli', 'Jan  2 03:04:05.007')).toBe(ns('2025-01-02T03:04:05.007Z'));
    expect(parse('2006-01-02 15:04:05.999', '2024-01-02 03:04:05')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parse('2006-01-02 15:04:05.999', '2024-01-02 03:04:05.5')).toBe(ns('2024-01-02T03:04:05.500Z'));
    expect(parse('2006-01-02 15:04:05', '2024-01-02 03:04:05.000000042')).toBe(ns('2024-01-02T03:04:05Z') + 42n);
    expect(parse('15:04:05,000 02.01.2006', '03:04:05,250 02.01.2024')).toBe(ns('2024-01-02T03:04:05.250Z'));
  });

  it('matches month and weekday names without regard to case, and 12-hour clocks', () => {
    expect(parse('January 2 2006', 'DECEMBER 9 2020')).toBe(ns('2020-12-09T00:00:00Z'));
    expect(parse('Monday 02 Jan 2006 03:04 PM', 'friday 05 jan 2024 12:30 AM')).toBe(ns('2024-01-05T00:30:00Z'));
    expect(parse('03:04 PM 2006-01-02', '12:15 PM 2024-01-02')).toBe(ns('2024-01-02T12:15:00Z'));
  });

  it('reads two-digit years as Go does (69 and above in the 1900s)', () => {
    expect(parse('02-01-06', '01-02-69')).toBe(ns('1969-02-01T00:00:00Z'));
    expect(parse('02-01-06', '01-02-68')).toBe(ns('2068-02-01T00:00:00Z'));
  });

  it('reads ISO zones, with Z meaning UTC', () => {
    expect(parse('2006-01-02T15:04:05Z0700', '2024-01-02T03:04:05Z')).toBe(ns('2024-01-02T03:04:05Z'));
    expect(parse('2006-01-02T15:04:05Z0700', '2024-01-02T03:04:05-0130')).toBe(ns('2024-01-02T04:34:05Z'));
  });

  it('reads the day of the year', () => {
    expect(parse('2006-002', '2024-060')).toBe(ns('2024-02-29T00:00:00Z'));
  });

  it('says where text departs from the layout', () => {
    expect(() => parse('2006-01-02', '2024/01/02')).toThrow(/expected "-" at position 5/);
    expect(() => parse('2006-01-02', '2024-01-02 extra')).toThrow(/expected the end of the text/);
    expect(() => parse('Jan 2 2006', 'Foo 2 2024')).toThrow(InvalidTimeError);
    expect(() => parse('2006-01-02', '2024-02-30')).toThrow(/day 30 is out of range/);
  });

  it('refuses a layout without any date or time element', () => {
    expect(() => compileGoLayout('yyyy-mm-dd')).toThrow(/has no date or time elements/);
  });
});
