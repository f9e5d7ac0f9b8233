// Pair functions: key-value pairs such as "env:prod" as dynamic objects {key, value, separator}.
import { call, stringLiteral } from '../typed';
import type { CallSite } from '../call-site';
import type { ScalarFamily } from './rule';

const separator = (site: CallSite, index: number) => (index < site.count ? site.arg(index, 'string') : stringLiteral(':'));

export const PAIR_FUNCTIONS: ScalarFamily = {
  pair: (site) => {
    site.arity(2, 3);
    return call('pair', [site.arg(0, 'string'), site.arg(1, 'string'), separator(site, 2)], 'dynamic');
  },
  parse_pair: (site) => {
    site.arity(1, 2);
    return call('parse_pair', [site.arg(0, 'string'), separator(site, 1)], 'dynamic');
  },
  find_pair: (site) => {
    site.arity(3, 4);
    return call('find_pair', [site.arg(0, 'dynamic'), site.arg(1, 'string'), site.arg(2, 'string'), separator(site, 3)], 'dynamic');
  },
};
