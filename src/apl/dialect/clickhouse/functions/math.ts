// Mathematical functions.
import type { CallExpr, RuleTable } from './rule';

export const MATH_RULES: RuleTable = {
  min_of: (_w, e, a) => leastOrGreatest('least', e, a),
  max_of: (_w, e, a) => leastOrGreatest('greatest', e, a),
  abs: (_w, _e, a) => `abs(${a(0)})`,
  sign: (_w, _e, a) => `sign(${a(0)})`,
  // Logarithms of zero or less are null, as Axiom documents.
  log: (_w, _e, a) => `if(${a(0)} > 0, log(${a(0)}), NULL)`,
  log10: (_w, _e, a) => `if(${a(0)} > 0, log10(${a(0)}), NULL)`,
  log2: (_w, _e, a) => `if(${a(0)} > 0, log2(${a(0)}), NULL)`,
  acos: (_w, _e, a) => `if(${a(0)} BETWEEN -1 AND 1, acos(${a(0)}), NULL)`,
  asin: (_w, _e, a) => `if(${a(0)} BETWEEN -1 AND 1, asin(${a(0)}), NULL)`,
  atan: (_w, _e, a) => `atan(${a(0)})`,
  atan2: (_w, _e, a) => `atan2(${a(0)}, ${a(1)})`,
  cos: (_w, _e, a) => `cos(${a(0)})`,
  sin: (_w, _e, a) => `sin(${a(0)})`,
  tan: (_w, _e, a) => `tan(${a(0)})`,
  cot: (_w, _e, a) => `if(sin(${a(0)}) != 0, cos(${a(0)}) / sin(${a(0)}), NULL)`,
  degrees: (_w, _e, a) => `degrees(${a(0)})`,
  radians: (_w, _e, a) => `radians(${a(0)})`,
  // Zero and the negative whole numbers are poles of the gamma function: null.
  gamma: (_w, _e, a) => `if(NOT (${a(0)} <= 0 AND ${a(0)} = trunc(${a(0)})), tgamma(${a(0)}), NULL)`,
  loggamma: (_w, _e, a) => `if(NOT (${a(0)} <= 0 AND ${a(0)} = trunc(${a(0)})), lgamma(${a(0)}), NULL)`,
  isint: (_w, _e, a) => `ifNull(isFinite(${a(0)}) AND ${a(0)} = trunc(${a(0)}), false)`,
  rand: (_w, e, a) => (e.args.length ? `toInt64(floor(randCanonical() * ${a(0)}))` : 'randCanonical()'),
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
