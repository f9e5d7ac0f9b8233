// Server calls whose value an operator reads (a filter, a grouping, an aggregation, a sort, a
// join key, a subquery): for each, a first statement reads the distinct texts of its argument over
// the rows the call sees, the server answers each (../../execution/server-functions.ts), and the
// query's statement finds each row's answer among them (`transform`), so the rows never leave
// ClickHouse. A call whose argument holds another is answered once the inner one is (one round
// per depth).
import type { Rel, RelColumn, TExpr } from '../../semantic/plan';
import type { CompiledSql, CompileOptions, ServerLookup } from '../dialect';
import { expressionsOf, inputsOf, rewriteNode, subqueryOf } from '../plan-walk';
import type { CallExpr } from './functions/rule';
import { answersOf, SERVER_CALLS, type ServerAnswers } from './server-calls';

/** An unanswered server call and the relation whose rows its argument reads (none: a constant). */
interface Pending {
  call: CallExpr;
  input: Rel | undefined;
}

/** Server calls of the plan whose arguments hold no unanswered server call: the ones to answer now. */
function answerableCalls(root: Rel): Pending[] {
  const found: Pending[] = [];
  const seen = new Set<Rel>();
  const relations = [root];
  /** Collects what can be answered now; true when `expr` holds an unanswered server call. */
  const visit = (expr: TExpr, input: Rel | undefined): boolean => {
    if (expr.kind !== 'call') return false;
    const subquery = subqueryOf(expr);
    if (subquery) relations.push(subquery);
    let inner = false;
    for (const arg of expr.args) inner = visit(arg, input) || inner;
    if (!SERVER_CALLS.has(expr.fn) || answersOf(expr)) return inner;
    if (!inner) found.push({ call: expr, input });
    return true;
  };
  while (relations.length > 0) {
    const rel = relations.pop()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    for (const { exprs, input } of expressionsOf(rel)) for (const expr of exprs) visit(expr, input);
    relations.push(...inputsOf(rel));
  }
  return found;
}

/** The column of a lookup statement: the distinct texts of the argument. */
const ARGUMENT: Omit<RelColumn, 'type'> = { id: 'server_argument', name: 'server_argument' };

/** The relation of the distinct argument values a call sees. */
function argumentsOf({ call, input }: Pending): { rel: Rel; column: RelColumn } {
  const arg = call.args[0]!;
  const column: RelColumn = { ...ARGUMENT, type: arg.type };
  if (!input) return { rel: { op: 'values', columns: [column], rows: [[arg]] }, column };
  return { rel: { op: 'aggregate', columns: [column], input, groups: [arg], aggregates: [] }, column };
}

/** The plan with the given calls answered (new nodes where something changed; shared nodes stay shared). */
function withAnswers(root: Rel, answers: ReadonlyMap<CallExpr, ServerAnswers>): Rel {
  const rels = new Map<Rel, Rel>();
  const expr = (e: TExpr): TExpr => {
    if (e.kind !== 'call') return e;
    const answered = answers.get(e);
    if (answered) return { ...e, options: { ...e.options, serverAnswers: answered } };
    const args = e.args.map(expr);
    const subquery = subqueryOf(e);
    const rewritten = subquery ? rel(subquery) : undefined;
    if (args.every((arg, i) => arg === e.args[i]) && rewritten === subquery) return e;
    return { ...e, args, ...(rewritten !== subquery ? { options: { ...e.options, rel: rewritten } } : {}) };
  };
  const rel = (node: Rel): Rel => {
    let done = rels.get(node);
    if (!done) {
      done = rewriteNode(node, expr, rel);
      rels.set(node, done);
    }
    return done;
  };
  return rel(root);
}

type Compile = (rel: Rel, columns: RelColumn[], options: CompileOptions) => CompiledSql;

/**
 * The statement for a plan: written by `compile` at once when no call needs the server, else a
 * pending statement whose lookups read the arguments of the calls to answer first.
 */
export function compileWithServerCalls(rel: Rel, columns: RelColumn[], options: CompileOptions, compile: Compile): CompiledSql {
  const pending = answerableCalls(rel);
  if (pending.length === 0) return compile(rel, columns, options);
  // Calls over the same argument and rows (the same call used twice) share one lookup.
  const lookups: ServerLookup[] = [];
  const lookupOf = new Map<string, number>();
  const positions = pending.map((found) => {
    const { rel: argumentRel, column } = argumentsOf(found);
    const statement = compile(argumentRel, [column], options);
    const key = `${found.call.fn}\u0000${statement.sql}`;
    let at = lookupOf.get(key);
    if (at === undefined) {
      at = lookups.push({ fn: found.call.fn, statement }) - 1;
      lookupOf.set(key, at);
    }
    return at;
  });
  return {
    sql: '',
    params: [],
    pending: {
      lookups,
      complete(answers) {
        const byCall = new Map<CallExpr, ServerAnswers>();
        pending.forEach(({ call }, i) => {
          const answered = answers[positions[i]!]!;
          const known = byCall.get(call);
          // One call seen from two places (a shared expression) takes both places' answers.
          byCall.set(call, known && known !== answered ? new Map([...known, ...answered]) : answered);
        });
        return compileWithServerCalls(withAnswers(rel, byCall), columns, options, compile);
      },
    },
  };
}
