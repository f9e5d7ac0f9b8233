// Maps one entry of LiteLLM's model_prices_and_context_window.json to a catalog record, the way
// the reference catalog (modeldb) does: the same cleaned model id, provider id, model type,
// cost arithmetic and capability defaults, with LiteLLM's other properties passed through.
import { modelDisplayName, providerDisplayName } from './names';
import type { ModelRecord } from './record';

export type MappedEntry = { ok: true; record: ModelRecord } | { ok: false; reason: string };

/** Fields whose type is checked: an entry with a wrong type is skipped, not half-read. */
const TYPED_FIELDS: Record<string, 'string' | 'number' | 'boolean'> = {
  mode: 'string',
  input_cost_per_token: 'number',
  output_cost_per_token: 'number',
  cache_creation_input_token_cost: 'number',
  cache_read_input_token_cost: 'number',
  max_input_tokens: 'number',
  max_output_tokens: 'number',
  supports_function_calling: 'boolean',
  supports_parallel_function_calling: 'boolean',
  supports_vision: 'boolean',
  supports_response_schema: 'boolean',
  deprecation_date: 'string',
};

/** The source keys modeldb's schema of a LiteLLM entry names, in its order. */
const KNOWN_SOURCE_KEYS = [
  'litellm_provider',
  'mode',
  'supports_function_calling',
  'supports_parallel_function_calling',
  'supports_vision',
  'supports_response_schema',
  'input_cost_per_token',
  'output_cost_per_token',
  'cache_creation_input_token_cost',
  'cache_read_input_token_cost',
  'max_input_tokens',
  'max_output_tokens',
  'deprecation_date',
];

/** LiteLLM's own fields that the record replaces with documented ones. */
const REMOVED_SOURCE_KEYS = ['litellm_provider', 'mode', 'cache_creation_input_token_cost', 'cache_read_input_token_cost'];

/** The key of LiteLLM's documentation entry, which describes the format and is no model. */
export const LITELLM_SPEC_ENTRY = 'sample_spec';

const STRIPPED_PREFIX =
  /^(openai|anthropic|bedrock|vertex_ai|cohere|replicate|huggingface|together_ai|deepinfra|groq|mistral|perplexity|anyscale|cloudflare|voyage|databricks|ai21)\//;

const MODEL_TYPE_BY_MODE: Record<string, string> = {
  chat: 'chat',
  completion: 'completion',
  embedding: 'embedding',
  image_generation: 'image',
  audio_transcription: 'audio',
  audio_speech: 'audio',
  moderation: 'moderation',
  rerank: 'rerank',
};

/** LiteLLM provider name to catalog provider id (`vertex_ai-language-models` → `vertex`). */
export function mapProviderId(litellmProvider: string): string {
  const base = (litellmProvider.split('_ai')[0] ?? '').split('_')[0]!.toLowerCase();
  if (base === 'gemini') return 'google';
  if (base === 'mistralai' || base.includes('codestral')) return 'mistral';
  if (base === 'deepseek-ai') return 'deepseek';
  return base;
}

/** LiteLLM entry name to catalog model id, given the already mapped provider id. */
export function cleanModelId(litellmName: string, providerId: string): string {
  if (providerId === 'google' && litellmName.startsWith('gemini/')) {
    // The reference drops "gemini/gemini-" whole: gemini/gemini-2.5-pro is served as 2.5-pro.
    return litellmName.startsWith('gemini/gemini-') ? litellmName.slice('gemini/gemini-'.length) : litellmName.slice('gemini/'.length);
  }
  if (providerId === 'xai' && litellmName.startsWith('xai/')) return litellmName.slice('xai/'.length);
  return litellmName.replace(STRIPPED_PREFIX, '');
}

/** LiteLLM `mode` to `model_type`; a missing mode means chat, an unknown mode is kept. */
export function modelTypeOf(mode: string | undefined): string {
  if (!mode) return 'chat';
  return MODEL_TYPE_BY_MODE[mode] ?? mode;
}

function typeProblem(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.litellm_provider !== 'string') return 'no litellm_provider';
  for (const [field, type] of Object.entries(TYPED_FIELDS)) {
    const value = entry[field];
    if (value !== undefined && typeof value !== type) return `${field} is not a ${type}`;
  }
  return undefined;
}

export function mapLiteLLMEntry(name: string, entry: unknown): MappedEntry {
  if (name === LITELLM_SPEC_ENTRY) return { ok: false, reason: 'format description (sample_spec)' };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { ok: false, reason: 'not a model object' };
  const source = entry as Record<string, unknown>;
  const problem = typeProblem(source);
  if (problem) return { ok: false, reason: problem };

  const providerId = mapProviderId(source.litellm_provider as string);
  const modelId = cleanModelId(name, providerId);
  const inputCost = (source.input_cost_per_token as number | undefined) || 0;
  const outputCost = (source.output_cost_per_token as number | undefined) || 0;
  const cacheRead = (source.cache_read_input_token_cost as number | undefined) || null;
  const cacheWrite = (source.cache_creation_input_token_cost as number | undefined) || null;
  // The JSON-mode and parallel-function flags come from LiteLLM's names for them when present.
  const jsonMode = source.supports_response_schema ?? source.supports_json_mode;
  const parallel = source.supports_parallel_function_calling ?? source.supports_parallel_functions;

  // Keys in the order modeldb's records have them: the source keys its schema knows, then the
  // source's other keys in file order, then the keys the mapping adds (a key already there
  // keeps its place), the legacy capability flags, the capability defaults; the four source
  // keys the record replaces are removed.
  const record: Record<string, unknown> = {};
  for (const key of KNOWN_SOURCE_KEYS) if (source[key] !== undefined) record[key] = source[key];
  for (const [key, value] of Object.entries(source)) if (value !== undefined && !(key in record)) record[key] = value;
  Object.assign(record, {
    model_id: modelId,
    model_name: modelDisplayName(modelId),
    provider_id: providerId,
    provider_name: providerDisplayName(providerId),
    max_input_tokens: (source.max_input_tokens as number | undefined) || null,
    max_output_tokens: (source.max_output_tokens as number | undefined) || null,
    input_cost_per_token: inputCost,
    input_cost_per_million: inputCost * 1_000_000,
    output_cost_per_token: outputCost,
    output_cost_per_million: outputCost * 1_000_000,
    cache_read_cost_per_token: cacheRead,
    cache_read_cost_per_million: cacheRead ? cacheRead * 1_000_000 : null,
    cache_write_cost_per_token: cacheWrite,
    cache_write_cost_per_million: cacheWrite ? cacheWrite * 1_000_000 : null,
    model_type: modelTypeOf(source.mode as string | undefined),
    deprecation_date: (source.deprecation_date as string | undefined) || null,
  });
  if (source.supports_response_schema !== undefined) record.supports_json_mode = jsonMode === true;
  if (source.supports_parallel_function_calling !== undefined) record.supports_parallel_functions = parallel === true;
  record.supports_function_calling = source.supports_function_calling === true;
  record.supports_vision = source.supports_vision === true;
  record.supports_json_mode = jsonMode === true;
  record.supports_parallel_functions = parallel === true;
  for (const key of REMOVED_SOURCE_KEYS) delete record[key];
  return { ok: true, record: record as ModelRecord };
}
