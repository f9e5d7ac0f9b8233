// parse_sql and format_sql need a SQL grammar: vectorized UDFs (execution/sql-model.ts).
import type { RuleTable } from './rule';

export const SQL_RULES: RuleTable = {
  parse_sql: (_w, _e, a) => `CAST(apl_parse_sql(${a(0)}) AS JSON)`,
  format_sql: (_w, _e, a) => `apl_format_sql(CAST(${a(0)} AS VARCHAR))`,
};
