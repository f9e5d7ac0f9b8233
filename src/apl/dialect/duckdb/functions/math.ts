// Mathematical functions.
import type { RuleTable } from './rule';

export const MATH_RULES: RuleTable = {
  min_of: (_w, e, a) => `least(${e.args.map((_, i) => a(i)).join(', ')})`,
  max_of: (_w, e, a) => `greatest(${e.args.map((_, i) => a(i)).join(', ')})`,
  abs: (_w, _e, a) => `abs(${a(0)})`,
  sign: (_w, _e, a) => `sign(${a(0)})`,
  // Logarithms of zero or less are null, as Axiom documents.
  log: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN ln(${a(0)}) END`,
  log10: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN log10(${a(0)}) END`,
  log2: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN log2(${a(0)}) END`,
  acos: (_w, _e, a) => `CASE WHEN ${a(0)} BETWEEN -1 AND 1 THEN acos(${a(0)}) END`,
  asin: (_w, _e, a) => `CASE WHEN ${a(0)} BETWEEN -1 AND 1 THEN asin(${a(0)}) END`,
  atan: (_w, _e, a) => `atan(${a(0)})`,
  atan2: (_w, _e, a) => `atan2(${a(0)}, ${a(1)})`,
  cos: (_w, _e, a) => `cos(${a(0)})`,
  sin: (_w, _e, a) => `sin(${a(0)})`,
  tan: (_w, _e, a) => `tan(${a(0)})`,
  cot: (_w, _e, a) => `CASE WHEN sin(${a(0)}) <> 0 THEN cos(${a(0)}) / sin(${a(0)}) END`,
  degrees: (_w, _e, a) => `degrees(${a(0)})`,
  radians: (_w, _e, a) => `radians(${a(0)})`,
  // Zero and the negative whole numbers are poles of the gamma function: null.
  gamma: (_w, _e, a) => `CASE WHEN NOT (${a(0)} <= 0 AND ${a(0)} = trunc(${a(0)})) THEN gamma(${a(0)}) END`,
  loggamma: (_w, _e, a) => `CASE WHEN NOT (${a(0)} <= 0 AND ${a(0)} = trunc(${a(0)})) THEN lgamma(${a(0)}) END`,
  isint: (_w, _e, a) => `coalesce(isfinite(${a(0)}) AND ${a(0)} = trunc(${a(0)}), false)`,
  rand: (_w, e, a) => (e.args.length ? `CAST(floor(random() * ${a(0)}) AS BIGINT)` : 'random()'),
  sqrt: (_w, _e, a) => `CASE WHEN ${a(0)} >= 0 THEN sqrt(${a(0)}) END`,
  exp: (_w, _e, a) => `exp(${a(0)})`,
  exp2: (_w, _e, a) => `pow(2, ${a(0)})`,
  exp10: (_w, _e, a) => `pow(10, ${a(0)})`,
  pow: (_w, _e, a) => `pow(${a(0)}, ${a(1)})`,
  isnan: (_w, _e, a) => `isnan(${a(0)})`,
  isinf: (_w, _e, a) => `isinf(${a(0)})`,
  isfinite: (_w, _e, a) => `isfinite(${a(0)})`,
};
