// Time-series functions: element-wise math and comparisons over numeric dynamic arrays (the
// series make-series produces), reductions (sum, magnitude, dot product, similarity,
// correlation, statistics), gap filling, FIR and IIR filters, and Fourier transforms. A
// second operand may be an array or a number applied to every element.
import type { TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { boolLiteral, call, nullOf } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

/** An operand: a dynamic array (or number in a dynamic), or a scalar number. */
function operand(site: CallSite, index: number): TExpr {
  const arg = site.raw(index);
  if (arg.type === 'dynamic') return arg;
  if (arg.type === 'timespan') return call('cast', [arg], 'real');
  return site.arg(index, 'real');
}

const unaryMath =
  (op: string): ScalarRule =>
  (site) => {
    site.arity(1);
    return call('series_map', [site.arg(0, 'dynamic')], 'dynamic', { op });
  };

/** Element-wise arithmetic; `length` says what happens when the operands' lengths differ. */
const arithmetic =
  (op: string, length: 'shortest' | 'longest'): ScalarRule =>
  (site) => {
    site.arity(2);
    return call('series_binary', [operand(site, 0), operand(site, 1)], 'dynamic', { op, length });
  };

const comparison =
  (op: string): ScalarRule =>
  (site) => {
    site.arity(2);
    return call('series_compare', [operand(site, 0), operand(site, 1)], 'dynamic', { op });
  };

const reduction =
  (op: string, args: number): ScalarRule =>
  (site) => {
    site.arity(args);
    return call('series_reduce', site.args.map((_, i) => operand(site, i)), 'real', { op });
  };

const fill =
  (mode: 'forward' | 'backward' | 'linear'): ScalarRule =>
  (site) => {
    site.arity(1, 2);
    return call('series_fill', [site.arg(0, 'dynamic'), site.count > 1 ? operand(site, 1) : nullOf('real')], 'dynamic', { mode });
  };

const fourier =
  (inverse: boolean): ScalarRule =>
  (site) => {
    site.arity(1, 2);
    return call('series_fft', [site.arg(0, 'dynamic'), site.count > 1 ? site.arg(1, 'dynamic') : nullOf('dynamic')], 'dynamic', { inverse });
  };

export const SERIES_FUNCTIONS: ScalarFamily = {
  series_abs: unaryMath('abs'),
  series_acos: unaryMath('acos'),
  series_asin: unaryMath('asin'),
  series_atan: unaryMath('atan'),
  series_ceiling: unaryMath('ceiling'),
  series_cos: unaryMath('cos'),
  series_exp: unaryMath('exp'),
  series_floor: unaryMath('floor'),
  series_log: unaryMath('log'),
  series_sign: unaryMath('sign'),
  series_sin: unaryMath('sin'),
  series_tan: unaryMath('tan'),
  // Axiom documents add and divide as stopping at the shorter series, multiply and subtract
  // as extending the shorter one with nulls.
  series_add: arithmetic('add', 'shortest'),
  series_divide: arithmetic('divide', 'shortest'),
  series_multiply: arithmetic('multiply', 'longest'),
  series_subtract: arithmetic('subtract', 'longest'),
  series_pow: arithmetic('pow', 'longest'),
  series_max: arithmetic('max', 'longest'),
  series_min: arithmetic('min', 'longest'),
  series_equals: comparison('='),
  series_not_equals: comparison('<>'),
  series_greater: comparison('>'),
  series_greater_equals: comparison('>='),
  series_less: comparison('<'),
  series_less_equals: comparison('<='),
  series_sum: reduction('sum', 1),
  series_magnitude: reduction('magnitude', 1),
  series_dot_product: reduction('dot', 2),
  series_cosine_similarity: reduction('cosine', 2),
  series_pearson_correlation: reduction('pearson', 2),
  series_stats: (site) => {
    site.arity(1, 2);
    return call('series_stats', [site.arg(0, 'dynamic')], 'dynamic', { asObject: false });
  },
  series_stats_dynamic: (site) => {
    site.arity(1, 2);
    return call('series_stats', [site.arg(0, 'dynamic')], 'dynamic', { asObject: true });
  },
  series_fill_const: (site) => {
    site.arity(2, 3);
    const placeholder = site.count > 2 ? operand(site, 2) : nullOf('real');
    return call('series_fill', [site.arg(0, 'dynamic'), placeholder, operand(site, 1)], 'dynamic', { mode: 'const' });
  },
  series_fill_forward: fill('forward'),
  series_fill_backward: fill('backward'),
  series_fill_linear: fill('linear'),
  series_fir: (site) => {
    site.arity(2, 4);
    const flag = (index: number, fallback: boolean) => (index < site.count ? site.arg(index, 'bool') : boolLiteral(fallback));
    return call('series_fir', [site.arg(0, 'dynamic'), site.arg(1, 'dynamic'), flag(2, true), flag(3, false)], 'dynamic');
  },
  series_iir: (site) => {
    site.arity(3);
    return call('series_iir', [site.arg(0, 'dynamic'), site.arg(1, 'dynamic'), site.arg(2, 'dynamic')], 'dynamic');
  },
  series_fft: fourier(false),
  series_ifft: fourier(true),
};
