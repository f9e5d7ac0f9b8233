// /api/v1/providers, /api/v1/providers/:id, /api/v1/metadata, CORS on the public catalog
// routes only, and the generated /openapi.json, through the real server.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => server.request(path, { auth: false, headers });
async function json(path: string, status = 200): Promise<any> {
  const response = await get(path);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(status);
  return response.json();
}

const PROVIDERS = [
  'acme',
  'anthropic',
  'azure',
  'bedrock',
  'cohere',
  'google',
  'groq',
  'mistral',
  'openai',
  'openrouter',
  'text-completion-openai',
  'together',
  'vertex',
  'xai',
];

describe('GET /api/v1/providers', () => {
  it('maps each provider id, sorted, to its models in list order', async () => {
    const providers = await json('/api/v1/providers');
    expect(Object.keys(providers)).toEqual(PROVIDERS);
    const models = await json('/api/v1/models');
    expect(Object.values(providers).flat()).toEqual(models);
    expect(providers.text_completion_openai).toBeUndefined();
    expect(providers['text-completion-openai'][0].provider_name).toBe('OpenAI');
  });

  it('filters providers with a trimmed comma list', async () => {
    const providers = await json('/api/v1/providers?filter=%20xai,,google%20,nope&project=model_id');
    expect(providers).toEqual({ google: [{ model_id: '2.5-pro' }, { model_id: 'gemma-3-27b-it' }], xai: [{ model_id: 'grok-2' }] });
    expect(await json('/api/v1/providers?filter=nope')).toEqual({});
  });

  it('fills zeros after projection, or not', async () => {
    expect(await json('/api/v1/providers?filter=xai&project=cache_read_cost_per_token')).toEqual({ xai: [{ cache_read_cost_per_token: 0 }] });
    expect(await json('/api/v1/providers?filter=xai&project=cache_read_cost_per_token&fill-with-zeros=false')).toEqual({
      xai: [{ cache_read_cost_per_token: null }],
    });
  });

  it('flattens to one row per model with a leading provider column in CSV and JSON Lines', async () => {
    const csv = await (await get('/api/v1/providers?format=csv&headers=true&filter=google,xai&project=model_id,model_type')).text();
    expect(csv).toBe('provider,model_id,model_type\ngoogle,2.5-pro,chat\ngoogle,gemma-3-27b-it,chat\nxai,grok-2,chat');
    const full = parse(await (await get('/api/v1/providers?format=csv&headers=true')).text(), { columns: true }) as Record<string, string>[];
    expect(full).toHaveLength(26);
    expect(Object.keys(full[0]!)[0]).toBe('provider');
    expect(Object.keys(full[0]!)).toEqual(expect.arrayContaining(['model_id', 'model_name', 'provider_id']));
    expect((await (await get('/api/v1/providers?format=csv&filter=xai&project=model_id')).text())).toBe('xai,grok-2');
    const response = await get('/api/v1/providers?format=jsonl&filter=xai,acme&project=model_id');
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(await response.text()).toBe('{"provider":"acme","model_id":"acme_ai/mystery-model"}\n{"provider":"xai","model_id":"grok-2"}');
  });

  it('rejects invalid parameters', async () => {
    expect((await json('/api/v1/providers?format=xml', 400)).error).toMatch(/"format"/);
    expect((await json('/api/v1/providers?filter=a&filter=b', 400)).error).toMatch(/"filter" is given 2 times/);
  });
});

describe('GET /api/v1/providers/:id', () => {
  it("lists a provider's models", async () => {
    const models = await json('/api/v1/providers/together?project=model_id,provider_id');
    expect(models).toEqual([
      { model_id: 'meta-llama/llama_guard-7b', provider_id: 'together' },
      { model_id: 'meta-llama/Llama-3-70b-chat-hf', provider_id: 'together' },
      { model_id: 'Qwen/Qwen2-72B-Instruct', provider_id: 'together' },
    ]);
    const full = await json('/api/v1/providers/openai');
    expect(full.every((model: any) => model.provider_id === 'openai' && model.provider_name === 'OpenAI')).toBe(true);
    expect(full.find((model: any) => model.model_id === 'gpt-4-0314').cache_read_cost_per_token).toBe(0);
  });

  it('answers CSV and JSON Lines', async () => {
    expect(await (await get('/api/v1/providers/google?format=csv&headers=true&project=model_id')).text()).toBe('model_id\n2.5-pro\ngemma-3-27b-it');
    expect(await (await get('/api/v1/providers/xai?format=jsonl&project=model_id&pretty')).text()).toBe('{"model_id":"grok-2"}');
  });

  it('answers 404 as JSON or CSV; ids are case-sensitive', async () => {
    expect(await json('/api/v1/providers/OpenAI', 404)).toEqual({ error: 'Provider not found: OpenAI' });
    const csv = await get('/api/v1/providers/none?format=csv');
    expect(csv.status).toBe(404);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe('error\nProvider not found: none\n');
  });
});

describe('GET /api/v1/metadata', () => {
  it('reports source, sync counts with reasons, and statistics with the today rule', async () => {
    const metadata = await json('/api/v1/metadata');
    expect(metadata).toMatchObject({
      source: expect.stringMatching(/test\/fixtures\/litellm-small\.json$/),
      generated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      model_count: 26,
      schema_version: '1.0.0',
      sync: {
        source_kind: 'litellm',
        models_read: 31,
        models_skipped: 5,
        models_written: 26,
        skip_reasons: {
          'format description (sample_spec)': 1,
          'replaced by a later entry with the same model_id': 1,
          'no litellm_provider': 1,
          'max_input_tokens is not a number': 1,
          'not a model object': 1,
        },
      },
      stats: {
        deprecation: { active: 24, deprecated: 2 },
      },
    });
    expect(Object.keys(metadata.stats.providers)).toEqual(PROVIDERS);
    expect(metadata.stats.providers.openai).toBe(8);
    expect(metadata.stats.types).toMatchObject({ chat: 18, image: 1, audio: 2, embedding: 1, completion: 1, moderation: 1, rerank: 1, ocr: 1 });
    expect(metadata.stats.capabilities).toMatchObject({ supports_vision: 7, supports_json_mode: 2, supports_reasoning: 2 });
  });

  it('answers one flat CSV row, and JSON Lines', async () => {
    const csv = await (await get('/api/v1/metadata?format=csv&headers=true')).text();
    const [row, ...rest] = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      model_count: '26',
      source_kind: 'litellm',
      models_read: '31',
      total_providers: '14',
      total_active: '24',
      total_deprecated: '2',
      provider_openai: '8',
      type_chat: '18',
      capability_supports_vision: '7',
    });
    // modeldb's columns first, in its order; the sync counts this catalog adds at the end.
    const header = csv.split('\n')[0]!.split(',');
    expect(header.slice(0, 7)).toEqual(['source', 'generated_at', 'model_count', 'schema_version', 'total_providers', 'total_active', 'total_deprecated']);
    expect(header.slice(-4)).toEqual(['source_kind', 'models_read', 'models_skipped', 'models_written']);
    const groups = header.slice(7, -4).map((column) => column.split('_')[0]);
    expect(groups).toEqual([...groups].sort((a, b) => ['provider', 'type', 'capability'].indexOf(a!) - ['provider', 'type', 'capability'].indexOf(b!)));
    expect(new Set(groups)).toEqual(new Set(['provider', 'type', 'capability']));
    // LiteLLM's own flags in name order, as modeldb counts them; the two this catalog derives under
    // modeldb's older names after them.
    const capabilities = header.filter((column) => column.startsWith('capability_'));
    expect(capabilities.slice(-2)).toEqual(['capability_supports_json_mode', 'capability_supports_parallel_functions']);
    const own = capabilities.slice(0, -2);
    expect(own).toEqual([...own].sort());
    expect(own).toContain('capability_supports_response_schema');
    // One line without headers, and no newline after it.
    const bare = await (await get('/api/v1/metadata?format=csv')).text();
    expect(bare.split('\n')).toHaveLength(1);
    expect(bare.endsWith('\n')).toBe(false);
    const lines = (await (await get('/api/v1/metadata?format=jsonl')).text()).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).model_count).toBe(26);
  });

  it('pretty-prints, and rejects invalid values', async () => {
    expect(await (await get('/api/v1/metadata?pretty')).text()).toMatch(/^\{\n {2}"source": /);
    expect((await json('/api/v1/metadata?format=xml', 400)).error).toMatch(/"format"/);
    const csvError = await get('/api/v1/metadata?format=csv&headers=1');
    expect(csvError.status).toBe(400);
    expect(await csvError.text()).toMatch(/^error\n/);
  });
});

describe('CORS', () => {
  const origin = { origin: 'https://app.example.com' };

  it('allows any origin on every catalog route, errors included', async () => {
    for (const path of [
      '/api/v1/models',
      '/api/v1/models/gpt-4o',
      '/api/v1/models/openrouter/openai/gpt-4o',
      '/api/v1/providers',
      '/api/v1/providers/openai',
      '/api/v1/metadata',
      '/api/v1/models/none',
      '/api/v1/models?format=xml',
      '/openapi.json',
    ]) {
      const response = await get(path, origin);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
    }
  });

  it('answers preflight requests of the catalog routes', async () => {
    for (const path of ['/api/v1/models', '/api/v1/models/a/b', '/api/v1/providers/openai', '/api/v1/metadata']) {
      const response = await server.request(path, {
        method: 'OPTIONS',
        auth: false,
        headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-custom, authorization' },
      });
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toBe('x-custom, authorization');
      expect(response.headers.get('access-control-max-age')).toBe('86400');
    }
  });

  it('leaves routes outside the catalog alone', async () => {
    const health = await get('/healthz', origin);
    expect(health.status).toBe(200);
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await server.request('/v2/tokens', {
      method: 'OPTIONS',
      auth: false,
      headers: { ...origin, 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('GET /openapi.json', () => {
  it('describes the catalog routes in OpenAPI 3.1, generated from the route schemas', async () => {
    const document = await json('/openapi.json');
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'eventdeck', version: expect.any(String) });
    for (const path of ['/api/v1/models', '/api/v1/models/{id}', '/api/v1/providers', '/api/v1/providers/{id}', '/api/v1/metadata']) {
      expect(document.paths, path).toHaveProperty([path, 'get']);
    }
    const catalogPaths = Object.keys(document.paths).filter((path) => /^\/api\/v1\/(models|providers|metadata)/.test(path));
    expect(catalogPaths).toEqual(['/api/v1/models', '/api/v1/models/{id}', '/api/v1/providers', '/api/v1/providers/{id}', '/api/v1/metadata']);
    expect(document.paths).not.toHaveProperty('/openapi.json');

    const list = document.paths['/api/v1/models'].get;
    const parameters = Object.fromEntries(list.parameters.map((parameter: any) => [parameter.name, parameter]));
    expect(Object.keys(parameters)).toEqual([
      'prefixes',
      'providers',
      'type',
      'capability',
      'deprecated',
      'project',
      'format',
      'headers',
      'fill-with-zeros',
      'pretty',
    ]);
    expect(parameters.format.schema).toMatchObject({ enum: ['json', 'csv', 'jsonl'], default: 'json' });
    expect(parameters.deprecated.schema.enum).toEqual(['true', 'false']);
    expect(Object.keys(list.responses['200'].content)).toEqual(['application/json', 'text/csv', 'application/x-ndjson']);
    expect(list.responses['200'].content['application/json'].schema.items.properties).toHaveProperty('model_id');

    const one = document.paths['/api/v1/models/{id}'].get;
    expect(one.parameters.find((parameter: any) => parameter.in === 'path')).toMatchObject({ name: 'id', required: true });
    expect(one.responses['404'].description).toBe('Model not found');
    const metadata = document.paths['/api/v1/metadata'].get;
    expect(metadata.parameters.map((parameter: any) => parameter.name)).toEqual(['format', 'headers', 'pretty']);
  });

  it('describes the token-protected API too, with its bearer security scheme', async () => {
    const document = await json('/openapi.json');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, method] of [
      ['/v2/datasets', 'post'],
      ['/v1/datasets/{dataset}/ingest', 'post'],
      ['/v1/datasets/_apl', 'post'],
      ['/v2/tokens/{id}/regenerate', 'post'],
      ['/api/v1/datasets/{dataset}/query', 'post'],
    ] as const) {
      expect(document.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    expect(document.paths['/api/v1/models'].get.security).toBeUndefined();
  });
});
