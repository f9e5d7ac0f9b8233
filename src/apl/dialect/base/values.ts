// Leaf facts about typed expressions that every dialect's rule files may import without import
// cycles.
import type { TExpr } from '../../semantic/plan';

/** The literal string value of an expression, when it is one (for compile-time regexes). */
export function literalString(expr: TExpr): string | undefined {
  return expr.kind === 'literal' && expr.value.type === 'string' ? expr.value.value : undefined;
}
