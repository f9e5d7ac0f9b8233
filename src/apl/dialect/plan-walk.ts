// Walking and rewriting a typed plan without knowing SQL: the expressions each node computes
// (with the relation whose rows they read), its inputs, and a node rebuilt with its expressions
// and inputs mapped. For passes that change a plan before a dialect writes it.
import type { Rel, TExpr } from '../semantic/plan';

type CallExpr = Extract<TExpr, { kind: 'call' }>;

/** The expressions a node computes, each with the relation whose rows it reads. */
export function expressionsOf(rel: Rel): { exprs: TExpr[]; input: Rel | undefined }[] {
  switch (rel.op) {
    case 'scan':
      return [];
    case 'filter':
      return [{ exprs: [rel.predicate], input: rel.input }];
    case 'project':
      return [{ exprs: rel.exprs, input: rel.input }];
    case 'aggregate':
      return [{ exprs: [...rel.groups, ...rel.aggregates.flatMap((agg) => (agg.filter ? [...agg.args, agg.filter] : agg.args))], input: rel.input }];
    case 'sort':
      return [{ exprs: rel.keys.map((key) => key.expr), input: rel.input }];
    case 'limit':
    case 'sample':
      return [];
    case 'union':
      return rel.inputs.map((input) => ({ exprs: input.exprs, input: input.rel }));
    case 'join':
      return [
        { exprs: rel.keys.map((key) => key.left), input: rel.left },
        { exprs: rel.keys.map((key) => key.right), input: rel.right },
      ];
    case 'values':
      return [{ exprs: rel.rows.flat(), input: undefined }];
    case 'window':
      return [{ exprs: rel.functions.flatMap((fn) => [...fn.partition, ...fn.order.map((key) => key.expr)]), input: rel.input }];
    case 'expand':
      return [{ exprs: [...rel.expansions.map((expansion) => expansion.expr), ...rel.outputs.flatMap((output) => (output.kind === 'input' ? [output.expr] : []))], input: rel.input }];
    case 'series':
      return [{ exprs: rel.values.map((value) => value.default), input: undefined }];
  }
}

/** The relations a node reads (its inputs). */
export function inputsOf(rel: Rel): Rel[] {
  switch (rel.op) {
    case 'scan':
    case 'values':
      return [];
    case 'union':
      return rel.inputs.map((input) => input.rel);
    case 'join':
      return [rel.left, rel.right];
    default:
      return [rel.input];
  }
}

/** A subquery an expression holds (`x in (T)`). */
export const subqueryOf = (call: CallExpr): Rel | undefined => (call.options?.rel as Rel | undefined) ?? undefined;

/** A node with its expressions and inputs mapped (the node itself when nothing changed). */
export function rewriteNode(node: Rel, expr: (e: TExpr) => TExpr, rel: (r: Rel) => Rel): Rel {
  const same = <T>(before: readonly T[], after: readonly T[]) => before.every((item, i) => item === after[i]);
  let next: Rel;
  switch (node.op) {
    case 'scan':
      return node;
    case 'values':
      next = { ...node, rows: node.rows.map((row) => row.map(expr)) };
      break;
    case 'filter':
      next = { ...node, input: rel(node.input), predicate: expr(node.predicate) };
      break;
    case 'project':
      next = { ...node, input: rel(node.input), exprs: node.exprs.map(expr) };
      break;
    case 'aggregate':
      next = {
        ...node,
        input: rel(node.input),
        groups: node.groups.map(expr),
        aggregates: node.aggregates.map((agg) => ({ ...agg, args: agg.args.map(expr), ...(agg.filter ? { filter: expr(agg.filter) } : {}) })),
      };
      break;
    case 'sort':
      next = { ...node, input: rel(node.input), keys: node.keys.map((key) => ({ ...key, expr: expr(key.expr) })) };
      break;
    case 'limit':
    case 'sample':
      next = { ...node, input: rel(node.input) };
      break;
    case 'union':
      next = { ...node, inputs: node.inputs.map((input) => ({ rel: rel(input.rel), exprs: input.exprs.map(expr) })) };
      break;
    case 'join':
      next = { ...node, left: rel(node.left), right: rel(node.right), keys: node.keys.map((key) => ({ left: expr(key.left), right: expr(key.right) })) };
      break;
    case 'window':
      next = {
        ...node,
        input: rel(node.input),
        functions: node.functions.map((fn) => ({ ...fn, partition: fn.partition.map(expr), order: fn.order.map((key) => ({ ...key, expr: expr(key.expr) })) })),
      };
      break;
    case 'expand':
      next = {
        ...node,
        input: rel(node.input),
        expansions: node.expansions.map((expansion) => ({ ...expansion, expr: expr(expansion.expr) })),
        outputs: node.outputs.map((output) => (output.kind === 'input' ? { ...output, expr: expr(output.expr) } : output)),
      };
      break;
    case 'series':
      next = { ...node, input: rel(node.input), values: node.values.map((value) => ({ ...value, default: expr(value.default) })) };
      break;
  }
  // Unchanged nodes stay themselves, so nothing the plan holds by identity is lost.
  const before = [...expressionsOf(node).flatMap((part) => part.exprs), ...inputsOf(node)];
  const after = [...expressionsOf(next).flatMap((part) => part.exprs), ...inputsOf(next)];
  return same(before, after) ? node : next;
}

/** Whether `expr` reads the column `id`. */
export function reads(expr: TExpr, id: string): boolean {
  if (expr.kind === 'column') return expr.id === id;
  return expr.kind === 'call' && expr.args.some((arg) => reads(arg, id));
}

/** How many nodes read each node (a `let` read twice is one node with two readers). */
export function readerCounts(root: Rel): Map<Rel, number> {
  const counts = new Map<Rel, number>();
  const seen = new Set<Rel>();
  const relations = [root];
  const subqueries = (expr: TExpr): Rel[] => {
    if (expr.kind !== 'call') return [];
    const subquery = subqueryOf(expr);
    return [...(subquery ? [subquery] : []), ...expr.args.flatMap(subqueries)];
  };
  while (relations.length > 0) {
    const rel = relations.pop()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const children = [...inputsOf(rel), ...expressionsOf(rel).flatMap((part) => part.exprs.flatMap(subqueries))];
    for (const child of children) counts.set(child, (counts.get(child) ?? 0) + 1);
    relations.push(...children);
  }
  return counts;
}
