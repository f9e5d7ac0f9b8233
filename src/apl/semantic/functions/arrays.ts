// Array and property-bag functions over dynamic values, the set functions over arrays, and
// range(). Arrays are dynamic values; a value that is not an array makes the result null (or
// what the function's page says).
import type { AplType, TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { call, constantString, intLiteral, literal, nullOf, stringLiteral } from '../typed';
import { type ScalarFamily, type ScalarRule, unary, unify } from './rule';

/** Every argument as a dynamic value. */
const dynamics =
  (fn: string, min: number, max: number, returns: AplType): ScalarRule =>
  (site) => {
    site.arity(min, max);
    return call(fn, site.args.map((_, i) => site.arg(i, 'dynamic')), returns);
  };

/** The arguments of `pack_array(*)` and `bag_pack(*)`: the row's fields in place of `*`. */
function expandStar(site: CallSite): { names: string[]; values: TExpr[] } {
  const names: string[] = [];
  const values: TExpr[] = [];
  site.args.forEach((arg, i) => {
    if (arg.kind === 'call' && arg.fn === '*') {
      for (const field of site.row.fields()) {
        names.push(field.name);
        values.push(field.expr);
      }
    } else {
      names.push(constantString(arg) ?? `Column${i + 1}`);
      values.push(arg);
    }
  });
  return { names, values };
}

function bagRule(site: CallSite): TExpr {
  if (site.args.some((arg) => arg.kind === 'call' && arg.fn === '*')) {
    if (site.count !== 1) throw site.error('takes either * or key, value pairs');
    const { names, values } = expandStar(site);
    return call('bag_pack', values.map((v) => call('cast', [v], 'dynamic')), 'dynamic', { keys: names });
  }
  if (site.count % 2 !== 0) throw site.error('expects key, value pairs');
  const keys: TExpr[] = [];
  const values: TExpr[] = [];
  for (let i = 0; i < site.count; i += 2) {
    keys.push(site.arg(i, 'string'));
    values.push(site.arg(i + 1, 'dynamic'));
  }
  if (keys.every((key) => constantString(key) !== undefined)) return call('bag_pack', values, 'dynamic', { keys: keys.map((key) => constantString(key)!) });
  return call('bag_pack_computed', keys.flatMap((key, i) => [key, values[i]!]), 'dynamic');
}

/** Rotations and shifts: a left move by n is a right move by -n. */
const moved =
  (fn: 'array_rotate' | 'array_shift', direction: 1 | -1): ScalarRule =>
  (site) => {
    site.arity(2, fn === 'array_shift' ? 3 : 2);
    const count = site.arg(1, 'int');
    const by = direction === 1 ? count : call('neg', [count], 'int');
    const args = [site.arg(0, 'dynamic'), by];
    if (fn === 'array_shift') args.push(site.count > 2 ? site.arg(2, 'dynamic') : nullOf('dynamic'));
    return call(fn, args, 'dynamic');
  };

const sets =
  (fn: string): ScalarRule =>
  (site) => {
    site.arity(2, 64);
    return call(fn, site.args.map((_, i) => site.arg(i, 'dynamic')), 'dynamic');
  };

const sorted =
  (descending: boolean): ScalarRule =>
  (site) => {
    site.arity(1, 2);
    const nullsLast = site.count > 1 ? site.arg(1, 'bool') : literal({ type: 'bool', value: true });
    if (nullsLast.kind !== 'literal') throw site.error('nulls_last must be a constant bool', 1);
    return call('array_sort', [site.arg(0, 'dynamic')], 'dynamic', { descending, nullsLast: nullsLast.value.type === 'bool' ? nullsLast.value.value : true });
  };

export const ARRAY_FUNCTIONS: ScalarFamily = {
  array_length: unary('array_length', 'dynamic', 'int'),
  len: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'dynamic') return call('dyn_len', [arg], 'int');
    if (arg.type === 'null') return nullOf('int');
    return call('strlen', [site.arg(0, 'string')], 'int');
  },
  isarray: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    return arg.type === 'dynamic' ? call('is_json_kind', [arg], 'bool', { kinds: ['ARRAY'] }) : literal({ type: 'bool', value: false });
  },
  array_concat: dynamics('array_concat', 1, 64, 'dynamic'),
  array_reverse: unary('array_reverse', 'dynamic', 'dynamic'),
  array_rotate_left: moved('array_rotate', 1),
  array_rotate_right: moved('array_rotate', -1),
  array_shift_left: moved('array_shift', 1),
  array_shift_right: moved('array_shift', -1),
  array_slice: (site) => {
    site.arity(3);
    return call('array_slice', [site.arg(0, 'dynamic'), site.arg(1, 'int'), site.arg(2, 'int')], 'dynamic');
  },
  array_sort_asc: sorted(false),
  array_sort_desc: sorted(true),
  array_split: (site) => {
    site.arity(2);
    const at = site.raw(1);
    const points = at.type === 'dynamic' ? at : call('pack_array', [site.arg(1, 'dynamic')], 'dynamic');
    return call('array_split', [site.arg(0, 'dynamic'), points], 'dynamic');
  },
  array_sum: unary('array_sum', 'dynamic', 'real'),
  array_index_of: (site) => {
    site.arity(2, 5);
    const int = (i: number, fallback: number) => (i < site.count ? site.arg(i, 'int') : intLiteral(fallback));
    return call('array_index_of', [site.arg(0, 'dynamic'), site.arg(1, 'dynamic'), int(2, 0), int(3, -1), int(4, 1)], 'int');
  },
  array_iff: (site) => {
    site.arity(3);
    return call('array_iff', [site.arg(0, 'dynamic'), site.arg(1, 'dynamic'), site.arg(2, 'dynamic')], 'dynamic');
  },
  array_select_dict: (site) => {
    site.arity(3);
    return call('array_select_dict', [site.arg(0, 'dynamic'), site.arg(1, 'string'), site.arg(2, 'dynamic')], 'dynamic');
  },
  array_extract: (site) => {
    site.arity(2);
    const path = site.constString(1);
    if (!path.startsWith('$')) throw site.error('the path must be a JSON path starting with $, such as $[*].name', 1);
    return call('array_extract', [site.arg(0, 'dynamic')], 'dynamic', { path });
  },
  strcat_array: (site) => {
    site.arity(1, 2);
    return call('strcat_array', [site.arg(0, 'dynamic'), site.count > 1 ? site.arg(1, 'string') : stringLiteral('')], 'string');
  },
  pack_array: (site) => {
    site.arity(1, 64);
    const { values } = expandStar(site);
    return call('pack_array', values.map((value) => (value.type === 'dynamic' ? value : call('cast', [value], 'dynamic'))), 'dynamic');
  },
  bag_pack: bagRule,
  pack: bagRule,
  pack_dictionary: bagRule,
  bag_has_key: (site) => {
    site.arity(2);
    return call('bag_has_key', [site.arg(0, 'dynamic'), site.arg(1, 'string')], 'bool');
  },
  bag_keys: unary('bag_keys', 'dynamic', 'dynamic'),
  bag_zip: dynamics('bag_zip', 2, 2, 'dynamic'),
};

/** The set functions and range(), which Axiom files under the mathematical functions. */
export const ARRAY_MATH_FUNCTIONS: ScalarFamily = {
  set_union: sets('set_union'),
  set_intersect: sets('set_intersect'),
  set_difference: sets('set_difference'),
  set_has_element: (site) => {
    site.arity(2);
    return call('set_has_element', [site.arg(0, 'dynamic'), site.arg(1, 'dynamic')], 'bool');
  },
  range: (site) => {
    site.arity(2, 3);
    const first = site.raw(0);
    if (first.type === 'datetime' || first.type === 'timespan') {
      const step = site.count > 2 ? site.arg(2, 'timespan') : literal({ type: 'timespan', nanos: 3_600_000_000_000n });
      return call('range_of', [site.arg(0, first.type), site.arg(1, first.type), step], 'dynamic');
    }
    const type = unify(site.args, site) === 'int' ? 'int' : 'real';
    const step = site.count > 2 ? site.arg(2, type) : type === 'int' ? intLiteral(1) : literal({ type: 'real', value: 1 });
    return call('range_of', [site.arg(0, type), site.arg(1, type), step], 'dynamic');
  },
};
