// Building blocks of typed expressions: constructors, implicit conversions and constant folding.
import type { LiteralValue } from '../syntax/ast';
import { type Position, semanticError } from '../syntax/position';
import { parseDateTime } from '../time';
import type { AplType, CallOptions, TExpr } from './plan';

export function literalTypeOf(value: LiteralValue): AplType {
  return value.type;
}

export const literal = (value: LiteralValue, type: AplType = value.type): TExpr => ({ kind: 'literal', value, type });
export const nullOf = (type: AplType): TExpr => literal({ type: 'null' }, type);
export const stringLiteral = (value: string): TExpr => literal({ type: 'string', value });
export const intLiteral = (value: bigint | number): TExpr => literal({ type: 'int', value: BigInt(value) });
export const boolLiteral = (value: boolean): TExpr => literal({ type: 'bool', value });

export function call(fn: string, args: TExpr[], type: AplType, options?: CallOptions): TExpr {
  const folded = fold(fn, args, type);
  if (folded) return folded;
  return options ? { kind: 'call', fn, args, type, options } : { kind: 'call', fn, args, type };
}

export const isLiteral = (expr: TExpr): expr is Extract<TExpr, { kind: 'literal' }> => expr.kind === 'literal';
export const isNumeric = (type: AplType) => type === 'int' || type === 'real';

/** The constant string of a literal expression, if it is one. */
export function constantString(expr: TExpr): string | undefined {
  return expr.kind === 'literal' && expr.value.type === 'string' ? expr.value.value : undefined;
}

export function constantNumber(expr: TExpr): number | undefined {
  if (expr.kind !== 'literal') return undefined;
  if (expr.value.type === 'int') return Number(expr.value.value);
  if (expr.value.type === 'real') return expr.value.value;
  return undefined;
}

/** Can a value of `from` be converted to `to` implicitly (arguments, comparisons)? */
export function convertible(from: AplType, to: AplType): boolean {
  if (from === to || from === 'null' || to === 'string' || to === 'dynamic' || from === 'dynamic') return true;
  if (from === 'string') return to !== 'null';
  if (to === 'real' || to === 'int') return from === 'int' || from === 'real' || from === 'bool';
  if (to === 'bool') return from === 'int';
  return false;
}

/** Converts `expr` to `to`, or raises a positioned error saying what was expected. */
export function convert(expr: TExpr, to: AplType, at: Position, what: string): TExpr {
  if (expr.type === to) return expr;
  if (expr.type === 'null') return expr.kind === 'literal' ? nullOf(to) : call('cast', [expr], to);
  if (!convertible(expr.type, to)) {
    throw semanticError(at, `${what} must be ${article(to)}, found ${article(expr.type)}`, { expected: to, found: expr.type });
  }
  return call('cast', [expr], to);
}

export function article(type: AplType): string {
  const names: Record<AplType, string> = {
    bool: 'a bool',
    int: 'a long',
    real: 'a real',
    string: 'a string',
    datetime: 'a datetime',
    timespan: 'a timespan',
    dynamic: 'a dynamic value',
    null: 'null',
  };
  return names[type];
}

// ---- constant folding -------------------------------------------------------------------
// Only what makes filters push down: `ago(1h)`, `now() - 2d`, `datetime(...) + 1h`, `-5`,
// and string literals converted to datetimes, numbers or timespans.

type Literal = LiteralValue;

function asBig(value: Literal): bigint | undefined {
  if (value.type === 'int') return value.value;
  if (value.type === 'datetime' || value.type === 'timespan') return value.nanos;
  return undefined;
}

function fold(fn: string, args: TExpr[], type: AplType): TExpr | undefined {
  if (!args.every(isLiteral)) return undefined;
  const values = args.map((arg) => (arg as Extract<TExpr, { kind: 'literal' }>).value);
  if (fn === 'cast') return foldCast(values[0]!, type);
  if (values.some((value) => value.type === 'null')) {
    return ['add', 'sub', 'mul', 'div', 'neg'].includes(fn) ? nullOf(type) : undefined;
  }
  const [a, b] = values;
  switch (fn) {
    case 'neg': {
      if (a!.type === 'real') return literal({ type: 'real', value: -a!.value });
      const big = asBig(a!);
      if (big === undefined) return undefined;
      return literal(type === 'timespan' ? { type: 'timespan', nanos: -big } : { type: 'int', value: -big });
    }
    case 'add':
    case 'sub': {
      if (type === 'real') {
        const x = toNumber(a!);
        const y = toNumber(b!);
        if (x === undefined || y === undefined) return undefined;
        return literal({ type: 'real', value: fn === 'add' ? x + y : x - y });
      }
      const x = asBig(a!);
      const y = asBig(b!);
      if (x === undefined || y === undefined) return undefined;
      const result = fn === 'add' ? x + y : x - y;
      if (type === 'datetime') return literal({ type: 'datetime', nanos: result });
      if (type === 'timespan') return literal({ type: 'timespan', nanos: result });
      if (type === 'int') return literal({ type: 'int', value: result });
      return undefined;
    }
    case 'mul': {
      if (type === 'timespan') {
        const span = a!.type === 'timespan' ? a! : b!;
        const factor = a!.type === 'timespan' ? b! : a!;
        const nanos = asBig(span);
        if (nanos === undefined) return undefined;
        if (factor.type === 'int') return literal({ type: 'timespan', nanos: nanos * factor.value });
        if (factor.type === 'real') return literal({ type: 'timespan', nanos: BigInt(Math.trunc(Number(nanos) * factor.value)) });
        return undefined;
      }
      if (type === 'int' && a!.type === 'int' && b!.type === 'int') return literal({ type: 'int', value: a!.value * b!.value });
      return undefined;
    }
    default:
      return undefined;
  }
}

function toNumber(value: Literal): number | undefined {
  if (value.type === 'int') return Number(value.value);
  if (value.type === 'real') return value.value;
  return undefined;
}

function foldCast(value: Literal, to: AplType): TExpr | undefined {
  if (value.type === 'null') return nullOf(to);
  if (value.type === to) return literal(value);
  switch (to) {
    case 'real':
      if (value.type === 'int') return literal({ type: 'real', value: Number(value.value) });
      if (value.type === 'string' && value.value.trim() !== '' && Number.isFinite(Number(value.value))) {
        return literal({ type: 'real', value: Number(value.value) });
      }
      return undefined;
    case 'int':
      if (value.type === 'string' && /^\s*[+-]?\d+\s*$/.test(value.value)) return literal({ type: 'int', value: BigInt(value.value.trim()) });
      if (value.type === 'real' && Number.isFinite(value.value)) return literal({ type: 'int', value: BigInt(Math.trunc(value.value)) });
      return undefined;
    case 'datetime':
      if (value.type === 'string') {
        const nanos = parseDateTime(value.value);
        return nanos === undefined ? nullOf('datetime') : literal({ type: 'datetime', nanos });
      }
      return undefined;
    case 'string':
      if (value.type === 'int') return literal({ type: 'string', value: value.value.toString() });
      if (value.type === 'bool') return literal({ type: 'string', value: String(value.value) });
      return undefined;
    default:
      return undefined;
  }
}
