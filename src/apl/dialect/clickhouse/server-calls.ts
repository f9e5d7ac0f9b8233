// Functions ClickHouse's SQL cannot express, which the DuckDB store runs as functions inside its
// engine: canonical JSON (keys sorted at every depth needs recursion), GeoIP (a lookup in an MMDB
// file), parse_sql and format_sql (a SQL grammar) and the token estimate (a tokenizer). The
// server answers them with the same code: on the rows the statement returns where only the
// result reads the value (./server-columns.ts), else before the statement, which then looks each
// row's answer up (./server-lookups.ts), so filters, groupings, aggregations, sorts, joins and
// subqueries read it as any other value.
import type { Rel, TExpr } from '../../semantic/plan';
import { expressionsOf, inputsOf, subqueryOf } from '../plan-walk';
import type { ExprWriter } from './expressions';
import type { CallExpr } from './functions/rule';
import { nullableType } from './values';

/** Canonical calls the server answers on ClickHouse (each takes one argument, its text). */
export const SERVER_CALLS: ReadonlySet<string> = new Set(['json_canonical', 'geo_info', 'parse_sql', 'format_sql', 'genai_estimate_tokens']);

/** What the server answered for one call: argument text → value (null: the function's null). */
export type ServerAnswers = ReadonlyMap<string, string | number | bigint | null>;

export const answersOf = (call: CallExpr): ServerAnswers | undefined => call.options?.serverAnswers as ServerAnswers | undefined;

/**
 * The rule of every server call: the row's answer, found by its argument's text among what the
 * server answered (null for a null argument, as the DuckDB functions give).
 */
export function answeredByServer(w: ExprWriter, e: CallExpr, a: (i: number) => string): string {
  const answers = answersOf(e);
  if (!answers) throw new Error(`${e.fn} is answered by the server: the statement is written once its answers are known`);
  const type = nullableType(e.type);
  if (answers.size === 0) return `CAST(NULL AS ${type})`;
  const keys: string[] = [];
  const values: string[] = [];
  for (const [key, value] of answers) {
    keys.push(w.text(key));
    values.push(value === null ? 'NULL' : typeof value === 'string' ? w.text(value) : String(value));
  }
  return `transform(${a(0)}, [${keys.join(', ')}], CAST([${values.join(', ')}] AS Array(${type})), CAST(NULL AS ${type}))`;
}

/** Whether `expr` holds a server call not answered yet. */
export function holdsServerCall(expr: TExpr): boolean {
  if (expr.kind !== 'call') return false;
  return (SERVER_CALLS.has(expr.fn) && !answersOf(expr)) || expr.args.some(holdsServerCall);
}

/** Whether any expression of the plan (its subqueries included) holds a server call not answered yet. */
export function planHoldsServerCall(root: Rel): boolean {
  const seen = new Set<Rel>();
  const relations = [root];
  const holds = (expr: TExpr): boolean => {
    if (expr.kind !== 'call') return false;
    const subquery = subqueryOf(expr);
    if (subquery) relations.push(subquery);
    return (SERVER_CALLS.has(expr.fn) && !answersOf(expr)) || expr.args.some(holds);
  };
  while (relations.length > 0) {
    const rel = relations.pop()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    if (expressionsOf(rel).some((part) => part.exprs.some(holds))) return true;
    relations.push(...inputsOf(rel));
  }
  return false;
}
