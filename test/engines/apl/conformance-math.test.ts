// Mathematical, rounding, datetime and hash functions; expected values from JS's Math, Date
// and node:crypto, or by hand.
import { createHash } from 'node:crypto';
import { describe } from 'vitest';
import { type FxEvent, perEvent, scalars, useFixture } from '../../helpers/apl/conformance-functions';

const db = useFixture();
const x = (e: FxEvent) => e.x;
const orNull = (e: FxEvent, f: (v: number) => number | null) => (x(e) === undefined ? null : f(x(e)!));

/** Lanczos approximation of the gamma function, for the expected values of gamma(). */
function gamma(z: number): number {
  const g = 7;
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (z < 0.5) return Math.PI / (Math.sin(Math.PI * z) * gamma(1 - z));
  z -= 1;
  let a = c[0]!;
  const t = z + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i]! / (z + i);
  return Math.sqrt(2 * Math.PI) * t ** (z + 0.5) * Math.exp(-t) * a;
}

describe('mathematical functions', () => {
  perEvent(db, [
    ['abs(x)', (e) => orNull(e, Math.abs)],
    ['sign(n)', (e) => (e.n === undefined ? null : Math.sign(e.n) + 0)],
    ['sqrt(x)', (e) => orNull(e, (v) => (v < 0 ? null : Math.sqrt(v)))],
    ['log(x)', (e) => orNull(e, (v) => (v > 0 ? Math.log(v) : null))],
    ['log10(x)', (e) => orNull(e, (v) => (v > 0 ? Math.log10(v) : null))],
    ['log2(x)', (e) => orNull(e, (v) => (v > 0 ? Math.log2(v) : null))],
    ['exp(x / 100)', (e) => orNull(e, (v) => Math.exp(v / 100))],
    ['exp2(x)', (e) => orNull(e, (v) => 2 ** v)],
    ['exp10(x / 100)', (e) => orNull(e, (v) => 10 ** (v / 100))],
    ['pow(x, 2)', (e) => orNull(e, (v) => v ** 2)],
    ['sin(x)', (e) => orNull(e, Math.sin)],
    ['cos(x)', (e) => orNull(e, Math.cos)],
    ['tan(x)', (e) => orNull(e, Math.tan)],
    ['atan(x)', (e) => orNull(e, Math.atan)],
    ['asin(x)', (e) => orNull(e, (v) => (Math.abs(v) <= 1 ? Math.asin(v) : null))],
    ['acos(x)', (e) => orNull(e, (v) => (Math.abs(v) <= 1 ? Math.acos(v) : null))],
    ['atan2(x, 2)', (e) => orNull(e, (v) => Math.atan2(v, 2))],
    ['degrees(x)', (e) => orNull(e, (v) => (v * 180) / Math.PI)],
    ['radians(x)', (e) => orNull(e, (v) => (v * Math.PI) / 180)],
    ['isint(x)', (e) => (x(e) === undefined ? false : Number.isInteger(x(e)))],
    // Null arguments are left out.
    ['max_of(n, 10)', (e) => Math.max(e.n ?? -Infinity, 10)],
    ['min_of(n, 10)', (e) => Math.min(e.n ?? Infinity, 10)],
  ]);
  scalars(db, [
    ['cot(pi() / 4)', 1 / Math.tan(Math.PI / 4)],
    ['cot(0.0)', null],
    ['gamma(5)', 24],
    ['gamma(2.5)', gamma(2.5)],
    ['gamma(-0.5)', gamma(-0.5)],
    ['gamma(0)', null],
    ['gamma(-3)', null],
    ['loggamma(10)', Math.log(gamma(10))],
    ['loggamma(0)', null],
    ['isint(42)', true],
    ['isint(4.2)', false],
    ["isnan(todouble('nan'))", true],
    ['isnan(1.5)', false],
    ['isinf(1.0 / 0)', true],
    ['isfinite(1.0 / 0)', false],
    ['pi()', Math.PI],
    ['not(false)', true],
    ['rand() >= 0 and rand() < 1', true],
    ['rand(6) between (0 .. 5)', true],
    ['gettype(rand(6))', 'long'],
  ]);
});

describe('rounding functions', () => {
  perEvent(db, [
    ['round(x, 1)', (e) => orNull(e, (v) => Math.sign(v) * Math.round(Math.abs(v) * 10) / 10 + 0)],
    ['floor(x)', (e) => orNull(e, (v) => Math.floor(v))],
    ['ceiling(x) + 0', (e) => orNull(e, (v) => Math.ceil(v) + 0)],
    ['bin(n, 10)', (e) => (e.n === undefined ? null : Math.floor(e.n / 10) * 10)],
    ['bin(_time, 1h)', (e) => new Date(Math.floor(Date.parse(e._time) / 3_600_000) * 3_600_000).toISOString().replace('.000Z', 'Z')],
  ]);
  scalars(db, [
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['round(1234.5678, -2)', 1200],
    ['floor(27, 10)', 20],
    ['bin(-3, 5)', -5],
    ['bin(4.7, 0.5)', 4.5],
    ['bin(95m, 1h)', '1h0m0s'],
    ['ceiling(-1.5)', -1],
  ]);
});

describe('datetime functions', () => {
  const at = 'datetime(2024-02-29T13:45:30.1234567Z)';
  scalars(db, [
    ['now()', '2024-03-05T00:00:00Z'],
    ['now(2h)', '2024-03-05T02:00:00Z'],
    ['ago(1d)', '2024-03-04T00:00:00Z'],
    [`startofday(${at})`, '2024-02-29T00:00:00Z'],
    [`startofweek(${at})`, '2024-02-25T00:00:00Z'],
    [`startofmonth(${at}, -1)`, '2024-01-01T00:00:00Z'],
    [`startofyear(${at}, 1)`, '2025-01-01T00:00:00Z'],
    [`endofday(${at})`, '2024-02-29T23:59:59.9999999Z'],
    [`endofweek(${at})`, '2024-03-02T23:59:59.9999999Z'],
    [`endofmonth(${at})`, '2024-02-29T23:59:59.9999999Z'],
    [`endofyear(${at})`, '2024-12-31T23:59:59.9999999Z'],
    [`dayofmonth(${at})`, 29],
    [`dayofweek(${at})`, new Date('2024-02-29T00:00:00Z').getUTCDay()],
    [`dayofyear(${at})`, 31 + 29],
    [`getmonth(${at})`, 2],
    [`monthofyear(${at})`, 2],
    [`getyear(${at})`, 2024],
    [`hourofday(${at})`, 13],
    [`week_of_year(${at})`, 9],
    [`datetime_part('quarter', ${at})`, 1],
    [`datetime_part('millisecond', ${at})`, 123],
    [`datetime_add('month', 1, datetime(2024-01-31))`, '2024-02-29T00:00:00Z'],
    [`datetime_add('week', -1, ${at})`, '2024-02-22T13:45:30.1234567Z'],
    [`datetime_diff('day', datetime(2024-03-01), datetime(2024-02-27T23:00:00Z))`, 3],
    [`datetime_diff('minute', datetime(2024-03-01T00:10:00Z), datetime(2024-03-01))`, 10],
    ['unixtime_seconds_todatetime(1704067200.9)', '2024-01-01T00:00:00Z'],
    ['unixtime_milliseconds_todatetime(1704067200123)', '2024-01-01T00:00:00.123Z'],
    ['unixtime_microseconds_todatetime(1704067200123456)', '2024-01-01T00:00:00.123456Z'],
    ['unixtime_nanoseconds_todatetime(1704067200123456789)', '2024-01-01T00:00:00.123456789Z'],
    ['unixtime_seconds_todatetime(1e30)', null],
    [`format_datetime(${at}, 'yyyy-MM-dd HH:mm')`, '2024-02-29 13:45'],
    ["format_timespan(1d + 2h + 3m + 4s, 'd.hh:mm:ss')", '1.02:03:04'],
  ]);
  perEvent(db, [
    ['datetime_diff("minute", _time, datetime(2024-03-01))', (e) => Math.floor((Date.parse(e._time) - Date.parse('2024-03-01T00:00:00Z')) / 60_000)],
    ['hourofday(_time)', (e) => new Date(e._time).getUTCHours()],
  ]);
});

describe('timespans', () => {
  scalars(db, [
    ['90m / 1h', 1.5],
    ['1d - 1h', '23h0m0s'],
    ['3 * 20s', '1m0s'],
    ['2h > 90m', true],
    ['abs(-5s)', '5s'],
    ['datetime(2024-01-02) - datetime(2024-01-01)', '24h0m0s'],
    ['datetime(2024-01-01) + 36h', '2024-01-02T12:00:00Z'],
    ['totimespan(2500000000) / 1s', 2.5],
  ]);
});

describe('hash functions', () => {
  const digest = (algorithm: string) => (e: FxEvent) => (e.text === undefined ? null : createHash(algorithm).update(e.text).digest('hex'));
  perEvent(db, [
    ['hash_md5(text)', digest('md5')],
    ['hash_sha1(text)', digest('sha1')],
    ['hash_sha256(text)', digest('sha256')],
    ['hash_sha512(text)', digest('sha512')],
    ['hash(text) == hash(text)', (e) => (e.text === undefined ? null : true)],
    ['gettype(hash(text, 7))', () => 'long'],
  ]);
  scalars(db, [
    ['hash_sha256(42)', createHash('sha256').update('42').digest('hex')],
    ["hash('a') != hash('b')", true],
    ["hash('a', 1) != hash('a', 2)", true],
  ]);
});
