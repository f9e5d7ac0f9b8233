// SQL functions: parse_sql reads a SQL statement into Axiom's data model, format_sql prints one.
import { call } from '../typed';
import { type ScalarFamily, unary } from './rule';

export const SQL_FUNCTIONS: ScalarFamily = {
  parse_sql: unary('parse_sql', 'string', 'dynamic'),
  format_sql: (site) => {
    site.arity(1);
    return call('format_sql', [site.arg(0, 'dynamic')], 'string');
  },
};
