// Rounding functions: floor, ceiling, round, and bin over numbers, timespans and datetimes.
import type { RuleTable } from './rule';

export const ROUNDING_RULES: RuleTable = {
  floor: (_w, e, a) => (e.type === 'int' ? a(0) : `floor(${a(0)})`),
  ceiling: (_w, e, a) => (e.type === 'int' ? a(0) : `ceil(${a(0)})`),
  round: (_w, _e, a) => `round(${a(0)}, CAST(${a(1)} AS INTEGER))`,
  bin_datetime: (_w, e, a) => {
    const span = e.args[1]!;
    const size = span.kind === 'literal' && span.value.type === 'timespan' ? span.value.nanos.toString() : `(${a(1)})`;
    const ns = `epoch_ns(${a(0)})`;
    return `make_timestamp_ns(${ns} - ((${ns} % ${size}) + ${size}) % ${size})`;
  },
  bin_number: (_w, e, a) => {
    if (e.type === 'real') return `(floor(${a(0)} / ${a(1)}) * ${a(1)})`;
    return `(${a(0)} - ((${a(0)} % ${a(1)}) + ${a(1)}) % ${a(1)})`;
  },
};
