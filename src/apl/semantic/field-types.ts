// How stored fields look to APL: the APL type of each field type of the event layout.
import { type FieldType, isMixedType, type ScalarFieldType } from '../../fields/types';
import type { AplType } from './plan';

const APL_TYPE_OF_FIELD: Record<ScalarFieldType, AplType> = {
  string: 'string',
  integer: 'int',
  float: 'real',
  boolean: 'bool',
  array: 'dynamic',
  datetime: 'datetime',
  timespan: 'timespan',
  map: 'dynamic',
};

/** A mixed field is dynamic: each value keeps its own type (`gettype`, `tostring`, comparisons). */
export function aplTypeOfField(type: FieldType): AplType {
  return isMixedType(type) ? 'dynamic' : APL_TYPE_OF_FIELD[type];
}
