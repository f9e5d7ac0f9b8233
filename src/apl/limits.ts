// What one query may ask of the engine, and the checks that hold it to that. Every stage that
// walks a query recursively (parser, analyzer, dialect, DuckDB's own binder) is bounded by the
// depth and size checked here, and the checks themselves never recurse, so no query can
// exhaust the stack or make compilation run away:
//
//   - the parser counts how deeply its recursive rules nest (parentheses, calls, subqueries);
//   - `checkSyntaxLimits` measures the finished tree (long operator chains nest too) and
//     counts its tabular operators, for APL text and translated legacy requests alike;
//   - `ExpandedMeasure` bounds expressions once `let` names are replaced by their values and
//     user-defined functions by their bodies, where a few lines of text can stand for
//     exponentially many nodes (the analyzer also bounds the work of binding them);
//   - the dialect keeps every string a query computes under `maxStringBytes`.
import type { TExpr } from './semantic/plan';
import type { Query } from './syntax/ast';
import { type Position, semanticError, START } from './syntax/position';

export interface QueryLimits {
  /** Longest query text, in UTF-8 bytes. */
  maxQueryBytes: number;
  /** Deepest nesting of expressions, calls, parentheses and subqueries. */
  maxNesting: number;
  /** Most tabular operators in a query (every pipe, in subqueries and lets too, after expansion). */
  maxOperators: number;
  /** Largest expression once `let` names are replaced by their values (nodes). */
  maxExpressionNodes: number;
  /** Longest string value a query may compute, in bytes. */
  maxStringBytes: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxQueryBytes: 256 * 1024,
  maxNesting: 100,
  maxOperators: 200,
  maxExpressionNodes: 20_000,
  maxStringBytes: 1024 * 1024,
};

export function tooDeep(at: Position, limits: QueryLimits) {
  return semanticError(at, `the query nests deeper than ${limits.maxNesting} levels here; simplify it or split it`, { limit: 'nesting' });
}

export function tooManyOperators(at: Position, limits: QueryLimits) {
  return semanticError(at, `the query has more than ${limits.maxOperators} tabular operators`, { limit: 'operators' });
}

export function tooMuchExpansion(at: Position, limits: QueryLimits, what = 'the query') {
  return semanticError(
    at,
    `${what} stands for more than ${limits.maxExpressionNodes} operations once its let names are replaced by their values and its function calls by their bodies`,
    { limit: 'expressionNodes' },
  );
}

export function checkQueryText(text: string, limits: QueryLimits): void {
  // Three bytes per UTF-16 unit at most, so short queries need no counting.
  // TextEncoder rather than Buffer: the parser also runs in the console's editor.
  if (text.length * 3 > limits.maxQueryBytes && new TextEncoder().encode(text).length > limits.maxQueryBytes) {
    throw semanticError(START, `the query is longer than ${limits.maxQueryBytes} bytes`, { limit: 'length' });
  }
}

const positionOf = (node: object): Position => ((node as { pos?: Position }).pos ?? START);

/**
 * Measures a syntax tree without recursion: its depth (each node with a `kind` is a level;
 * literal values are not walked) and its number of tabular operators.
 */
export function checkSyntaxLimits(query: Query, limits: QueryLimits): void {
  let operators = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: query, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth });
      continue;
    }
    const kind = (node as { kind?: unknown }).kind;
    const level = typeof kind === 'string' ? depth + 1 : depth;
    if (level > limits.maxNesting) throw tooDeep(positionOf(node), limits);
    if (kind === 'literal') continue;
    if ('operators' in node && Array.isArray(node.operators)) {
      operators += node.operators.length;
      if (operators > limits.maxOperators) throw tooManyOperators(positionOf(node), limits);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'pos' && key !== 'namePos') stack.push({ node: value, depth: level });
    }
  }
}

/** Size and depth of typed expressions with every shared (let-bound) subexpression counted where used. */
export class ExpandedMeasure {
  private readonly sizes = new WeakMap<TExpr, number>();
  private readonly depths = new WeakMap<TExpr, number>();

  constructor(private readonly limits: QueryLimits) {}

  /** Refuses an expression whose expansion is too large or too deep; `at` locates it for the message. */
  check(expr: TExpr, at: Position): void {
    const { size, depth } = this.measure(expr);
    if (depth > this.limits.maxNesting) throw tooDeep(at, this.limits);
    if (size > this.limits.maxExpressionNodes) throw tooMuchExpansion(at, this.limits, 'this expression');
  }

  /** Post-order over the expression graph with an explicit stack; each distinct node is visited once. */
  measure(root: TExpr): { size: number; depth: number } {
    const stack: { expr: TExpr; expanded: boolean }[] = [{ expr: root, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (this.sizes.has(top.expr)) {
        stack.pop();
        continue;
      }
      const children = top.expr.kind === 'call' ? top.expr.args : [];
      if (!top.expanded) {
        top.expanded = true;
        for (const child of children) if (!this.sizes.has(child)) stack.push({ expr: child, expanded: false });
        continue;
      }
      // A call carrying a subquery (`in (T | ...)`) is written out with it wherever it is used.
      const nested = nestedRel(top.expr);
      let size = 1 + (nested ? this.planSize(nested) : 0);
      let depth = 0;
      for (const child of children) {
        size += this.sizes.get(child)!;
        depth = Math.max(depth, this.depths.get(child)!);
      }
      this.sizes.set(top.expr, size);
      this.depths.set(top.expr, depth + 1);
      stack.pop();
    }
    return { size: this.sizes.get(root)!, depth: this.depths.get(root)! };
  }

  private readonly planSizes = new WeakMap<object, number>();

  /** Expressions and operators of a subquery's plan, checked as the query's own are. */
  private planSize(rel: object): number {
    let size = this.planSizes.get(rel);
    if (size === undefined) {
      size = walkPlan(rel, this, this.limits);
      this.planSizes.set(rel, size);
    }
    return size;
  }
}

/** The plan a call carries, if any (`in_subquery` carries its table's). */
function nestedRel(expr: TExpr): object | undefined {
  if (expr.kind !== 'call' || !expr.options) return undefined;
  const rel = expr.options.rel;
  return typeof rel === 'object' && rel !== null && 'op' in rel ? rel : undefined;
}

const isTypedExpression = (value: object): value is TExpr => {
  const kind = (value as { kind?: unknown }).kind;
  return (kind === 'call' || kind === 'column' || kind === 'literal') && 'type' in value;
};

/** Plan fields that hold no expressions (schemas, column lists, bounds). */
const NO_EXPRESSIONS = new Set(['columns', 'dataset', 'sourceColumns', 'range', 'cursor', 'rows', 'sources', 'options']);

/**
 * Bounds the whole plan: every expression's expansion, and their total, which is what the
 * dialect writes out. Walks plan nodes without recursion and without knowing each operator.
 */
export function checkPlanExpressions(root: object, measure: ExpandedMeasure, limits: QueryLimits): void {
  walkPlan(root, measure, limits);
}

/** Checks a plan as `checkPlanExpressions` does; returns its size (expression nodes and plan nodes). */
function walkPlan(root: object, measure: ExpandedMeasure, limits: QueryLimits): number {
  let total = 0;
  let planNodes = 0;
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (isTypedExpression(node)) {
      // A bare column or constant is written as a name or a value, not built: operators passing
      // a wide dataset's fields through (and unions filling absent ones with nulls) count nothing.
      if (node.kind !== 'call') continue;
      measure.check(node, START);
      total += measure.measure(node).size;
      if (total > limits.maxExpressionNodes) throw tooMuchExpansion(START, limits);
      continue;
    }
    // A plan node reached twice (a tabular let used twice) is written out twice, so it counts twice.
    if ('op' in node && ++planNodes > 4 * limits.maxOperators + 16) throw tooManyOperators(START, limits);
    for (const [key, value] of Object.entries(node)) {
      if (!NO_EXPRESSIONS.has(key) && typeof value === 'object' && value !== null) stack.push(value);
    }
  }
  return total + planNodes;
}
