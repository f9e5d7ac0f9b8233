// Type names accepted where a query declares a type (`Name:type`, `to typeof(type)`, function
// parameters), with their aliases.
import type { AplType } from './plan';

/** Type names accepted in declarations (`Name:type`, `to typeof(type)`), with their aliases. */
export const PARSE_TYPES: Record<string, AplType> = {
  string: 'string',
  int: 'int',
  long: 'int',
  real: 'real',
  double: 'real',
  decimal: 'real',
  bool: 'bool',
  boolean: 'bool',
  datetime: 'datetime',
  date: 'datetime',
  timespan: 'timespan',
  time: 'timespan',
  dynamic: 'dynamic',
  guid: 'string',
  uuid: 'string',
  float: 'real',
};

