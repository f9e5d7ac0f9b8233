// JSON Schemas of the catalog's responses, for the OpenAPI description (/openapi.json).
// Handlers send pre-rendered bodies, so these describe the output; they do not produce it.

const nullableNumber = (description: string) => ({ type: ['number', 'null'], description });

export const modelSchema = {
  type: 'object',
  description: "A model record; LiteLLM's further properties of the model follow the documented fields",
  properties: {
    model_id: { type: 'string', description: 'Clean model identifier (e.g. "gpt-4o")' },
    model_name: { type: 'string', description: 'Human-friendly name' },
    provider_id: { type: 'string', description: 'Provider identifier (e.g. "openai")' },
    provider_name: { type: 'string', description: 'Human-friendly provider name' },
    max_input_tokens: { type: ['integer', 'null'], description: 'Maximum input tokens' },
    max_output_tokens: { type: ['integer', 'null'], description: 'Maximum output tokens per request' },
    input_cost_per_token: { type: 'number', description: 'Input cost per token in USD' },
    input_cost_per_million: { type: 'number', description: 'Input cost per million tokens in USD' },
    output_cost_per_token: { type: 'number', description: 'Output cost per token in USD' },
    output_cost_per_million: { type: 'number', description: 'Output cost per million tokens in USD' },
    cache_read_cost_per_token: nullableNumber('Cache read cost per token in USD'),
    cache_read_cost_per_million: nullableNumber('Cache read cost per million tokens in USD'),
    cache_write_cost_per_token: nullableNumber('Cache write cost per token in USD'),
    cache_write_cost_per_million: nullableNumber('Cache write cost per million tokens in USD'),
    supports_function_calling: { type: 'boolean' },
    supports_vision: { type: 'boolean' },
    supports_json_mode: { type: 'boolean' },
    supports_parallel_functions: { type: 'boolean' },
    model_type: { type: 'string', description: 'chat, completion, embedding, image, audio, moderation, rerank, or another LiteLLM mode' },
    deprecation_date: { type: ['string', 'null'], description: 'Date the model is or was deprecated (YYYY-MM-DD)' },
  },
  additionalProperties: true,
} as const;

export const errorSchema = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
} as const;

const countMap = { type: 'object', additionalProperties: { type: 'integer' } } as const;

export const metadataSchema = {
  type: 'object',
  properties: {
    source: { type: 'string', description: 'Where the catalog was imported from' },
    generated_at: { type: 'string', format: 'date-time', description: 'When the catalog was imported' },
    model_count: { type: 'integer' },
    schema_version: { type: 'string' },
    sync: {
      type: 'object',
      properties: {
        source_kind: { type: 'string', enum: ['litellm', 'fallback'] },
        models_read: { type: 'integer' },
        models_skipped: { type: 'integer' },
        models_written: { type: 'integer' },
        skip_reasons: countMap,
      },
    },
    refresh: {
      type: 'object',
      description: 'Present when the catalog refreshes itself from a URL (MODEL_CATALOG_REFRESH)',
      properties: {
        source: { type: 'string' },
        interval_seconds: { type: 'integer' },
        last_checked_at: { type: ['string', 'null'], format: 'date-time', description: 'When the source was last read (changed or not)' },
        last_refreshed_at: { type: ['string', 'null'], format: 'date-time', description: 'When a changed source was last imported' },
        status: { type: 'string', enum: ['pending', 'updated', 'not_modified', 'failed'] },
        error: { type: ['string', 'null'] },
      },
    },
    stats: {
      type: 'object',
      properties: {
        providers: countMap,
        types: countMap,
        capabilities: countMap,
        deprecation: {
          type: 'object',
          properties: { active: { type: 'integer' }, deprecated: { type: 'integer' } },
        },
      },
    },
  },
} as const;

const text = { type: 'string' } as const;

/** A 200 answer in each output format, the JSON one described by `json`. */
export function formattedResponse(description: string, json: object) {
  return {
    description,
    content: {
      'application/json': { schema: json },
      'text/csv': { schema: text },
      'application/x-ndjson': { schema: text },
    },
  };
}

export function errorResponse(description: string) {
  return {
    description,
    content: {
      'application/json': { schema: errorSchema },
      'text/csv': { schema: text },
    },
  };
}
