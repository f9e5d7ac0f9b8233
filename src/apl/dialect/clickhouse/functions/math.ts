// Mathematical functions.
import type { CallExpr, RuleTable } from './rule';

export const MATH_RULES: RuleTable = {
  min_of: (_w, e, a) => leastOrGreatest('least', e, a),
  max_of: (_w, e, a) => leastOrGreatest('greatest', e, a),
  abs: (_w, _e, a) => `abs(${a(0)})`,
  sign: (_w, _e, a) => `sign(${a(0)})`,
  log: (_w, _e, a) => `multiIf(${a(0)} > 0, log(${a(0)}), ${a(0)} = 0, -inf, NULL)`,
  log10: (_w, _e, a) => `multiIf(${a(0)} > 0, log10(${a(0)}), ${a(0)} = 0, -inf, NULL)`,
  log2: (_w, _e, a) => `multiIf(${a(0)} > 0, log2(${a(0)}), ${a(0)} = 0, -inf, NULL)`,
  sqrt: (_w, _e, a) => `if(${a(0)} >= 0, sqrt(${a(0)}), NULL)`,
  exp: (_w, _e, a) => `exp(${a(0)})`,
  exp2: (_w, _e, a) => `pow(2, ${a(0)})`,
  exp10: (_w, _e, a) => `pow(10, ${a(0)})`,
  pow: (_w, _e, a) => `pow(${a(0)}, ${a(1)})`,
  isnan: (_w, _e, a) => `isNaN(${a(0)})`,
  isinf: (_w, _e, a) => `isInfinite(${a(0)})`,
  isfinite: (_w, _e, a) => `isFinite(${a(0)})`,
};

function leastOrGreatest(fn: 'least' | 'greatest', e: CallExpr, a: (i: number) => string): string {
  const args = e.args.map((_, i) => a(i));
  if (args.length === 1) return args[0]!;
  return `${fn}(${args.map((arg, i) => `coalesce(${[arg, ...args.filter((_, j) => j !== i)].join(', ')})`).join(', ')})`;
}
