// Type functions: what kind of value an expression holds (gettype, isstring, isreal, isbool,
// ismap, isutf8), and the checksum tests iscc and isimei. A null is of no kind: the tests
// are false for it.
import type { AplType } from '../plan';
import { boolLiteral, call, literal } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

/** A kind test: true for non-null values of `types`, and for dynamic values of JSON `kinds`. */
const kindTest =
  (types: AplType[], kinds: string[]): ScalarRule =>
  (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'dynamic') return call('is_json_kind', [arg], 'bool', { kinds });
    if (types.includes(arg.type)) return call('isnotnull', [arg], 'bool');
    return boolLiteral(false);
  };

const GETTYPE_NAMES: Record<AplType, string> = { bool: 'bool', int: 'long', real: 'real', string: 'string', datetime: 'datetime', timespan: 'timespan', dynamic: 'dynamic', null: 'null' };

export const TYPE_FUNCTIONS: ScalarFamily = {
  gettype: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'dynamic') return call('gettype_dynamic', [arg], 'string');
    return literal({ type: 'string', value: GETTYPE_NAMES[arg.type] });
  },
  isstring: kindTest(['string'], ['VARCHAR']),
  isbool: kindTest(['bool'], ['BOOLEAN']),
  ismap: kindTest([], ['OBJECT']),
  isreal: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'dynamic') return call('is_json_kind', [arg], 'bool', { kinds: ['BIGINT', 'UBIGINT', 'DOUBLE'] });
    if (arg.type === 'int') return call('isnotnull', [arg], 'bool');
    // NaN and infinities are not real numbers.
    if (arg.type === 'real') return call('and', [call('isnotnull', [arg], 'bool'), call('isfinite', [arg], 'bool')], 'bool');
    return boolLiteral(false);
  },
  isutf8: (site) => {
    site.arity(1);
    return call('isutf8', [site.arg(0, 'string')], 'bool');
  },
  iscc: luhn('card'),
  isimei: luhn('imei'),
};

/** Numbers that pass the Luhn checksum: card numbers of the known networks, or 15-digit IMEIs. */
function luhn(kind: 'card' | 'imei'): ScalarRule {
  return (site) => {
    site.arity(1);
    return call('luhn_number', [site.arg(0, 'string')], 'bool', { kind });
  };
}
