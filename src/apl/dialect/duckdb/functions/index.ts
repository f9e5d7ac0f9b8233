// DuckDB SQL for every canonical call of the typed plan, assembled from one rule table per
// family (operators, conversions, strings, ...).
import { assembleFamilies } from '../../../registry';
import type { ExprWriter } from '../expressions';
import { engineFamilies } from '../../functions';
import { ARRAY_RULES } from './arrays';
import { CONVERSION_RULES } from './conversion';
import { CALENDAR_RULES } from './datetime';
import { DYNAMIC_RULES } from './dynamic';
import { GENAI_PRICE_RULES } from '../pricing';
import { GENAI_MESSAGE_RULES } from './genai';
import { HASH_RULES } from './hash';
import { IP_RULES } from './ip';
import { METADATA_RULES } from './metadata';
import { argumentWriter, type CallExpr, type Rule, type RuleTable } from './rule';
import { SERIES_RULES } from './series';
import { DUCKDB_SPELLING } from './spelling';
import { SQL_RULES } from './sql';
import { STRING_RULES } from './strings';
import { TYPE_RULES } from './types';

export { convertSql } from './conversion';
export { escapeRegex } from './rule';

/** Every family's rules by family name. */
export const DUCKDB_RULE_FAMILIES: Readonly<Record<string, RuleTable>> = engineFamilies(DUCKDB_SPELLING, {
  conversion: CONVERSION_RULES,
  strings: STRING_RULES,
  datetime: CALENDAR_RULES,
  dynamic: DYNAMIC_RULES,
  arrays: ARRAY_RULES,
  hash: HASH_RULES,
  types: TYPE_RULES,
  metadata: METADATA_RULES,
  ip: IP_RULES,
  sql: SQL_RULES,
  series: SERIES_RULES,
  genai: { ...GENAI_PRICE_RULES, ...GENAI_MESSAGE_RULES },
});

/** Canonical call name → DuckDB SQL rule. */
export const DUCKDB_RULES: Record<string, Rule> = assembleFamilies(DUCKDB_RULE_FAMILIES, 'DuckDB rule');

export function callSql(w: ExprWriter, e: CallExpr): string {
  const rule = DUCKDB_RULES[e.fn];
  if (!rule) throw new Error(`the DuckDB dialect has no rule for ${e.fn}`);
  return rule(w, e, argumentWriter(w, e.args));
}
