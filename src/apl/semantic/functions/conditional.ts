// Conditional functions and the null and emptiness tests: iff/iif, case, coalesce, not,
// isnull, isnotnull, isempty, isnotempty.
import { call } from '../typed';
import { type ScalarFamily, unify } from './rule';

export const CONDITIONAL_FUNCTIONS: ScalarFamily = {
  iff: (site) => {
    site.arity(3);
    const type = unify([site.raw(1), site.raw(2)], site);
    return call('iff', [site.arg(0, 'bool'), site.arg(1, type), site.arg(2, type)], type);
  },
  case: (site) => {
    site.arity(3, 255);
    if (site.count % 2 === 0) throw site.error('expects pairs of condition and value, then an else value');
    const values = site.args.filter((_, i) => i % 2 === 1 || i === site.count - 1);
    const type = unify(values, site);
    const args = site.args.map((_, i) => (i % 2 === 0 && i !== site.count - 1 ? site.arg(i, 'bool') : site.arg(i, type)));
    return call('case', args, type);
  },
  coalesce: (site) => {
    site.arity(1, 64);
    const type = unify(site.args, site);
    return call('coalesce', site.args.map((_, i) => site.arg(i, type)), type);
  },
  isnull: (site) => {
    site.arity(1);
    return call('isnull', [site.raw(0)], 'bool');
  },
  isnotnull: (site) => {
    site.arity(1);
    return call('isnotnull', [site.raw(0)], 'bool');
  },
  isempty: (site) => {
    site.arity(1);
    return call('isempty', [site.raw(0)], 'bool');
  },
  isnotempty: (site) => {
    site.arity(1);
    return call('isnotempty', [site.raw(0)], 'bool');
  },
};

CONDITIONAL_FUNCTIONS.iif = CONDITIONAL_FUNCTIONS.iff!;
