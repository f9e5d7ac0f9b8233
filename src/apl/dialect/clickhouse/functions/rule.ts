// What the ClickHouse rules of every family share: the rule type, argument writing, and helpers
// for nulls, regexes and negated string operators.
import type { TExpr } from '../../../semantic/plan';
import type { ExprWriter } from '../expressions';
import { literalString } from '../values';

export type CallExpr = Extract<TExpr, { kind: 'call' }>;
/** SQL for one canonical call; `a(i)` is the SQL of argument i (written once, then reused). */
export type Rule = (w: ExprWriter, e: CallExpr, a: (i: number) => string) => string;
/** A family's table: canonical call name → SQL rule. */
export type RuleTable = Record<string, Rule>;

/** `value` where every argument is non-null, else null (for functions that return arrays). */
export function whenNotNull(args: string[], value: string): string {
  if (args.length === 0) return value;
  return `if(${args.map((arg) => `${arg} IS NULL`).join(' OR ')}, NULL, ${value})`;
}

/** The text without its Nullable wrapper, for functions that refuse null input. */
export const notNull = (x: string) => `assumeNotNull(${x})`;

/** A regex operand: constant patterns are inlined so ClickHouse compiles them once. */
export function regexArg(w: ExprWriter, expr: TExpr, sql: () => string): string {
  const text = literalString(expr);
  return text === undefined ? sql() : w.constant(text);
}

export function negatable(e: CallExpr, subject: string, positive: string): string {
  // Kusto treats a missing string as empty, so negated string operators keep null rows.
  return e.options?.negated ? `(${subject} IS NULL OR NOT ${positive})` : positive;
}

/** Division whose zero divisor gives null, as in DuckDB (ClickHouse would give inf or fail). */
export const safeDivisor = (b: string) => `if(${b} = 0, NULL, ${b})`;

export { argumentWriter } from '../../arguments';

/** `body` with `name` bound to the value of `value`, computed once per row. */
export function bindSql(value: string, name: string, body: string): string {
  return `arrayMap(${name} -> ${body}, [${value}])[1]`;
}
