// Datetime functions: period boundaries, parts, calendar arithmetic, Unix epochs, formatting.
import { formatDateTimeSql, formatTimespanSql } from '../formatting';
import { PERIOD_MONTHS as MONTHS, PERIOD_NANOS as NANOS } from '../../arguments';
import type { RuleTable } from './rule';

/** Floor division of nanoseconds, correct before 1970 too. */
const floorDiv = (x: string, unit: bigint) => `((${x}) // ${unit} - CASE WHEN (${x}) % ${unit} < 0 THEN 1 ELSE 0 END)`;

function periodStart(unit: string, t: string): string {
  if (unit === 'week') return `CAST(date_trunc('week', CAST(${t} AS TIMESTAMP) + INTERVAL 1 DAY) - INTERVAL 1 DAY AS TIMESTAMP)`;
  return `CAST(date_trunc('${unit}', CAST(${t} AS TIMESTAMP)) AS TIMESTAMP)`;
}

const addUnits = (unit: string, ts: string, count: string) => `(${ts} + to_${unit}s(CAST(${count} AS INTEGER)))`;

function datePartSql(part: string, t: string): string {
  const subsecond = `((epoch_ns(${t}) % 1000000000 + 1000000000) % 1000000000)`;
  switch (part) {
    case 'millisecond':
      return `(${subsecond} // 1000000)`;
    case 'microsecond':
      return `(${subsecond} // 1000)`;
    case 'nanosecond':
      return subsecond;
    case 'week_of_year':
      return `CAST(weekofyear(${t}) AS BIGINT)`;
    default:
      return `CAST(${part}(${t}) AS BIGINT)`;
  }
}

export const DATETIME_RULES: RuleTable = {
  period_boundary: (_w, e, a) => {
    const unit = String(e.options?.unit);
    const start = periodStart(unit, a(0));
    const shifted = addUnits(unit, start, a(1));
    if (!e.options?.end) return `CAST(${shifted} AS TIMESTAMP_NS)`;
    // The last tick (100 ns) of the period, as Kusto's endof* functions return.
    return `make_timestamp_ns(epoch_ns(${addUnits(unit, start, `${a(1)} + 1`)}) - 100)`;
  },
  datetime_part: (_w, e, a) => datePartSql(String(e.options?.part), a(0)),
  datetime_add: (_w, e, a) => {
    const part = String(e.options?.part);
    const months = MONTHS[part];
    if (months !== undefined) {
      // A result outside the datetime range is null for its row.
      return `try(make_timestamp_ns(epoch_ns(CAST(${a(1)} AS TIMESTAMP) + to_months(CAST(${a(0)} * ${months} AS INTEGER))) + epoch_ns(${a(1)}) % 1000))`;
    }
    return `try(make_timestamp_ns(epoch_ns(${a(1)}) + ${a(0)} * ${NANOS[part]!.toString()}))`;
  },
  datetime_diff: (_w, e, a) => {
    const part = String(e.options?.part);
    if (MONTHS[part] !== undefined) return `date_diff('${part}', CAST(${a(1)} AS TIMESTAMP), CAST(${a(0)} AS TIMESTAMP))`;
    if (part === 'week') {
      // Weeks start on Sunday; 1970-01-01 was a Thursday.
      const shift = (t: string) => `(epoch_ns(${t}) + ${4n * NANOS.day!})`;
      return `(${floorDiv(shift(a(0)), NANOS.week!)} - ${floorDiv(shift(a(1)), NANOS.week!)})`;
    }
    const unit = NANOS[part]!;
    return `(${floorDiv(`epoch_ns(${a(0)})`, unit)} - ${floorDiv(`epoch_ns(${a(1)})`, unit)})`;
  },
  unixtime_todatetime: (_w, e, a) => {
    const factor = String(e.options?.nanosPerUnit);
    // Whole units: a fraction is truncated, as Axiom documents; out of range is null.
    if (e.args[0]!.type === 'int') return `make_timestamp_ns(TRY_CAST(CAST(${a(0)} AS HUGEINT) * ${factor} AS BIGINT))`;
    return `make_timestamp_ns(TRY_CAST(trunc(${a(0)}) * ${factor} AS BIGINT))`;
  },
  format_datetime: (_w, e, a) => formatDateTimeSql(a(0), String(e.options?.format)),
  format_timespan: (_w, e, a) => formatTimespanSql(a(0), String(e.options?.format)),
};
