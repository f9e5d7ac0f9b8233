// The documented fields of a catalog model as the model page and the comparison show them: a
// label and a formatter per field, in the order people read them. Fields the catalog has beyond
// these (LiteLLM's further properties) are listed as they come.
import type { ModelRecord } from '../../api/models';
import { formatPerMillion, formatPerToken, formatTokens } from './format';

export interface FieldRow {
  key: keyof ModelRecord & string;
  label: string;
  format(value: unknown): string;
}

const text = (value: unknown) => (value === null || value === undefined || value === '' ? '–' : String(value));
const yesNo = (value: unknown) => (value === true ? 'Yes' : value === false ? 'No' : '–');
const tokens = (value: unknown) => formatTokens(typeof value === 'number' ? value : null);
const perMillion = (value: unknown) => formatPerMillion(typeof value === 'number' ? value : null);
const perToken = (value: unknown) => formatPerToken(typeof value === 'number' ? value : null);

export const IDENTITY_FIELDS: FieldRow[] = [
  { key: 'model_id', label: 'Model id', format: text },
  { key: 'model_name', label: 'Model name', format: text },
  { key: 'provider_id', label: 'Provider id', format: text },
  { key: 'provider_name', label: 'Provider', format: text },
  { key: 'model_type', label: 'Type', format: text },
  { key: 'deprecation_date', label: 'Deprecation date', format: text },
];

export const LIMIT_FIELDS: FieldRow[] = [
  { key: 'max_input_tokens', label: 'Context window (max input tokens)', format: tokens },
  { key: 'max_output_tokens', label: 'Max output tokens', format: tokens },
  { key: 'max_tokens', label: 'Max tokens', format: tokens },
];

export const PRICE_FIELDS: FieldRow[] = [
  { key: 'input_cost_per_million', label: 'Input per million tokens', format: perMillion },
  { key: 'output_cost_per_million', label: 'Output per million tokens', format: perMillion },
  { key: 'cache_read_cost_per_million', label: 'Cache read per million tokens', format: perMillion },
  { key: 'cache_write_cost_per_million', label: 'Cache write per million tokens', format: perMillion },
  { key: 'input_cost_per_token', label: 'Input per token', format: perToken },
  { key: 'output_cost_per_token', label: 'Output per token', format: perToken },
  { key: 'cache_read_cost_per_token', label: 'Cache read per token', format: perToken },
  { key: 'cache_write_cost_per_token', label: 'Cache write per token', format: perToken },
];

export const CAPABILITY_FIELDS: FieldRow[] = [
  { key: 'supports_function_calling', label: 'Function calling', format: yesNo },
  { key: 'supports_vision', label: 'Vision', format: yesNo },
  { key: 'supports_json_mode', label: 'JSON mode', format: yesNo },
  { key: 'supports_parallel_functions', label: 'Parallel functions', format: yesNo },
];

export const DOCUMENTED_FIELDS = [...IDENTITY_FIELDS, ...LIMIT_FIELDS, ...PRICE_FIELDS, ...CAPABILITY_FIELDS];
const DOCUMENTED_KEYS = new Set<string>(DOCUMENTED_FIELDS.map((field) => field.key));

/** The record's other properties, in record order, as text. */
export function otherProperties(record: ModelRecord): [string, string][] {
  return Object.entries(record)
    .filter(([key]) => !DOCUMENTED_KEYS.has(key))
    .map(([key, value]) => [key, typeof value === 'object' && value !== null ? JSON.stringify(value) : text(value)]);
}
