// The ClickHouse types of APL values and the literal text of an expression: what the
// expression writer, the relations and the function rules all need, kept apart from the writer so
// that the function rules do not import it back.
import type { AplType } from '../../semantic/plan';

export const SQL_TYPE: Record<AplType, string> = {
  bool: 'Bool',
  int: 'Int64',
  real: 'Float64',
  string: 'String',
  datetime: 'Int64',
  timespan: 'Int64',
  dynamic: 'String',
  null: 'String',
};

/** The Nullable type of an APL type (every value may be null). */
export const nullableType = (type: AplType) => `Nullable(${SQL_TYPE[type]})`;

export { literalString } from '../base/values';
