// What the DuckDB rules of every family share: the rule type, and helpers for regexes and
// for negated string operators.
import type { TExpr } from '../../../semantic/plan';
import type { ExprWriter } from '../expressions';
import { literalString } from '../values';

export type CallExpr = Extract<TExpr, { kind: 'call' }>;
/** SQL for one canonical call; `a(i)` is the SQL of argument i (written once, then reused). */
export type Rule = (w: ExprWriter, e: CallExpr, a: (i: number) => string) => string;
/** A family's table: canonical call name → SQL rule. */
export type RuleTable = Record<string, Rule>;

export { escapeRegex } from '../../regex';

/** A regex operand: constant patterns are inlined so DuckDB compiles them once. */
export function regexArg(w: ExprWriter, expr: TExpr, sql: () => string): string {
  const text = literalString(expr);
  return text === undefined ? sql() : w.constant(text);
}

export function negatable(e: CallExpr, subject: string, positive: string): string {
  // Kusto treats a missing string as empty, so negated string operators keep null rows.
  return e.options?.negated ? `(${subject} IS NULL OR NOT ${positive})` : positive;
}

export { argumentWriter } from '../../arguments';

/**
 * `body` with `name` bound to the value of `value`, computed once per row: a lambda that reads
 * a list by index would otherwise rebuild the list for every element.
 */
export function bindSql(value: string, name: string, body: string): string {
  return `list_transform([${value}], lambda ${name}: ${body})[1]`;
}
