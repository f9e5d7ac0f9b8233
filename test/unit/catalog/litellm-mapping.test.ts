// The LiteLLM → catalog mapping, checked against what the reference catalog (modeldb) serves
// for the same entries: cleaned ids, provider ids, model types, costs, defaults, names.
import { describe, expect, it } from 'vitest';
import { buildCatalog, REPLACED_BY_LATER_ENTRY } from '../../../src/catalog/build';
import { cleanModelId, mapLiteLLMEntry, mapProviderId, modelTypeOf } from '../../../src/catalog/litellm';
import { modelDisplayName, providerDisplayName } from '../../../src/catalog/names';
import { DOCUMENTED_FIELDS, type ModelRecord } from '../../../src/catalog/record';

function record(name: string, entry: Record<string, unknown>): ModelRecord {
  const mapped = mapLiteLLMEntry(name, entry);
  if (!mapped.ok) throw new Error(`skipped: ${mapped.reason}`);
  return mapped.record;
}

describe('provider id mapping', () => {
  it.each([
    ['openai', 'openai'],
    ['anthropic', 'anthropic'],
    ['gemini', 'google'],
    ['vertex_ai-language-models', 'vertex'],
    ['vertex_ai-anthropic_models', 'vertex'],
    ['vertex_ai', 'vertex'],
    ['bedrock', 'bedrock'],
    ['bedrock_converse', 'bedrock'],
    ['together_ai', 'together'],
    ['fireworks_ai-embedding-models', 'fireworks'],
    ['azure_ai', 'azure'],
    ['cohere_chat', 'cohere'],
    ['meta_llama', 'meta'],
    ['codestral', 'mistral'],
    ['text-completion-codestral', 'mistral'],
    ['mistralai', 'mistral'],
    ['deepseek-ai', 'deepseek'],
    ['nvidia_nim', 'nvidia'],
    ['text-completion-openai', 'text-completion-openai'],
    ['openrouter', 'openrouter'],
  ])('%s → %s', (litellm, expected) => {
    expect(mapProviderId(litellm)).toBe(expected);
  });
});

describe('model id cleaning', () => {
  it.each([
    ['gpt-4o', 'openai', 'gpt-4o'],
    ['openai/gpt-4o', 'openai', 'gpt-4o'],
    ['anthropic/claude-3-5-haiku-latest', 'anthropic', 'claude-3-5-haiku-latest'],
    ['bedrock/us.anthropic.claude-3-haiku-20240307-v1:0', 'bedrock', 'us.anthropic.claude-3-haiku-20240307-v1:0'],
    ['vertex_ai/claude-3-opus@20240229', 'vertex', 'claude-3-opus@20240229'],
    ['groq/llama3-8b-8192', 'groq', 'llama3-8b-8192'],
    ['together_ai/meta-llama/Llama-3-70b-chat-hf', 'together', 'meta-llama/Llama-3-70b-chat-hf'],
    // gemini/ goes for Google's own models, with "gemini-" too when it follows
    ['gemini/gemini-2.5-pro', 'google', '2.5-pro'],
    ['gemini/gemma-3-27b-it', 'google', 'gemma-3-27b-it'],
    ['gemini/gemini-2.5-pro', 'vertex', 'gemini/gemini-2.5-pro'],
    // xai/ only for xAI's own entries
    ['xai/grok-2', 'xai', 'grok-2'],
    ['xai/grok-2', 'openrouter', 'xai/grok-2'],
    // prefixes outside the list stay
    ['openrouter/openai/gpt-4o', 'openrouter', 'openrouter/openai/gpt-4o'],
    ['azure/gpt-4o', 'azure', 'azure/gpt-4o'],
    ['deepseek/deepseek-chat', 'deepseek', 'deepseek/deepseek-chat'],
    // only the first prefix is removed
    ['openai/anthropic/x', 'openai', 'anthropic/x'],
  ])('%s (provider %s) → %s', (name, provider, expected) => {
    expect(cleanModelId(name, provider)).toBe(expected);
  });
});

describe('model type', () => {
  it.each([
    ['chat', 'chat'],
    ['completion', 'completion'],
    ['embedding', 'embedding'],
    ['image_generation', 'image'],
    ['audio_transcription', 'audio'],
    ['audio_speech', 'audio'],
    ['moderation', 'moderation'],
    ['rerank', 'rerank'],
    ['ocr', 'ocr'],
    ['responses', 'responses'],
    [undefined, 'chat'],
    ['', 'chat'],
  ])('mode %s → %s', (mode, expected) => {
    expect(modelTypeOf(mode)).toBe(expected);
  });
});

describe('record mapping', () => {
  it('computes costs per million, capability flags from LiteLLM names, and defaults', () => {
    const model = record('openai/gpt-4o', {
      litellm_provider: 'openai',
      mode: 'chat',
      max_input_tokens: 128000,
      max_output_tokens: 16384,
      input_cost_per_token: 0.0000025,
      output_cost_per_token: 0.00001,
      cache_read_input_token_cost: 0.00000125,
      supports_function_calling: true,
      supports_response_schema: true,
      supports_parallel_function_calling: false,
    });
    expect(model).toMatchObject({
      model_id: 'gpt-4o',
      model_name: 'GPT-4o',
      provider_id: 'openai',
      provider_name: 'OpenAI',
      max_input_tokens: 128000,
      max_output_tokens: 16384,
      input_cost_per_token: 0.0000025,
      input_cost_per_million: 0.0000025 * 1_000_000,
      output_cost_per_million: 0.00001 * 1_000_000,
      cache_read_cost_per_token: 0.00000125,
      cache_read_cost_per_million: 0.00000125 * 1_000_000,
      cache_write_cost_per_token: null,
      cache_write_cost_per_million: null,
      supports_function_calling: true,
      supports_vision: false,
      supports_json_mode: true,
      supports_parallel_functions: false,
      model_type: 'chat',
      deprecation_date: null,
    });
  });

  it('reads missing costs as 0 and missing or zero limits as null', () => {
    const model = record('whisper-1', { litellm_provider: 'openai', mode: 'audio_transcription', max_output_tokens: 0 });
    expect(model).toMatchObject({
      input_cost_per_token: 0,
      input_cost_per_million: 0,
      output_cost_per_token: 0,
      max_input_tokens: null,
      max_output_tokens: null,
      model_type: 'audio',
    });
  });

  it('orders keys as modeldb does: known source keys, other source keys, added keys, capability flags; replaced keys removed', () => {
    const model = record('claude-3-opus-20240229', {
      litellm_provider: 'anthropic',
      mode: 'chat',
      input_cost_per_token: 0.000015,
      output_cost_per_token: 0.000075,
      cache_creation_input_token_cost: 0.00001875,
      cache_read_input_token_cost: 0.0000015,
      max_tokens: 4096,
      supports_prompt_caching: true,
      tool_use_system_prompt_tokens: 395,
      deprecation_date: '2026-05-01',
    });
    expect(Object.keys(model)).toEqual([
      // source keys modeldb's schema knows, in its order (litellm_provider, mode and the cache costs removed)
      'input_cost_per_token',
      'output_cost_per_token',
      'deprecation_date',
      // the other source keys, in file order
      'max_tokens',
      'supports_prompt_caching',
      'tool_use_system_prompt_tokens',
      // the added keys not already there
      'model_id',
      'model_name',
      'provider_id',
      'provider_name',
      'max_input_tokens',
      'max_output_tokens',
      'input_cost_per_million',
      'output_cost_per_million',
      'cache_read_cost_per_token',
      'cache_read_cost_per_million',
      'cache_write_cost_per_token',
      'cache_write_cost_per_million',
      'model_type',
      // capability defaults
      'supports_function_calling',
      'supports_vision',
      'supports_json_mode',
      'supports_parallel_functions',
    ]);
    expect(new Set(Object.keys(model))).toEqual(new Set([...DOCUMENTED_FIELDS, 'max_tokens', 'supports_prompt_caching', 'tool_use_system_prompt_tokens']));
    expect(model.cache_write_cost_per_million).toBeCloseTo(18.75, 10);
    expect(model.deprecation_date).toBe('2026-05-01');

    const flagged = record('flagged-model', {
      litellm_provider: 'openai',
      supports_vision: true,
      extra: 1,
      supports_response_schema: true,
      supports_parallel_function_calling: false,
      max_input_tokens: 100,
      mode: 'chat',
    });
    expect(Object.keys(flagged)).toEqual([
      'supports_parallel_function_calling',
      'supports_vision',
      'supports_response_schema',
      'max_input_tokens',
      'extra',
      'model_id',
      'model_name',
      'provider_id',
      'provider_name',
      'max_output_tokens',
      'input_cost_per_token',
      'input_cost_per_million',
      'output_cost_per_token',
      'output_cost_per_million',
      'cache_read_cost_per_token',
      'cache_read_cost_per_million',
      'cache_write_cost_per_token',
      'cache_write_cost_per_million',
      'model_type',
      'deprecation_date',
      // added from the legacy flags, then the capability default still missing
      'supports_json_mode',
      'supports_parallel_functions',
      'supports_function_calling',
    ]);
    expect([flagged.supports_vision, flagged.supports_json_mode, flagged.supports_parallel_functions, flagged.supports_function_calling]).toEqual([true, true, false, false]);
  });

  it('skips entries the reference would not accept, saying why', () => {
    expect(mapLiteLLMEntry('sample_spec', { litellm_provider: 'x' })).toEqual({ ok: false, reason: 'format description (sample_spec)' });
    expect(mapLiteLLMEntry('last_updated', '2026-07-24')).toEqual({ ok: false, reason: 'not a model object' });
    expect(mapLiteLLMEntry('x', { mode: 'chat' })).toEqual({ ok: false, reason: 'no litellm_provider' });
    expect(mapLiteLLMEntry('x', { litellm_provider: 'openai', max_input_tokens: 'lots' })).toEqual({
      ok: false,
      reason: 'max_input_tokens is not a number',
    });
    expect(mapLiteLLMEntry('x', { litellm_provider: 'openai', supports_vision: 'yes' })).toEqual({
      ok: false,
      reason: 'supports_vision is not a boolean',
    });
  });
});

describe('buildCatalog', () => {
  it('keeps the later of two entries that clean to the same id and counts the other as skipped', () => {
    const built = buildCatalog({
      'gpt-4o': { litellm_provider: 'openai', input_cost_per_token: 1 },
      'openai/gpt-4o': { litellm_provider: 'openai', input_cost_per_token: 2 },
      'xai/grok-2': { litellm_provider: 'xai' },
    });
    expect(built.records.map((model) => [model.model_id, model.input_cost_per_token])).toEqual([
      ['gpt-4o', 2],
      ['grok-2', 0],
    ]);
    expect(built.modelsRead).toBe(3);
    expect(built.skipReasons).toEqual({ [REPLACED_BY_LATER_ENTRY]: 1 });
  });

  it("sorts by provider then model id the way localeCompare does, not by code points", () => {
    const built = buildCatalog({
      'together_ai/Qwen/Qwen2': { litellm_provider: 'together_ai' },
      'together_ai/meta-llama/Llama-3': { litellm_provider: 'together_ai' },
      'together_ai/meta-llama/llama_guard': { litellm_provider: 'together_ai' },
      'Zeta-1': { litellm_provider: 'acme' },
      'alpha-1': { litellm_provider: 'acme' },
    });
    const ids = built.records.map((model) => model.model_id);
    expect(ids).toEqual(['alpha-1', 'Zeta-1', 'meta-llama/llama_guard', 'meta-llama/Llama-3', 'Qwen/Qwen2']);
    expect([...ids].sort()).not.toEqual(ids);
  });

  it('rejects documents that are not an object of entries or hold no usable entry', () => {
    expect(() => buildCatalog([1, 2])).toThrow(/not a JSON object/);
    expect(() => buildCatalog('text')).toThrow(/not a JSON object/);
    expect(() => buildCatalog({ sample_spec: {}, x: { mode: 'chat' } })).toThrow(/no usable model entries \(2 read\)/);
  });
});

describe('display names', () => {
  it.each([
    ['gpt-4o', 'GPT-4o'],
    ['gpt-4o-mini', 'GPT-4o mini'],
    ['gpt-4', 'GPT-4'],
    ['gpt-4-turbo', 'GPT-4 Turbo'],
    ['o1-mini', 'o1 mini'],
    ['claude-3-opus-20240229', 'Claude 3 Opus (Feb 2024)'],
    ['claude-3-haiku-20240307', 'Claude 3 Haiku'],
    ['gpt-4o-2024-08-06', 'GPT-4o (Aug 2024)'],
    ['mistral-small-2501', 'Mistral Small (Jan 2025)'],
    ['ft:gpt-4o-mini-2024-07-18', 'GPT-4o mini (Jul 2024) [Fine-tuned]'],
    ['azure/eu/gpt-4o', 'GPT-4o'],
    ['meta-llama/Llama-3-70b-chat-hf', 'Llama 3 70B Chat Hf'],
    ['tts-1-hd', 'TTS 1 HD'],
    ['new-model-name', 'New Model Name'],
    ['', ''],
  ])('%s → %s', (id, expected) => {
    expect(modelDisplayName(id)).toBe(expected);
  });

  it.each([
    ['openai', 'OpenAI'],
    ['bedrock', 'AWS Bedrock'],
    ['vertex', 'Google Vertex AI'],
    ['together', 'Together AI'],
    ['xai', 'xAI'],
    ['text-completion-openai', 'OpenAI'],
    ['text-completion-unknown', 'Text Completion Unknown'],
    ['custom_ai-llm-api-ml', 'Custom AI LLM API ML'],
    ['ANTHROPIC', 'Anthropic'],
  ])('provider %s → %s', (id, expected) => {
    expect(providerDisplayName(id)).toBe(expected);
  });
});
