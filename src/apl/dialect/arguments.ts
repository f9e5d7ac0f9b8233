// What every dialect's function rules share: the argument writer that writes each argument's SQL
// once, and the fixed lengths of Kusto's datetime periods.
import type { TExpr } from '../semantic/plan';

/** `a(i)`: the SQL of argument i, written on first use and reused after. */
export function argumentWriter(w: { write(expr: TExpr): string }, args: TExpr[]): (i: number) => string {
  const cache = new Map<number, string>();
  return (i) => {
    let sql = cache.get(i);
    if (sql === undefined) {
      sql = w.write(args[i]!);
      cache.set(i, sql);
    }
    return sql;
  };
}

/** Nanoseconds in each datetime period of fixed length. */
export const PERIOD_NANOS: Readonly<Record<string, bigint>> = {
  nanosecond: 1n,
  microsecond: 1_000n,
  millisecond: 1_000_000n,
  second: 1_000_000_000n,
  minute: 60_000_000_000n,
  hour: 3_600_000_000_000n,
  day: 86_400_000_000_000n,
  week: 604_800_000_000_000n,
};

/** Months in each calendar period. */
export const PERIOD_MONTHS: Readonly<Record<string, number>> = { month: 1, quarter: 3, year: 12 };
