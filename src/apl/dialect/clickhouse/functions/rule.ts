// What the ClickHouse rules of every family share: the rule type (the shared one, over
// ClickHouse's expression writer), and helpers for nulls, divisors and binding a value once per row.
import type { Rule as SharedRule, RuleTable as SharedRuleTable } from '../../functions/rule';
import type { ExprWriter } from '../expressions';

export type { CallExpr } from '../../functions/rule';
/** SQL for one canonical call; `a(i)` is the SQL of argument i (written once, then reused). */
export type Rule = SharedRule<ExprWriter>;
/** A family's table: canonical call name → SQL rule. */
export type RuleTable = SharedRuleTable<ExprWriter>;

export { regexArg } from '../../functions/rule';

/** `value` where every argument is non-null, else null (for functions that return arrays). */
export function whenNotNull(args: string[], value: string): string {
  if (args.length === 0) return value;
  return `if(${args.map((arg) => `${arg} IS NULL`).join(' OR ')}, NULL, ${value})`;
}

/** The text without its Nullable wrapper, for functions that refuse null input. */
export const notNull = (x: string) => `assumeNotNull(${x})`;

/** Division whose zero divisor gives null, as in DuckDB (ClickHouse would give inf or fail). */
export const safeDivisor = (b: string) => `if(${b} = 0, NULL, ${b})`;

export { argumentWriter } from '../../arguments';

/** `body` with `name` bound to the value of `value`, computed once per row. */
export function bindSql(value: string, name: string, body: string): string {
  return `arrayMap(${name} -> ${body}, [${value}])[1]`;
}
