// /api/v1/models and /api/v1/models/:id through the real server, over the small LiteLLM fixture
// (test/fixtures/litellm-small.json). No token is sent: the catalog is public.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_FIELDS } from '../../../src/catalog/record';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (path: string) => server.request(path, { auth: false });
async function json(path: string, status = 200): Promise<any> {
  const response = await get(path);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}
const ids = (models: { model_id: string }[]) => models.map((model) => model.model_id);

/** The fixture's models in list order: provider id, then model id, as localeCompare sorts. */
const ALL_IDS = [
  'acme_ai/mystery-model',
  'claude-3-5-haiku-latest',
  'claude-3-opus-20240229',
  'azure/gpt-4o',
  'us.anthropic.claude-3-haiku-20240307-v1:0',
  'rerank-english-v3.0',
  '2.5-pro',
  'gemma-3-27b-it',
  'llama3-8b-8192',
  'codestral/codestral-latest',
  'mistral-ocr-latest',
  'dall-e-3',
  'gpt-3.5-turbo-0301',
  'gpt-4-0314',
  'gpt-4o',
  'gpt-4o-mini',
  'text-embedding-3-small',
  'tts-1',
  'whisper-1',
  'openrouter/openai/gpt-4o',
  'text-completion-openai/babbage-002',
  'meta-llama/llama_guard-7b',
  'meta-llama/Llama-3-70b-chat-hf',
  'Qwen/Qwen2-72B-Instruct',
  'gemini-2.5-pro',
  'grok-2',
];

describe('GET /api/v1/models', () => {
  it('lists every model sorted by provider then model id, as localeCompare orders them', async () => {
    const models = await json('/api/v1/models');
    expect(ids(models)).toEqual(ALL_IDS);
    const together = ids(models.filter((model: any) => model.provider_id === 'together'));
    expect(together).not.toEqual([...together].sort());
  });

  it('serves the documented record shape with LiteLLM properties passed through', async () => {
    const models = await json('/api/v1/models?providers=openai');
    const gpt4o = models.find((model: any) => model.model_id === 'gpt-4o');
    // modeldb's key order: known LiteLLM keys, other LiteLLM keys, then the added ones.
    expect(Object.keys(gpt4o).slice(0, 9)).toEqual([
      'supports_function_calling',
      'supports_parallel_function_calling',
      'supports_vision',
      'supports_response_schema',
      'input_cost_per_token',
      'output_cost_per_token',
      'max_input_tokens',
      'max_output_tokens',
      'max_tokens',
    ]);
    for (const field of DOCUMENTED_FIELDS) expect(gpt4o).toHaveProperty(field);
    expect(gpt4o).toMatchObject({
      model_name: 'GPT-4o',
      provider_name: 'OpenAI',
      max_tokens: 16384,
      supported_endpoints: ['/v1/chat/completions', '/v1/responses'],
    });
    for (const replaced of ['litellm_provider', 'mode', 'cache_read_input_token_cost']) expect(gpt4o).not.toHaveProperty(replaced);
  });

  it('fills null token and cost fields with zeros by default, and leaves a null deprecation_date alone', async () => {
    const [filled] = await json('/api/v1/models?prefixes=gpt-4o-mini');
    expect(filled).toMatchObject({ cache_write_cost_per_token: 0, cache_read_cost_per_million: 0, deprecation_date: null });
    const [raw] = await json('/api/v1/models?prefixes=gpt-4o-mini&fill-with-zeros=false');
    expect(raw).toMatchObject({ cache_write_cost_per_token: null, cache_read_cost_per_million: null, deprecation_date: null });
    const [image] = await json('/api/v1/models?prefixes=dall-e&fill-with-zeros=true');
    expect(image).toMatchObject({ max_input_tokens: 0, max_output_tokens: 0 });
  });

  it('filters by model id prefixes, trimming the list and dropping empty items', async () => {
    expect(ids(await json('/api/v1/models?prefixes=%20gpt-4o,%20,claude-3-5,'))).toEqual([
      'claude-3-5-haiku-latest',
      'gpt-4o',
      'gpt-4o-mini',
    ]);
    expect(ids(await json('/api/v1/models?prefixes=,,'))).toEqual(ALL_IDS);
    expect(await json('/api/v1/models?prefixes=zzz')).toEqual([]);
  });

  it('filters by providers', async () => {
    expect(ids(await json('/api/v1/models?providers=xai,vertex'))).toEqual(['gemini-2.5-pro', 'grok-2']);
    expect(ids(await json('/api/v1/models?providers=google'))).toEqual(['2.5-pro', 'gemma-3-27b-it']);
    expect(await json('/api/v1/models?providers=nonexistent')).toEqual([]);
  });

  it('filters by type, including types kept from unknown LiteLLM modes', async () => {
    expect(ids(await json('/api/v1/models?type=image,audio'))).toEqual(['dall-e-3', 'tts-1', 'whisper-1']);
    expect(ids(await json('/api/v1/models?type=embedding'))).toEqual(['text-embedding-3-small']);
    expect(ids(await json('/api/v1/models?type=ocr'))).toEqual(['mistral-ocr-latest']);
    expect(ids(await json('/api/v1/models?type=moderation'))).toEqual(['meta-llama/llama_guard-7b']);
    const chat = ids(await json('/api/v1/models?type=chat'));
    expect(chat).toContain('acme_ai/mystery-model');
    expect(chat).not.toContain('dall-e-3');
  });

  it('filters by capabilities, all of them required', async () => {
    expect(ids(await json('/api/v1/models?capability=vision,function_calling&providers=openai'))).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(ids(await json('/api/v1/models?capability=json_mode'))).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(ids(await json('/api/v1/models?capability=parallel_functions'))).toEqual(['gpt-4o', 'openrouter/openai/gpt-4o']);
    expect(ids(await json('/api/v1/models?capability=reasoning'))).toEqual(['2.5-pro', 'gemini-2.5-pro']);
    expect(ids(await json('/api/v1/models?capability=supports_prompt_caching'))).toEqual(['gpt-4o']);
    const error = await json('/api/v1/models?capability=telepathy', 400);
    expect(error.error).toMatch(/unknown capability "telepathy"/);
  });

  it('deprecated=true returns models deprecated today or before, false the others', async () => {
    expect(ids(await json('/api/v1/models?deprecated=true'))).toEqual(['gpt-3.5-turbo-0301', 'gpt-4-0314']);
    const active = ids(await json('/api/v1/models?deprecated=false'));
    expect(active).toHaveLength(ALL_IDS.length - 2);
    expect(active).toContain('claude-3-opus-20240229'); // deprecation planned for 2099
  });

  it('combines filters', async () => {
    expect(ids(await json('/api/v1/models?providers=openai&type=chat&capability=function_calling&deprecated=false'))).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
    ]);
  });

  it('projects fields in the order asked, ignoring unknown ones, before filling zeros', async () => {
    const models = await json('/api/v1/models?providers=xai&project=cache_read_cost_per_million,model_id,nonexistent');
    expect(models).toEqual([{ cache_read_cost_per_million: 0, model_id: 'grok-2' }]);
    expect(await json('/api/v1/models?providers=xai&project=model_id,deprecation_date,cache_write_cost_per_token&fill-with-zeros=false')).toEqual([
      { model_id: 'grok-2', deprecation_date: null, cache_write_cost_per_token: null },
    ]);
  });

  it('indents by two spaces when pretty is present, whatever its value', async () => {
    for (const query of ['pretty', 'pretty=', 'pretty=false']) {
      const text = await (await get(`/api/v1/models?providers=xai&project=model_id&${query}`)).text();
      expect(text).toBe('[\n  {\n    "model_id": "grok-2"\n  }\n]');
    }
    expect(await (await get('/api/v1/models?providers=xai&project=model_id')).text()).toBe('[{"model_id":"grok-2"}]');
  });

  it('answers CSV without a header line unless headers=true, columns in record order', async () => {
    const response = await get('/api/v1/models?format=csv&providers=xai');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const body = await response.text();
    // grok-2's record in modeldb's key order; costs per million are 2e-6 and 1e-5 times a million.
    expect(body).toBe('true,0.000002,0.00001,131072,131072,grok-2,Grok 2,xai,xAI,2,10,0,0,0,0,chat,,false,false,false');

    const withHeaders = await (await get('/api/v1/models?format=csv&headers=true&providers=openai')).text();
    const header = withHeaders.split('\n')[0]!.split(',');
    // The first row's keys (dall-e-3: output_cost_per_token and input_cost_per_pixel from LiteLLM,
    // then the added keys), then keys only later rows have, where they first appear.
    expect(header).toEqual([
      'output_cost_per_token',
      'input_cost_per_pixel',
      'model_id',
      'model_name',
      'provider_id',
      'provider_name',
      'max_input_tokens',
      'max_output_tokens',
      'input_cost_per_token',
      'input_cost_per_million',
      'output_cost_per_million',
      'cache_read_cost_per_token',
      'cache_read_cost_per_million',
      'cache_write_cost_per_token',
      'cache_write_cost_per_million',
      'model_type',
      'deprecation_date',
      'supports_function_calling',
      'supports_vision',
      'supports_json_mode',
      'supports_parallel_functions',
      'supports_parallel_function_calling',
      'supports_response_schema',
      'max_tokens',
      'supports_prompt_caching',
      'supported_endpoints',
      'notes',
      'output_vector_size',
      'input_cost_per_character',
      'input_cost_per_second',
      'output_cost_per_second',
    ]);
    const rows = parse(withHeaders, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.model_id)).toEqual(ids(await json('/api/v1/models?providers=openai')));
    const mini = rows.find((row) => row.model_id === 'gpt-4o-mini')!;
    expect(mini.notes).toBe('fast, "cheap"\nand good');
    expect(rows.find((row) => row.model_id === 'gpt-4o')!.supported_endpoints).toBe('["/v1/chat/completions","/v1/responses"]');
  });

  it('writes CSV columns of the projection, in its order', async () => {
    const body = await (await get('/api/v1/models?format=csv&headers=true&project=provider_id,model_id,notes&prefixes=gpt-4o')).text();
    expect(body).toBe('provider_id,model_id,notes\nopenai,gpt-4o,\nopenai,gpt-4o-mini,"fast, ""cheap""\nand good"');
    expect(await (await get('/api/v1/models?format=csv&headers=false&project=model_id&providers=xai')).text()).toBe('grok-2');
  });

  it('answers JSON Lines as application/x-ndjson, one model per line', async () => {
    const response = await get('/api/v1/models?format=jsonl&providers=openai&project=model_id');
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).model_id)).toEqual(ids(await json('/api/v1/models?providers=openai')));
  });

  it('rejects invalid values and repeated parameters with a 400', async () => {
    expect(await json('/api/v1/models?format=xml', 400)).toEqual({ error: 'query parameter "format" must be one of json, csv, jsonl (got "xml")' });
    expect((await json('/api/v1/models?deprecated=maybe', 400)).error).toMatch(/"deprecated" must be one of true, false \(got "maybe"\)/);
    expect((await json('/api/v1/models?deprecated=', 400)).error).toMatch(/"deprecated"/);
    expect((await json('/api/v1/models?headers=yes', 400)).error).toMatch(/"headers"/);
    expect((await json('/api/v1/models?fill-with-zeros=invalid', 400)).error).toMatch(/"fill-with-zeros"/);
    expect(await json('/api/v1/models?providers=openai&providers=xai', 400)).toEqual({
      error: 'query parameter "providers" is given 2 times; give it once',
    });
  });

  it('answers errors in CSV when CSV was asked', async () => {
    const response = await get('/api/v1/models?format=csv&deprecated=maybe');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(parse(await response.text(), { columns: true })).toEqual([{ error: 'query parameter "deprecated" must be one of true, false (got "maybe")' }]);
  });

  it('ignores parameters it does not know', async () => {
    expect(ids(await json('/api/v1/models?invalid_param=value&providers=xai'))).toEqual(['grok-2']);
  });
});

describe('GET /api/v1/models/:id', () => {
  it('returns one model; the later LiteLLM entry won when two cleaned to the same id', async () => {
    const model = await json('/api/v1/models/gpt-4o');
    expect(model).toMatchObject({ model_id: 'gpt-4o', input_cost_per_token: 0.0000025, supports_vision: true, supports_json_mode: true });
  });

  it('resolves ids with slashes raw and percent-encoded', async () => {
    for (const id of ['openrouter/openai/gpt-4o', 'meta-llama/Llama-3-70b-chat-hf', 'us.anthropic.claude-3-haiku-20240307-v1:0']) {
      expect((await json(`/api/v1/models/${id}`)).model_id).toBe(id);
      expect((await json(`/api/v1/models/${encodeURIComponent(id)}`)).model_id).toBe(id);
      expect((await json(`/api/v1/models/${id}?project=model_id&format=json`)).model_id).toBe(id);
    }
  });

  it('applies project, fill-with-zeros and pretty', async () => {
    expect(await json('/api/v1/models/claude-3-opus-20240229?project=model_id,cache_read_cost_per_million,cache_write_cost_per_million')).toEqual({
      model_id: 'claude-3-opus-20240229',
      cache_read_cost_per_million: 0.0000015 * 1_000_000,
      cache_write_cost_per_million: 0.00001875 * 1_000_000,
    });
    expect(await json('/api/v1/models/grok-2?project=cache_read_cost_per_token&fill-with-zeros=false')).toEqual({ cache_read_cost_per_token: null });
    expect(await (await get('/api/v1/models/grok-2?project=model_id&pretty')).text()).toBe('{\n  "model_id": "grok-2"\n}');
  });

  it('answers CSV and JSON Lines', async () => {
    expect(await (await get('/api/v1/models/grok-2?format=csv&project=model_id,provider_id&headers=true')).text()).toBe(
      'model_id,provider_id\ngrok-2,xai',
    );
    expect(await (await get('/api/v1/models/grok-2?format=csv&project=model_id')).text()).toBe('grok-2');
    const lines = (await (await get('/api/v1/models/openrouter/openai/gpt-4o?format=jsonl')).text()).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).model_id).toBe('openrouter/openai/gpt-4o');
  });

  it('answers 404 as JSON, or as CSV when CSV was asked', async () => {
    expect(await json('/api/v1/models/non-existent-model', 404)).toEqual({ error: 'Model not found: non-existent-model' });
    expect(await json('/api/v1/models/no/such/model', 404)).toEqual({ error: 'Model not found: no/such/model' });
    const csv = await get('/api/v1/models/non-existent-model?format=csv');
    expect(csv.status).toBe(404);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe('error\nModel not found: non-existent-model\n');
  });

  it('rejects invalid parameters with a 400', async () => {
    expect((await json('/api/v1/models/gpt-4o?format=xml', 400)).error).toMatch(/"format"/);
    expect((await json('/api/v1/models/gpt-4o?project=a&project=b', 400)).error).toMatch(/"project" is given 2 times/);
  });
});
