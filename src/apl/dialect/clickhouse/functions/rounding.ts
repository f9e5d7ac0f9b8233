// Rounding functions: floor, ceiling, round, and bin over numbers, timespans and datetimes.
import { type RuleTable, safeDivisor } from './rule';

/** Rounds half away from zero, as DuckDB's round and casts do (ClickHouse rounds exact ties to even). */
export function roundSql(x: string, digits = '0'): string {
  const p = `pow(10, ${digits})`;
  const scaled = `(${x} * ${p})`;
  return `if(abs(${scaled} - trunc(${scaled})) = 0.5, (trunc(${scaled}) + sign(${x})) / ${p}, round(${x}, toInt32(${digits})))`;
}

/** A double as Int64 the way DuckDB casts it: rounded, null when out of range. */
export const doubleToInt = (x: string) => `accurateCastOrNull(${roundSql(x)}, 'Int64')`;

export const ROUNDING_RULES: RuleTable = {
  floor: (_w, e, a) => (e.type === 'int' ? a(0) : `floor(${a(0)})`),
  ceiling: (_w, e, a) => (e.type === 'int' ? a(0) : `ceil(${a(0)})`),
  round: (_w, _e, a) => roundSql(a(0), a(1)),
  bin_datetime: (_w, e, a) => {
    const span = e.args[1]!;
    const size = span.kind === 'literal' && span.value.type === 'timespan' ? span.value.nanos.toString() : `(${a(1)})`;
    return `(${a(0)} - ((${a(0)} % ${size}) + ${size}) % ${size})`;
  },
  bin_number: (_w, e, a) => {
    if (e.type === 'real') return `(floor(${a(0)} / ${safeDivisor(a(1))}) * ${a(1)})`;
    return `(${a(0)} - ((${a(0)} % ${safeDivisor(a(1))}) + ${a(1)}) % ${a(1)})`;
  },
};
