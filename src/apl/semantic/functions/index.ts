// The scalar function catalog, assembled from one table per family. Each table maps an APL
// function name to its type rule; the rules check and convert arguments and return typed
// calls whose canonical names the dialects know. Semantics follow Axiom's APL reference, and
// Kusto's where Axiom is silent.
import { assembleFamilies } from '../../registry';
import { ARRAY_FUNCTIONS, ARRAY_MATH_FUNCTIONS } from './arrays';
import { CONDITIONAL_FUNCTIONS } from './conditional';
import { CONVERSION_FUNCTIONS } from './conversion';
import { DATETIME_FUNCTIONS } from './datetime';
import { GENAI_MESSAGE_FUNCTIONS } from './genai-messages';
import { GENAI_PRICING_FUNCTIONS } from './genai-pricing';
import { HASH_FUNCTIONS } from './hash';
import { IP_FUNCTIONS } from './ip';
import { MATH_FUNCTIONS } from './math';
import { METADATA_FUNCTIONS } from './metadata';
import { PAIR_FUNCTIONS } from './pairs';
import { ROUNDING_FUNCTIONS } from './rounding';
import type { ScalarFamily, ScalarRule } from './rule';
import { SERIES_FUNCTIONS } from './series';
import { SQL_FUNCTIONS } from './sql';
import { STRING_FUNCTIONS } from './strings';
import { TYPE_FUNCTIONS } from './types';

export type { ScalarFamily, ScalarRule } from './rule';
export { unify } from './rule';
export { autoBinSpan, binRule } from './rounding';

/** Every family by the name Axiom's reference files it under. */
export const SCALAR_FUNCTION_FAMILIES: Readonly<Record<string, ScalarFamily>> = {
  string: STRING_FUNCTIONS,
  array: ARRAY_FUNCTIONS,
  conditional: CONDITIONAL_FUNCTIONS,
  conversion: CONVERSION_FUNCTIONS,
  datetime: DATETIME_FUNCTIONS,
  hash: HASH_FUNCTIONS,
  mathematical: { ...MATH_FUNCTIONS, ...ARRAY_MATH_FUNCTIONS },
  pair: PAIR_FUNCTIONS,
  metadata: METADATA_FUNCTIONS,
  ip: IP_FUNCTIONS,
  sql: SQL_FUNCTIONS,
  'time series': SERIES_FUNCTIONS,
  rounding: ROUNDING_FUNCTIONS,
  type: TYPE_FUNCTIONS,
  GenAI: { ...GENAI_PRICING_FUNCTIONS, ...GENAI_MESSAGE_FUNCTIONS },
};

/** APL function name → type rule, over every family. */
export const SCALAR_FUNCTIONS: Record<string, ScalarRule> = assembleFamilies(SCALAR_FUNCTION_FAMILIES, 'scalar function');
