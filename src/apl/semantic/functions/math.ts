// Mathematical functions: absolute values, logarithms, powers, extremes of arguments,
// classification of reals, and the constant pi.
import { call, literal } from '../typed';
import { comparedType, math1, type ScalarFamily, unary } from './rule';

export const MATH_FUNCTIONS: ScalarFamily = {
  abs: (site) => {
    site.arity(1);
    const arg = site.raw(0).type === 'timespan' ? site.raw(0) : site.number(0);
    return call('abs', [arg], arg.type);
  },
  sign: (site) => {
    site.arity(1);
    return call('sign', [site.number(0)], site.number(0).type);
  },
  log: math1('log'),
  log10: math1('log10'),
  log2: math1('log2'),
  sqrt: math1('sqrt'),
  exp: math1('exp'),
  exp2: math1('exp2'),
  exp10: math1('exp10'),
  acos: math1('acos'),
  asin: math1('asin'),
  atan: math1('atan'),
  atan2: (site) => {
    site.arity(2);
    return call('atan2', [site.arg(0, 'real'), site.arg(1, 'real')], 'real');
  },
  cos: math1('cos'),
  cot: math1('cot'),
  sin: math1('sin'),
  tan: math1('tan'),
  degrees: math1('degrees'),
  radians: math1('radians'),
  gamma: math1('gamma'),
  loggamma: math1('loggamma'),
  isint: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'int') return call('isnotnull', [arg], 'bool');
    return call('isint', [site.arg(0, 'real')], 'bool');
  },
  rand: (site) => {
    site.arity(0, 1);
    return site.count ? call('rand', [site.arg(0, 'int')], 'int') : call('rand', [], 'real');
  },
  pow: (site) => {
    site.arity(2);
    return call('pow', [site.arg(0, 'real'), site.arg(1, 'real')], 'real');
  },
  pi: (site) => {
    site.arity(0);
    return literal({ type: 'real', value: Math.PI });
  },
  isnan: unary('isnan', 'real', 'bool'),
  isinf: unary('isinf', 'real', 'bool'),
  isfinite: unary('isfinite', 'real', 'bool'),
  not: (site) => {
    site.arity(1);
    return call('not', [site.arg(0, 'bool')], 'bool');
  },
  min_of: (site) => {
    site.arity(1, 64);
    const type = comparedType(site.args, site);
    return call('min_of', site.args.map((_, i) => site.arg(i, type)), type);
  },
  max_of: (site) => {
    site.arity(1, 64);
    const type = comparedType(site.args, site);
    return call('max_of', site.args.map((_, i) => site.arg(i, type)), type);
  },
};
