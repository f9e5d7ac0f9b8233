// Mathematical functions.
import type { RuleTable } from './rule';

export const MATH_RULES: RuleTable = {
  min_of: (_w, e, a) => `least(${e.args.map((_, i) => a(i)).join(', ')})`,
  max_of: (_w, e, a) => `greatest(${e.args.map((_, i) => a(i)).join(', ')})`,
  abs: (_w, _e, a) => `abs(${a(0)})`,
  sign: (_w, _e, a) => `sign(${a(0)})`,
  log: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN ln(${a(0)}) WHEN ${a(0)} = 0 THEN CAST('-inf' AS DOUBLE) END`,
  log10: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN log10(${a(0)}) WHEN ${a(0)} = 0 THEN CAST('-inf' AS DOUBLE) END`,
  log2: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN log2(${a(0)}) WHEN ${a(0)} = 0 THEN CAST('-inf' AS DOUBLE) END`,
  sqrt: (_w, _e, a) => `CASE WHEN ${a(0)} >= 0 THEN sqrt(${a(0)}) END`,
  exp: (_w, _e, a) => `exp(${a(0)})`,
  exp2: (_w, _e, a) => `pow(2, ${a(0)})`,
  exp10: (_w, _e, a) => `pow(10, ${a(0)})`,
  pow: (_w, _e, a) => `pow(${a(0)}, ${a(1)})`,
  isnan: (_w, _e, a) => `isnan(${a(0)})`,
  isinf: (_w, _e, a) => `isinf(${a(0)})`,
  isfinite: (_w, _e, a) => `isfinite(${a(0)})`,
};
