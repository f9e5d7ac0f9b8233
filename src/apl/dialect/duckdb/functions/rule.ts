// What the DuckDB rules of every family share: the rule type (the shared one, over DuckDB's
// expression writer), and binding a value once per row.
import type { Rule as SharedRule, RuleTable as SharedRuleTable } from '../../functions/rule';
import type { ExprWriter } from '../expressions';

export type { CallExpr } from '../../functions/rule';
/** SQL for one canonical call; `a(i)` is the SQL of argument i (written once, then reused). */
export type Rule = SharedRule<ExprWriter>;
/** A family's table: canonical call name → SQL rule. */
export type RuleTable = SharedRuleTable<ExprWriter>;

export { regexArg } from '../../functions/rule';
export { escapeRegex } from '../../regex';

export { argumentWriter } from '../../arguments';

/**
 * `body` with `name` bound to the value of `value`, computed once per row: a lambda that reads
 * a list by index would otherwise rebuild the list for every element.
 */
export function bindSql(value: string, name: string, body: string): string {
  return `list_transform([${value}], lambda ${name}: ${body})[1]`;
}
