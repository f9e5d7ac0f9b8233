// Leaf facts of the DuckDB dialect that every rule file may import without import cycles: how
// each APL type is stored in SQL, and the constant string of a literal expression.
import type { AplType, TExpr } from '../../semantic/plan';

export const SQL_TYPE: Record<AplType, string> = {
  bool: 'BOOLEAN',
  int: 'BIGINT',
  real: 'DOUBLE',
  string: 'VARCHAR',
  datetime: 'TIMESTAMP_NS',
  timespan: 'BIGINT',
  dynamic: 'JSON',
  null: 'VARCHAR',
};

/** The literal string value of an expression, when it is one (for compile-time regexes). */
export function literalString(expr: TExpr): string | undefined {
  return expr.kind === 'literal' && expr.value.type === 'string' ? expr.value.value : undefined;
}
