// The catalog over a real snapshot of LiteLLM's data (../shared, 2026-07-24): counts, a few
// well-known models, list order, unique ids, and every format and GraphQL over all of it.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, REPLACED_BY_LATER_ENTRY } from '../../../src/catalog/build';
import { startTestServer, type TestServer } from '../../helpers/server';
import { LITELLM_SNAPSHOT, sharedDataAvailable } from '../../helpers/shared-data';

const available = sharedDataAvailable(LITELLM_SNAPSHOT);

describe.runIf(available)('the real LiteLLM snapshot', () => {
  let server: TestServer;
  let models: Record<string, any>[];
  beforeAll(async () => {
    server = await startTestServer({ MODEL_CATALOG_SOURCE: LITELLM_SNAPSHOT });
    models = (await (await server.request('/api/v1/models?fill-with-zeros=false', { auth: false })).json()) as Record<string, any>[];
  });
  afterAll(() => server?.close());

  it('reads every entry and explains every skipped one', () => {
    const document = JSON.parse(readFileSync(LITELLM_SNAPSHOT, 'utf8')) as Record<string, unknown>;
    const built = buildCatalog(document);
    expect(built.modelsRead).toBe(Object.keys(document).length);
    expect(built.modelsRead).toBe(2985);
    expect(built.records).toHaveLength(2903);
    expect(built.skipReasons).toEqual({
      [REPLACED_BY_LATER_ENTRY]: 79,
      'format description (sample_spec)': 1,
      'no litellm_provider': 1,
      'not a model object': 1,
    });
  });

  it('serves each model once, sorted by provider then model id as localeCompare orders them', () => {
    expect(models).toHaveLength(2903);
    const ids = models.map((model) => model.model_id);
    expect(new Set(ids).size).toBe(ids.length);
    let byteOrderInversions = 0;
    for (let i = 1; i < models.length; i++) {
      const [previous, current] = [models[i - 1]!, models[i]!];
      const order =
        previous.provider_id.localeCompare(current.provider_id, 'en-US') || previous.model_id.localeCompare(current.model_id, 'en-US');
      expect(order, `${previous.model_id} before ${current.model_id}`).toBeLessThan(0);
      if (previous.provider_id === current.provider_id && previous.model_id > current.model_id) byteOrderInversions++;
    }
    expect(byteOrderInversions).toBeGreaterThan(0);
  });

  it('maps well-known models like the reference does', async () => {
    const one = async (id: string) => (await server.request(`/api/v1/models/${id}?fill-with-zeros=false`, { auth: false })).json();
    expect(await one('gpt-4o')).toMatchObject({
      provider_id: 'openai',
      model_name: 'GPT-4o',
      model_type: 'chat',
      input_cost_per_million: 2.5,
      output_cost_per_million: 10,
      cache_read_cost_per_million: 1.25,
      max_input_tokens: 128000,
      supports_function_calling: true,
      supports_vision: true,
      supports_json_mode: true,
      supports_parallel_functions: true,
    });
    expect(await one('claude-sonnet-4-20250514')).toMatchObject({
      provider_id: 'anthropic',
      model_name: 'Claude 4 Sonnet',
      deprecation_date: '2026-05-14',
      input_cost_per_million: 3,
    });
    expect(await one('2.5-pro')).toMatchObject({ provider_id: 'google', provider_name: 'Google' });
    expect(await one('gemini-2.5-pro')).toMatchObject({ provider_id: 'vertex', provider_name: 'Google Vertex AI', model_name: 'Gemini 2.5 Pro' });
    expect(await one('openrouter/openai/gpt-4o')).toMatchObject({ provider_id: 'openrouter', supports_parallel_functions: true });
    expect(await one('text-embedding-3-small')).toMatchObject({ model_type: 'embedding', output_cost_per_token: 0 });
    expect(await one('dall-e-3')).toMatchObject({ model_type: 'image', max_input_tokens: null });
    expect(await one('whisper-1')).toMatchObject({ model_type: 'audio' });
    expect(await one('grok-2')).toMatchObject({ provider_id: 'xai', provider_name: 'xAI' });
    for (const model of models) {
      expect(model).not.toHaveProperty('litellm_provider');
      expect(model).not.toHaveProperty('mode');
    }
  });

  it('counts deprecated models in the metadata with the same rule as the filter', async () => {
    const metadata = await (await server.request('/api/v1/metadata', { auth: false })).json();
    const today = new Date().toISOString().slice(0, 10);
    const deprecated = models.filter((model) => model.deprecation_date !== null && model.deprecation_date <= today).length;
    expect(metadata.model_count).toBe(2903);
    expect(metadata.stats.deprecation).toEqual({ active: 2903 - deprecated, deprecated });
    const filtered = await (await server.request('/api/v1/models?deprecated=true&project=model_id', { auth: false })).json();
    expect(filtered).toHaveLength(deprecated);
    expect(Object.values(metadata.stats.providers as Record<string, number>).reduce((sum, count) => sum + count, 0)).toBe(2903);
  });

  it('renders all of it as CSV and JSON Lines that parse back', async () => {
    const csv = await (await server.request('/api/v1/models?format=csv&headers=true', { auth: false })).text();
    const rows = parse(csv, { columns: true, relax_column_count: false }) as Record<string, string>[];
    expect(rows.map((row) => row.model_id)).toEqual(models.map((model) => model.model_id));
    const jsonl = await (await server.request('/api/v1/models?format=jsonl&fill-with-zeros=false', { auth: false })).text();
    expect(jsonl.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(models);
  });

  it('serves every model through GraphQL in the same order, without errors', async () => {
    const result = await server.graphql(
      `{ models(first: 5000) { totalCount edges { node {
        id modelId modelName providerId providerName maxInputTokens maxOutputTokens
        inputCostPerToken inputCostPerMillion outputCostPerToken outputCostPerMillion
        cacheReadCostPerToken cacheReadCostPerMillion cacheWriteCostPerToken cacheWriteCostPerMillion
        supportsFunctionCalling supportsVision supportsJsonMode supportsParallelFunctions modelType deprecationDate deprecated
      } } } }`,
      undefined,
      false,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.models.totalCount).toBe(2903);
    expect(result.data.models.edges.map((edge: any) => edge.node.modelId)).toEqual(models.map((model) => model.model_id));
  });
});
