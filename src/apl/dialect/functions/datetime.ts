// Datetime functions: parts, differences, Unix epochs and formatting, written over epoch
// nanoseconds. Calendar arithmetic (period boundaries, adding months) is each engine's own.
import { PERIOD_MONTHS as MONTHS, PERIOD_NANOS as NANOS } from '../arguments';
import type { RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

export function datetimeRules(sql: SqlSpelling): RuleTable {
  function datePart(part: string, t: string): string {
    const subsecond = `((${sql.nanosOf(t)} % 1000000000 + 1000000000) % 1000000000)`;
    switch (part) {
      case 'millisecond':
        return sql.intDiv(subsecond, '1000000');
      case 'microsecond':
        return sql.intDiv(subsecond, '1000');
      case 'nanosecond':
        return subsecond;
      default:
        return sql.calendarPart(part, t);
    }
  }

  return {
    datetime_part: (_w, e, a) => datePart(String(e.options?.part), a(0)),
    datetime_diff: (_w, e, a) => {
      const part = String(e.options?.part);
      if (MONTHS[part] !== undefined) return sql.calendarDiff(part, a(1), a(0));
      if (part === 'week') {
        // Weeks start on Sunday; 1970-01-01 was a Thursday.
        const shift = (t: string) => `(${sql.nanosOf(t)} + ${4n * NANOS.day!})`;
        return `(${sql.floorDiv(shift(a(0)), NANOS.week!)} - ${sql.floorDiv(shift(a(1)), NANOS.week!)})`;
      }
      const unit = NANOS[part]!;
      return `(${sql.floorDiv(sql.nanosOf(a(0)), unit)} - ${sql.floorDiv(sql.nanosOf(a(1)), unit)})`;
    },
    unixtime_todatetime: (_w, e, a) => {
      const factor = String(e.options?.nanosPerUnit);
      // Whole units: a fraction is truncated, as Axiom documents; out of range is null.
      const whole = e.args[0]!.type === 'int' ? sql.toInt128(a(0)) : `trunc(${a(0)})`;
      return sql.datetimeOfNanos(sql.toBigintOrNull(`${whole} * ${factor}`));
    },
    format_datetime: (_w, e, a) => sql.formatDateTime(a(0), String(e.options?.format)),
    format_timespan: (_w, e, a) => sql.formatTimespan(a(0), String(e.options?.format)),
  };
}
