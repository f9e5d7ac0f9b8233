// Array and property-bag functions over dynamic values.
import type { TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { call } from '../typed';
import { type ScalarFamily, unary } from './rule';

function packRule(site: CallSite): TExpr {
  if (site.count % 2 !== 0) throw site.error('expects key, value pairs');
  const keys: string[] = [];
  const values: TExpr[] = [];
  for (let i = 0; i < site.count; i += 2) {
    keys.push(site.constString(i));
    values.push(site.arg(i + 1, 'dynamic'));
  }
  return call('bag_pack', values, 'dynamic', { keys });
}

export const ARRAY_FUNCTIONS: ScalarFamily = {
  array_length: unary('array_length', 'dynamic', 'int'),
  pack_array: (site) => {
    site.arity(1, 64);
    return call('pack_array', site.args.map((_, i) => site.arg(i, 'dynamic')), 'dynamic');
  },
  bag_pack: (site) => packRule(site),
  pack: (site) => packRule(site),
};
