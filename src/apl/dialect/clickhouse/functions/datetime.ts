// Datetime functions: period boundaries, parts, calendar arithmetic, Unix epochs, formatting.
// Datetimes are Int64 nanoseconds since the epoch (see ../expressions.ts).
import { asDateTime, floorDiv, formatDateTimeSql, formatTimespanSql } from '../formatting';
import { PERIOD_MONTHS as MONTHS, PERIOD_NANOS as NANOS } from '../../arguments';
import type { RuleTable } from './rule';

/** Nanoseconds of a Date32 or DateTime64 value. */
const nanosOf = (date: string) => `toUnixTimestamp64Nano(toDateTime64(${date}, 9, 'UTC'))`;

function periodStart(unit: string, t: string): string {
  const day = `toDate32(${asDateTime(t)})`;
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      return `toStartOfWeek(${day}, 0)`;
    case 'month':
      return `toStartOfMonth(${day})`;
    default:
      return `toStartOfYear(${day})`;
  }
}

const ADD_UNITS: Record<string, string> = { day: 'addDays', week: 'addWeeks', month: 'addMonths', year: 'addYears' };

function datePartSql(part: string, t: string): string {
  const d = asDateTime(t);
  const subsecond = `((${t} % 1000000000 + 1000000000) % 1000000000)`;
  switch (part) {
    case 'millisecond':
      return `intDiv(${subsecond}, 1000000)`;
    case 'microsecond':
      return `intDiv(${subsecond}, 1000)`;
    case 'nanosecond':
      return subsecond;
    case 'week_of_year':
      return `toInt64(toISOWeek(${d}))`;
    case 'year':
      return `toInt64(toYear(${d}))`;
    case 'quarter':
      return `toInt64(toQuarter(${d}))`;
    case 'month':
      return `toInt64(toMonth(${d}))`;
    case 'day':
      return `toInt64(toDayOfMonth(${d}))`;
    case 'dayofyear':
      return `toInt64(toDayOfYear(${d}))`;
    case 'dayofweek':
      return `toInt64(toDayOfWeek(${d}, 2))`;
    case 'hour':
      return `toInt64(toHour(${d}))`;
    case 'minute':
      return `toInt64(toMinute(${d}))`;
    case 'second':
      return `toInt64(toSecond(${d}))`;
    default:
      throw new Error(`the ClickHouse dialect has no date part ${part}`);
  }
}

export const DATETIME_RULES: RuleTable = {
  format_datetime: (_w, e, a) => formatDateTimeSql(a(0), String(e.options?.format)),
  format_timespan: (_w, e, a) => formatTimespanSql(a(0), String(e.options?.format)),
  period_boundary: (_w, e, a) => {
    const unit = String(e.options?.unit);
    const start = periodStart(unit, a(0));
    const add = ADD_UNITS[unit]!;
    const shifted = nanosOf(`${add}(${start}, ${a(1)})`);
    if (!e.options?.end) return shifted;
    // The last tick (100 ns) of the period, as Kusto's endof* functions return.
    return `(${nanosOf(`${add}(${start}, ${a(1)} + 1)`)} - 100)`;
  },
  datetime_part: (_w, e, a) => datePartSql(String(e.options?.part), a(0)),
  datetime_add: (_w, e, a) => {
    const part = String(e.options?.part);
    const months = MONTHS[part];
    // A result outside the range of datetimes (1677 to 2262) is null for its row.
    if (months !== undefined) {
      const year = `(toYear(${asDateTime(a(1))}) + intDiv(toMonth(${asDateTime(a(1))}) - 1 + ${a(0)} * ${months}, 12))`;
      return `if(${year} BETWEEN 1678 AND 2261, toUnixTimestamp64Nano(addMonths(${asDateTime(a(1))}, ${a(0)} * ${months})), NULL)`;
    }
    return `accurateCastOrNull(toInt128(${a(1)}) + toInt128(${a(0)}) * ${NANOS[part]!.toString()}, 'Int64')`;
  },
  datetime_diff: (_w, e, a) => {
    const part = String(e.options?.part);
    if (MONTHS[part] !== undefined) return `toInt64(dateDiff('${part}', ${asDateTime(a(1))}, ${asDateTime(a(0))}))`;
    if (part === 'week') {
      // Weeks start on Sunday; 1970-01-01 was a Thursday.
      const shift = (t: string) => `(${t} + ${4n * NANOS.day!})`;
      return `(${floorDiv(shift(a(0)), NANOS.week!)} - ${floorDiv(shift(a(1)), NANOS.week!)})`;
    }
    const unit = NANOS[part]!;
    return `(${floorDiv(a(0), unit)} - ${floorDiv(a(1), unit)})`;
  },
  unixtime_todatetime: (_w, e, a) => {
    const factor = String(e.options?.nanosPerUnit);
    // Whole units: a fraction is truncated, as Axiom documents; out of range is null.
    if (e.args[0]!.type === 'int') return `accurateCastOrNull(toInt128(${a(0)}) * ${factor}, 'Int64')`;
    return `accurateCastOrNull(trunc(${a(0)}) * ${factor}, 'Int64')`;
  },
};
