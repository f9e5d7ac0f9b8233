// Server calls whose value only reaches the result (no operator reads it after them) are
// answered on the rows the statement returns: the statement returns the argument's text in that
// column, so a `take` or a page bounds the work to the rows returned, and the server puts the
// answer in its place (../../execution/server-functions.ts).
import type { Rel, RelColumn, TExpr } from '../../semantic/plan';
import { readerCounts, reads, rewriteNode } from '../plan-walk';
import type { CallExpr } from './functions/rule';
import { answersOf, holdsServerCall, SERVER_CALLS } from './server-calls';

/**
 * The projection that computes result column `id` as a server call, when nothing between it and
 * the result reads the value (limits, samples, and filters and sorts on other columns pass it
 * through); undefined otherwise.
 */
function resultCallOf(root: Rel, id: string, readers: Map<Rel, number>): { project: Extract<Rel, { op: 'project' }>; index: number } | undefined {
  let node = root;
  let column = id;
  for (;;) {
    // A node read from elsewhere too must keep its value for that reader.
    if (node !== root && readers.get(node) !== 1) return undefined;
    switch (node.op) {
      case 'limit':
      case 'sample':
        node = node.input;
        continue;
      case 'sort':
        if (node.keys.some((key) => reads(key.expr, column))) return undefined;
        node = node.input;
        continue;
      case 'filter':
        if (reads(node.predicate, column)) return undefined;
        node = node.input;
        continue;
      case 'project': {
        const index = node.columns.findIndex((candidate) => candidate.id === column);
        const expr = node.exprs[index];
        if (!expr) return undefined;
        if (expr.kind === 'column') {
          const source = expr.id;
          if (node.exprs.filter((other) => reads(other, source)).length !== 1) return undefined;
          column = source;
          node = node.input;
          continue;
        }
        if (expr.kind === 'call' && SERVER_CALLS.has(expr.fn) && !answersOf(expr) && !expr.args.some(holdsServerCall)) return { project: node, index };
        return undefined;
      }
      default:
        return undefined;
    }
  }
}

/**
 * Server calls whose value only reaches the result are answered on the rows the statement
 * returns, not through a lookup: the statement returns the argument's text in that column (so a
 * `take` or a page bounds the work to the rows returned), and the server puts the answer in its
 * place. Returns the plan to compile and those result columns.
 */
export function answeredInResult(root: Rel, columns: RelColumn[]): { rel: Rel; serverColumns: { position: number; fn: string }[] } {
  const readers = readerCounts(root);
  const replaced = new Map<Rel, Map<number, TExpr>>();
  const serverColumns: { position: number; fn: string }[] = [];
  columns.forEach((column, position) => {
    const found = resultCallOf(root, column.id, readers);
    if (!found) return;
    const call = found.project.exprs[found.index] as CallExpr;
    const arguments_ = replaced.get(found.project) ?? new Map<number, TExpr>();
    arguments_.set(found.index, call.args[0]!);
    replaced.set(found.project, arguments_);
    serverColumns.push({ position, fn: call.fn });
  });
  if (serverColumns.length === 0) return { rel: root, serverColumns };
  const rels = new Map<Rel, Rel>();
  const rel = (node: Rel): Rel => {
    let done = rels.get(node);
    if (!done) {
      const arguments_ = replaced.get(node);
      done =
        arguments_ && node.op === 'project'
          ? { ...node, input: rel(node.input), exprs: node.exprs.map((expr, i) => arguments_.get(i) ?? expr) }
          : rewriteNode(node, (expr) => expr, rel);
      rels.set(node, done);
    }
    return done;
  };
  return { rel: rel(root), serverColumns };
}
