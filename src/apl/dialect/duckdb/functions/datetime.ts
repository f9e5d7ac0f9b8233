// Calendar arithmetic on DuckDB's TIMESTAMP_NS: period boundaries and adding periods (the other
// datetime functions are ../../functions/datetime.ts).
import { PERIOD_MONTHS as MONTHS, PERIOD_NANOS as NANOS } from '../../arguments';
import type { RuleTable } from './rule';

function periodStart(unit: string, t: string): string {
  if (unit === 'week') return `CAST(date_trunc('week', CAST(${t} AS TIMESTAMP) + INTERVAL 1 DAY) - INTERVAL 1 DAY AS TIMESTAMP)`;
  return `CAST(date_trunc('${unit}', CAST(${t} AS TIMESTAMP)) AS TIMESTAMP)`;
}

const addUnits = (unit: string, ts: string, count: string) => `(${ts} + to_${unit}s(CAST(${count} AS INTEGER)))`;

export const CALENDAR_RULES: RuleTable = {
  period_boundary: (_w, e, a) => {
    const unit = String(e.options?.unit);
    const start = periodStart(unit, a(0));
    const shifted = addUnits(unit, start, a(1));
    if (!e.options?.end) return `CAST(${shifted} AS TIMESTAMP_NS)`;
    // The last tick (100 ns) of the period, as Kusto's endof* functions return.
    return `make_timestamp_ns(epoch_ns(${addUnits(unit, start, `${a(1)} + 1`)}) - 100)`;
  },
  datetime_add: (_w, e, a) => {
    const part = String(e.options?.part);
    const months = MONTHS[part];
    if (months !== undefined) {
      // A result outside the datetime range is null for its row.
      return `try(make_timestamp_ns(epoch_ns(CAST(${a(1)} AS TIMESTAMP) + to_months(CAST(${a(0)} * ${months} AS INTEGER))) + epoch_ns(${a(1)}) % 1000))`;
    }
    return `try(make_timestamp_ns(epoch_ns(${a(1)}) + ${a(0)} * ${NANOS[part]!.toString()}))`;
  },
};
