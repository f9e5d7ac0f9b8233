// Leaf facts of the DuckDB dialect that every rule file may import without import cycles: how
// each APL type is stored in SQL, and the constant string of a literal expression.
import type { AplType } from '../../semantic/plan';

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

export { literalString } from '../base/values';
