// ClickHouse SQL for every canonical call of the typed plan, assembled from one rule table per
// family as the DuckDB dialect's are, giving the answers the DuckDB dialect gives. Where
// ClickHouse's own behaviour differs (division by zero is null, ties round away from zero,
// functions returning arrays refuse null input), the rule says so. A call without a rule fails
// as a server error: every call the DuckDB dialect writes has a rule (or is answered by the
// server, ../server-calls.ts).
import { assembleFamilies } from '../../../registry';
import type { ExprWriter } from '../expressions';
import { GENAI_PRICE_RULES } from '../pricing';
import { engineFamilies } from '../../functions';
import { ARRAY_RULES } from './arrays';
import { CONVERSION_RULES } from './conversion';
import { CALENDAR_RULES } from './datetime';
import { DYNAMIC_RULES } from './dynamic';
import { GENAI_MESSAGE_RULES } from './genai';
import { HASH_RULES } from './hash';
import { METADATA_RULES } from './metadata';
import { IP_RULES } from './ip';
import { MATH_OVERRIDES } from './math';
import { ROUNDING_OVERRIDES } from './rounding';
import { argumentWriter, type CallExpr, type Rule, type RuleTable } from './rule';
import { SERIES_RULES } from './series';
import { CLICKHOUSE_SPELLING } from './spelling';
import { STRING_RULES } from './strings';
import { TYPE_RULES } from './types';

export { convertSql } from './conversion';
export { jsonArrayOf, jsonMember, jsonText, jsonType } from './json';
export { doubleToInt, roundSql } from './rounding';
export { notNull, whenNotNull } from './rule';

/** Every family's rules by family name. */
export const CLICKHOUSE_RULE_FAMILIES: Readonly<Record<string, RuleTable>> = engineFamilies(CLICKHOUSE_SPELLING, {
  conversion: CONVERSION_RULES,
  strings: STRING_RULES,
  math: MATH_OVERRIDES,
  rounding: ROUNDING_OVERRIDES,
  datetime: CALENDAR_RULES,
  dynamic: DYNAMIC_RULES,
  arrays: ARRAY_RULES,
  hash: HASH_RULES,
  metadata: METADATA_RULES,
  types: TYPE_RULES,
  ip: IP_RULES,
  series: SERIES_RULES,
  pricing: GENAI_PRICE_RULES,
  genai: GENAI_MESSAGE_RULES,
});

/** Canonical call name → ClickHouse SQL rule. */
export const CLICKHOUSE_RULES: Record<string, Rule> = assembleFamilies(CLICKHOUSE_RULE_FAMILIES, 'ClickHouse rule');

export function callSql(w: ExprWriter, e: CallExpr): string {
  const rule = CLICKHOUSE_RULES[e.fn];
  if (!rule) throw new Error(`the ClickHouse dialect has no rule for ${e.fn}`);
  return rule(w, e, argumentWriter(w, e.args));
}
