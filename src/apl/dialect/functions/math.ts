// Mathematical functions.
import { allArguments, type RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

export function mathRules(sql: SqlSpelling): RuleTable {
  const fn = (name: string) => (_w: unknown, _e: unknown, a: (i: number) => string) => sql.call(name, a(0));
  /** Zero and the negative whole numbers are poles of the gamma function: null. */
  const offPoles = (x: string, value: string) => sql.nullUnless(`NOT (${x} <= 0 AND ${x} = trunc(${x}))`, value);
  return {
    min_of: (_w, e, a) => `least(${allArguments(e, a).join(', ')})`,
    max_of: (_w, e, a) => `greatest(${allArguments(e, a).join(', ')})`,
    abs: fn('abs'),
    sign: fn('sign'),
    // Logarithms of zero or less are null, as Axiom documents.
    log: (_w, _e, a) => sql.nullUnless(`${a(0)} > 0`, sql.call('ln', a(0))),
    log10: (_w, _e, a) => sql.nullUnless(`${a(0)} > 0`, sql.call('log10', a(0))),
    log2: (_w, _e, a) => sql.nullUnless(`${a(0)} > 0`, sql.call('log2', a(0))),
    acos: (_w, _e, a) => sql.nullUnless(`${a(0)} BETWEEN -1 AND 1`, sql.call('acos', a(0))),
    asin: (_w, _e, a) => sql.nullUnless(`${a(0)} BETWEEN -1 AND 1`, sql.call('asin', a(0))),
    atan: fn('atan'),
    atan2: (_w, _e, a) => sql.call('atan2', a(0), a(1)),
    cos: fn('cos'),
    sin: fn('sin'),
    tan: fn('tan'),
    cot: (_w, _e, a) => sql.nullUnless(`sin(${a(0)}) ${sql.notEqual} 0`, `cos(${a(0)}) / sin(${a(0)})`),
    degrees: fn('degrees'),
    radians: fn('radians'),
    gamma: (_w, _e, a) => offPoles(a(0), sql.call('gamma', a(0))),
    loggamma: (_w, _e, a) => offPoles(a(0), sql.call('lgamma', a(0))),
    isint: (_w, _e, a) => sql.ifNull(`${sql.call('isfinite', a(0))} AND ${a(0)} = trunc(${a(0)})`, 'false'),
    rand: (_w, e, a) => (e.args.length ? sql.toBigint(`floor(${sql.call('random')} * ${a(0)})`) : sql.call('random')),
    sqrt: (_w, _e, a) => sql.nullUnless(`${a(0)} >= 0`, sql.call('sqrt', a(0))),
    exp: fn('exp'),
    exp2: (_w, _e, a) => `pow(2, ${a(0)})`,
    exp10: (_w, _e, a) => `pow(10, ${a(0)})`,
    pow: (_w, _e, a) => sql.call('pow', a(0), a(1)),
    isnan: fn('isnan'),
    isinf: fn('isinf'),
    isfinite: fn('isfinite'),
  };
}
