// Small helpers shared by the operator analyses: synthetic syntax nodes, declared type names
// and constant arguments.
import type { Expr } from '../../syntax/ast';
import { type Position, semanticError } from '../../syntax/position';
import { PARSE_TYPES } from '../type-names';
import type { AplType, TExpr } from '../plan';
import { constantNumber } from '../typed';

/** A reference to a field by its exact name, as `['name']` would be written. */
export function fieldName(name: string, pos: Position): Expr {
  return { kind: 'name', pos, name, bracketed: true };
}

/** An aggregation call written in syntax, as `name(args)` would be. */
export function callExpr(name: string, args: Expr[], pos: Position): Expr {
  return { kind: 'call', pos, name, args: args.map((value) => ({ value })) };
}

/** The APL type a declaration names (`long`, `string`, `datetime`, `dynamic`, ...). */
export function typeFromName(name: string, pos: Position): AplType {
  const type = PARSE_TYPES[name.toLowerCase()];
  if (!type) throw semanticError(pos, `unknown type "${name}"; use string, int, long, real, bool, datetime, timespan or dynamic`, { type: name });
  return type;
}

/** A constant whole number of at least `min` (row counts, limits). */
export function constantCount(expr: TExpr, pos: Position, what: string, min = 0): number {
  const value = constantNumber(expr);
  if (value === undefined || !Number.isInteger(value) || value < min) throw semanticError(pos, `${what} must be a whole number of at least ${min}`);
  return value;
}
