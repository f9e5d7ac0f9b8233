// Rounding functions: floor, ceiling, round, and bin over numbers, timespans and datetimes.
import type { RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

export function roundingRules(sql: SqlSpelling): RuleTable {
  return {
    floor: (_w, e, a) => (e.type === 'int' ? a(0) : `floor(${a(0)})`),
    ceiling: (_w, e, a) => (e.type === 'int' ? a(0) : `ceil(${a(0)})`),
    // Ties round away from zero.
    round: (_w, _e, a) => `round(${a(0)}, CAST(${a(1)} AS INTEGER))`,
    bin_datetime: (_w, e, a) => {
      const span = e.args[1]!;
      const size = span.kind === 'literal' && span.value.type === 'timespan' ? span.value.nanos.toString() : `(${a(1)})`;
      const ns = sql.nanosOf(a(0));
      return sql.datetimeOfNanos(`${ns} - ((${ns} % ${size}) + ${size}) % ${size}`);
    },
    bin_number: (_w, e, a) => {
      if (e.type === 'real') return `(floor(${a(0)} / ${sql.divisor(a(1))}) * ${a(1)})`;
      return `(${a(0)} - ((${a(0)} % ${sql.divisor(a(1))}) + ${a(1)}) % ${a(1)})`;
    },
  };
}
