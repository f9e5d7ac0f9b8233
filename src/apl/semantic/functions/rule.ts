// What every family of scalar functions shares: the rule type and small rule builders. A rule
// checks and converts the arguments of one call and returns a typed call whose canonical name
// the dialects know (or a composition of such calls).
import type { AplType, TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { call, isNumeric } from '../typed';

export type ScalarRule = (site: CallSite) => TExpr;

/** A family's table: APL function name → rule. */
export type ScalarFamily = Record<string, ScalarRule>;

/** The common type of branches (iff, case, coalesce): numbers widen to real, mixes fall back to string. */
export function unify(exprs: TExpr[], site: CallSite): AplType {
  const types = [...new Set(exprs.map((e) => e.type).filter((t) => t !== 'null'))];
  if (types.length === 0) return 'null';
  if (types.length === 1) return types[0]!;
  if (types.every(isNumeric)) return 'real';
  if (types.includes('dynamic')) return 'dynamic';
  if (types.includes('string')) return 'string';
  throw site.error(`all values must have the same type, found ${types.join(' and ')}`);
}

/**
 * The type the arguments of min_of and max_of are compared as: that of `unify`, except that
 * dynamic values beside numbers compare as reals, as comparison operators compare them.
 */
export function comparedType(exprs: TExpr[], site: CallSite): AplType {
  const types = new Set(exprs.map((e) => e.type).filter((t) => t !== 'null'));
  if (types.has('dynamic') && types.size > 1 && [...types].every((t) => t === 'dynamic' || isNumeric(t))) return 'real';
  return unify(exprs, site);
}

/** One argument converted to `param`, one canonical call returning `returns`. */
export const unary =
  (fn: string, param: AplType, returns: AplType): ScalarRule =>
  (site) => {
    site.arity(1);
    return call(fn, [site.arg(0, param)], returns);
  };

/** A string function: every argument converted to string, result of `returns`. */
export const strings =
  (fn: string, min: number, max: number, returns: AplType): ScalarRule =>
  (site) => {
    site.arity(min, max);
    return call(fn, site.args.map((_, i) => site.arg(i, 'string')), returns);
  };

/** A function of one real returning a real. */
export const math1 =
  (fn: string): ScalarRule =>
  (site) => {
    site.arity(1);
    return call(fn, [site.arg(0, 'real')], 'real');
  };
