// Rounding on ClickHouse, which rounds exact ties to even where DuckDB and Kusto round them away
// from zero: round's own rule, and the rounding other ClickHouse rules use.
import type { RuleTable } from './rule';

/** Rounds half away from zero, as DuckDB's round and casts do (ClickHouse rounds exact ties to even). */
export function roundSql(x: string, digits = '0'): string {
  const p = `pow(10, ${digits})`;
  const scaled = `(${x} * ${p})`;
  return `if(abs(${scaled} - trunc(${scaled})) = 0.5, (trunc(${scaled}) + sign(${x})) / ${p}, round(${x}, toInt32(${digits})))`;
}

/** A double as Int64 the way DuckDB casts it: rounded, null when out of range. */
export const doubleToInt = (x: string) => `accurateCastOrNull(${roundSql(x)}, 'Int64')`;

export const ROUNDING_OVERRIDES: RuleTable = {
  round: (_w, _e, a) => roundSql(a(0), a(1)),
};
