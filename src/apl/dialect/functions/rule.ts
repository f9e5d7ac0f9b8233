// The shape every dialect's function rules share: a rule turns one canonical call of the typed
// plan into SQL, given the writer that quotes constants and the SQL of each argument. Rules
// written once for every engine take the engine's spelling (./spelling.ts) when they are made.
import type { TExpr } from '../../semantic/plan';
import { literalString } from '../base/values';

export { literalString };

export type CallExpr = Extract<TExpr, { kind: 'call' }>;

/** What a rule needs from an engine's expression writer. */
export interface ConstantWriter {
  /** A string value: a quoted literal, or a statement parameter for text a literal cannot carry. */
  text(value: string): string;
  /** A string constant the planner should see (regex, JSON path, format), safely quoted. */
  constant(value: string): string;
}

/** SQL for one canonical call; `a(i)` is the SQL of argument i (written once, then reused). */
export type Rule<W extends ConstantWriter = ConstantWriter> = (w: W, e: CallExpr, a: (i: number) => string) => string;
/** A family's table: canonical call name → SQL rule. */
export type RuleTable<W extends ConstantWriter = ConstantWriter> = Record<string, Rule<W>>;


export function negatable(e: CallExpr, subject: string, positive: string): string {
  // Kusto treats a missing string as empty, so negated string operators keep null rows.
  return e.options?.negated ? `(${subject} IS NULL OR NOT ${positive})` : positive;
}

/** A regex operand: constant patterns are inlined so the engine compiles them once. */
export function regexArg(w: ConstantWriter, expr: TExpr, sql: () => string): string {
  const text = literalString(expr);
  return text === undefined ? sql() : w.constant(text);
}

/** The SQL of every argument, in order. */
export const allArguments = (e: CallExpr, a: (i: number) => string): string[] => e.args.map((_, i) => a(i));
