// The model record as the catalog serves it. The documented fields come first, in this order;
// the source's further properties follow, passed through in the order the source gave them.

export interface ModelRecord {
  model_id: string;
  model_name: string;
  provider_id: string;
  provider_name: string;
  max_input_tokens: number | null;
  max_output_tokens: number | null;
  input_cost_per_token: number;
  input_cost_per_million: number;
  output_cost_per_token: number;
  output_cost_per_million: number;
  cache_read_cost_per_token: number | null;
  cache_read_cost_per_million: number | null;
  cache_write_cost_per_token: number | null;
  cache_write_cost_per_million: number | null;
  supports_function_calling: boolean;
  supports_vision: boolean;
  supports_json_mode: boolean;
  supports_parallel_functions: boolean;
  model_type: string;
  deprecation_date: string | null;
  [passedThrough: string]: unknown;
}

/** The documented fields, in record order. */
export const DOCUMENTED_FIELDS = [
  'model_id',
  'model_name',
  'provider_id',
  'provider_name',
  'max_input_tokens',
  'max_output_tokens',
  'input_cost_per_token',
  'input_cost_per_million',
  'output_cost_per_token',
  'output_cost_per_million',
  'cache_read_cost_per_token',
  'cache_read_cost_per_million',
  'cache_write_cost_per_token',
  'cache_write_cost_per_million',
  'supports_function_calling',
  'supports_vision',
  'supports_json_mode',
  'supports_parallel_functions',
  'model_type',
  'deprecation_date',
] as const;

/**
 * Capability flags the mapping derives under modeldb's older names (from LiteLLM's
 * `supports_response_schema` and `supports_parallel_function_calling`): modeldb counts only
 * LiteLLM's own flags in its metadata, so these come after them there.
 */
export const DERIVED_CAPABILITY_FLAGS: readonly string[] = ['supports_json_mode', 'supports_parallel_functions'];

/** The capability names of the `capability` filter and the record field each one reads. */
export const DOCUMENTED_CAPABILITIES = {
  function_calling: 'supports_function_calling',
  vision: 'supports_vision',
  json_mode: 'supports_json_mode',
  parallel_functions: 'supports_parallel_functions',
} as const;
