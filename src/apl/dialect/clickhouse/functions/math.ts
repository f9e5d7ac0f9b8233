// ClickHouse's own math rules: least and greatest there give null when any argument is null,
// where DuckDB's leave nulls out.
import type { CallExpr, RuleTable } from './rule';

export const MATH_OVERRIDES: RuleTable = {
  min_of: (_w, e, a) => leastOrGreatest('least', e, a),
  max_of: (_w, e, a) => leastOrGreatest('greatest', e, a),
};

function leastOrGreatest(fn: 'least' | 'greatest', e: CallExpr, a: (i: number) => string): string {
  const args = e.args.map((_, i) => a(i));
  if (args.length === 1) return args[0]!;
  // Each argument stands in for a null one.
  return `${fn}(${args.map((arg, i) => `coalesce(${[arg, ...args.filter((_, j) => j !== i)].join(', ')})`).join(', ')})`;
}
