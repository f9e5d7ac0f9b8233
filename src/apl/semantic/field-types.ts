// How stored fields look to APL: the APL type of each field type of the event layout, and the
// type name `getschema` and result descriptions report for a column read from a field.
import type { FieldType } from '../../events/layout';
import type { AplType } from './plan';

const APL_TYPE_OF_FIELD: Record<FieldType, AplType> = {
  string: 'string',
  integer: 'int',
  float: 'real',
  boolean: 'bool',
  array: 'dynamic',
  datetime: 'datetime',
  timespan: 'timespan',
  map: 'dynamic',
};

export function aplTypeOfField(type: FieldType): AplType {
  return APL_TYPE_OF_FIELD[type];
}
