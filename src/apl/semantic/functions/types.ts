// Type functions: what kind of value an expression holds.
import type { AplType } from '../plan';
import { call, literal } from '../typed';
import type { ScalarFamily } from './rule';

export const TYPE_FUNCTIONS: ScalarFamily = {
  gettype: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'dynamic') return call('gettype_dynamic', [arg], 'string');
    const names: Record<AplType, string> = { bool: 'bool', int: 'long', real: 'real', string: 'string', datetime: 'datetime', timespan: 'timespan', dynamic: 'dynamic', null: 'null' };
    return literal({ type: 'string', value: names[arg.type] });
  },
};
