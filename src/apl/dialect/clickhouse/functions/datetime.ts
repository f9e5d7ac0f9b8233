// Calendar arithmetic over Int64 epoch nanoseconds (see ../expressions.ts): period boundaries and
// adding periods (the other datetime functions are ../../functions/datetime.ts).
import { asDateTime } from '../formatting';
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

export const CALENDAR_RULES: RuleTable = {
  period_boundary: (_w, e, a) => {
    const unit = String(e.options?.unit);
    const start = periodStart(unit, a(0));
    const add = ADD_UNITS[unit]!;
    const shifted = nanosOf(`${add}(${start}, ${a(1)})`);
    if (!e.options?.end) return shifted;
    // The last tick (100 ns) of the period, as Kusto's endof* functions return.
    return `(${nanosOf(`${add}(${start}, ${a(1)} + 1)`)} - 100)`;
  },
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
};
