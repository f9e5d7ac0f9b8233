// Datetime functions: now and ago, start and end of periods, parts of dates, date
// arithmetic, Unix epochs, and formatting of datetimes and timespans.
import type { TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { call, intLiteral, literal } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

const DATE_PARTS = ['year', 'quarter', 'month', 'week_of_year', 'week', 'day', 'dayofyear', 'hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'];
const DIFF_PARTS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'];

function datePart(site: CallSite, index: number, allowed: string[]): string {
  const part = site.constString(index).toLowerCase();
  const normalized = part === 'weekofyear' ? 'week_of_year' : part;
  if (!allowed.includes(normalized)) throw site.error(`unknown date part "${part}"; use one of ${allowed.join(', ')}`, index);
  return normalized;
}

/** startof... and endof...: an optional second argument shifts by that many periods. */
const periodBoundary =
  (unit: string, end: boolean): ScalarRule =>
  (site) => {
    site.arity(1, 2);
    const offset = site.count > 1 ? site.arg(1, 'int') : intLiteral(0);
    return call('period_boundary', [site.arg(0, 'datetime'), offset], 'datetime', { unit, end });
  };

const unixTime =
  (nanosPerUnit: bigint): ScalarRule =>
  (site) => {
    site.arity(1);
    return call('unixtime_todatetime', [site.number(0)], 'datetime', { nanosPerUnit });
  };

function partOf(site: CallSite, part: string): TExpr {
  site.arity(1);
  return call('datetime_part', [site.arg(0, 'datetime')], 'int', { part });
}

export const DATETIME_FUNCTIONS: ScalarFamily = {
  now: (site) => {
    site.arity(0, 1);
    const now = literal({ type: 'datetime', nanos: site.context.nowNanos });
    return site.count ? call('add', [now, site.arg(0, 'timespan')], 'datetime') : now;
  },
  ago: (site) => {
    site.arity(1);
    return call('sub', [literal({ type: 'datetime', nanos: site.context.nowNanos }), site.arg(0, 'timespan')], 'datetime');
  },
  startofday: periodBoundary('day', false),
  startofweek: periodBoundary('week', false),
  startofmonth: periodBoundary('month', false),
  startofyear: periodBoundary('year', false),
  endofday: periodBoundary('day', true),
  endofweek: periodBoundary('week', true),
  endofmonth: periodBoundary('month', true),
  endofyear: periodBoundary('year', true),
  datetime_part: (site) => {
    site.arity(2);
    const part = datePart(site, 0, DATE_PARTS);
    return call('datetime_part', [site.arg(1, 'datetime')], 'int', { part: part === 'week' ? 'week_of_year' : part });
  },
  datetime_add: (site) => {
    site.arity(3);
    const part = datePart(site, 0, DIFF_PARTS);
    return call('datetime_add', [site.arg(1, 'int'), site.arg(2, 'datetime')], 'datetime', { part });
  },
  datetime_diff: (site) => {
    site.arity(3);
    const part = datePart(site, 0, DIFF_PARTS);
    return call('datetime_diff', [site.arg(1, 'datetime'), site.arg(2, 'datetime')], 'int', { part });
  },
  dayofmonth: (site) => partOf(site, 'day'),
  dayofyear: (site) => partOf(site, 'dayofyear'),
  dayofweek: (site) => partOf(site, 'dayofweek'),
  getmonth: (site) => partOf(site, 'month'),
  monthofyear: (site) => partOf(site, 'month'),
  getyear: (site) => partOf(site, 'year'),
  hourofday: (site) => partOf(site, 'hour'),
  week_of_year: (site) => partOf(site, 'week_of_year'),
  unixtime_seconds_todatetime: unixTime(1_000_000_000n),
  unixtime_milliseconds_todatetime: unixTime(1_000_000n),
  unixtime_microseconds_todatetime: unixTime(1_000n),
  unixtime_nanoseconds_todatetime: unixTime(1n),
  format_datetime: (site) => {
    site.arity(2);
    return call('format_datetime', [site.arg(0, 'datetime')], 'string', { format: site.constString(1) });
  },
  format_timespan: (site) => {
    site.arity(2);
    return call('format_timespan', [site.arg(0, 'timespan')], 'string', { format: site.constString(1) });
  },
};
