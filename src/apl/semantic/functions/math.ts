// Mathematical functions: absolute values, logarithms, powers, extremes of arguments,
// classification of reals, and the constant pi.
import { call, literal } from '../typed';
import { math1, type ScalarFamily, unary, unify } from './rule';

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
    const type = unify(site.args, site);
    return call('min_of', site.args.map((_, i) => site.arg(i, type)), type);
  },
  max_of: (site) => {
    site.arity(1, 64);
    const type = unify(site.args, site);
    return call('max_of', site.args.map((_, i) => site.arg(i, type)), type);
  },
};
