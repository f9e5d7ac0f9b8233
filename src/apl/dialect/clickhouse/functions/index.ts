// ClickHouse SQL for every canonical call of the typed plan, assembled from one rule table per
// family as the DuckDB dialect's are, giving the answers the DuckDB dialect gives. Where
// ClickHouse's own behaviour differs (division by zero is null, ties round away from zero,
// functions returning arrays refuse null input), the rule says so. A call without a rule fails
// as the caller's error naming the function (see ../unsupported.ts).
import type { ExprWriter } from '../expressions';
import { GENAI_PRICE_RULES } from '../pricing';
import { unsupportedOnClickHouse } from '../unsupported';
import { ARRAY_RULES } from './arrays';
import { CONDITIONAL_RULES } from './conditional';
import { CONVERSION_RULES } from './conversion';
import { DATETIME_RULES } from './datetime';
import { DYNAMIC_RULES } from './dynamic';
import { GENAI_MESSAGE_RULES } from './genai';
import { HASH_RULES } from './hash';
import { METADATA_RULES } from './metadata';
import { IP_RULES } from './ip';
import { MATH_RULES } from './math';
import { OPERATOR_RULES } from './operators';
import { ROUNDING_RULES } from './rounding';
import { argumentWriter, type CallExpr, type Rule, type RuleTable } from './rule';
import { SERIES_RULES } from './series';
import { STRING_RULES } from './strings';
import { TYPE_RULES } from './types';

export { convertSql } from './conversion';
export { jsonArrayOf, jsonMember, jsonText, jsonType } from './json';
export { doubleToInt, roundSql } from './rounding';
export { notNull, whenNotNull } from './rule';

/** Every family's rules by family name. */
export const CLICKHOUSE_RULE_FAMILIES: Readonly<Record<string, RuleTable>> = {
  operators: OPERATOR_RULES,
  conversion: CONVERSION_RULES,
  strings: STRING_RULES,
  conditional: CONDITIONAL_RULES,
  math: MATH_RULES,
  rounding: ROUNDING_RULES,
  datetime: DATETIME_RULES,
  dynamic: DYNAMIC_RULES,
  arrays: ARRAY_RULES,
  hash: HASH_RULES,
  metadata: METADATA_RULES,
  types: TYPE_RULES,
  ip: IP_RULES,
  series: SERIES_RULES,
  pricing: GENAI_PRICE_RULES,
  genai: GENAI_MESSAGE_RULES,
};

/** Canonical call name → ClickHouse SQL rule. */
export const CLICKHOUSE_RULES: Record<string, Rule> = {};
for (const [family, table] of Object.entries(CLICKHOUSE_RULE_FAMILIES)) {
  for (const [name, rule] of Object.entries(table)) {
    if (Object.hasOwn(CLICKHOUSE_RULES, name)) throw new Error(`ClickHouse rule ${name} is defined twice (again in the ${family} family)`);
    CLICKHOUSE_RULES[name] = rule;
  }
}

export function callSql(w: ExprWriter, e: CallExpr): string {
  const rule = CLICKHOUSE_RULES[e.fn];
  if (!rule) throw unsupportedOnClickHouse(e.fn);
  return rule(w, e, argumentWriter(w, e.args));
}
