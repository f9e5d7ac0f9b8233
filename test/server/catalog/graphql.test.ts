// The catalog through the GraphQL gateway: connections paged forward and backward, filters
// matching the REST ones, nodes, metadata; all without a token.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function query<T = any>(document: string, variables?: Record<string, unknown>): Promise<T> {
  const result = await server.graphql<T>(document, variables, false);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data!;
}

async function restIds(path: string): Promise<string[]> {
  const response = await server.request(path, { auth: false });
  return ((await response.json()) as { model_id: string }[]).map((model) => model.model_id);
}

const PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String, $filter: ModelFilter) {
  models(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
    totalCount
    edges { cursor node { modelId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface Page {
  models: {
    totalCount: number;
    edges: { cursor: string; node: { modelId: string } }[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  };
}

describe('Query.models', () => {
  it('pages forward through the same list as REST, in the same order', async () => {
    const expected = await restIds('/api/v1/models');
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { models }: Page = await query<Page>(PAGE, { first: 4, after });
      expect(models.totalCount).toBe(expected.length);
      seen.push(...models.edges.map((edge) => edge.node.modelId));
      expect(models.pageInfo.hasPreviousPage).toBe(pages > 0);
      pages++;
      if (!models.pageInfo.hasNextPage) break;
      after = models.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 4));
  });

  it('pages backward with last and before', async () => {
    const expected = await restIds('/api/v1/models');
    const seen: string[] = [];
    let before: string | null = null;
    for (;;) {
      const { models }: Page = await query<Page>(PAGE, { last: 5, before });
      seen.unshift(...models.edges.map((edge) => edge.node.modelId));
      if (!models.pageInfo.hasPreviousPage) break;
      before = models.pageInfo.startCursor;
    }
    expect(seen).toEqual(expected);
  });

  it('slices between two cursors and reports both directions', async () => {
    const all = (await query<Page>(PAGE, { first: 10 })).models.edges;
    const { models } = await query<Page>(PAGE, { after: all[2]!.cursor, before: all[6]!.cursor });
    expect(models.edges.map((edge) => edge.node.modelId)).toEqual(all.slice(3, 6).map((edge) => edge.node.modelId));
    expect(models.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const { models: tail } = await query<Page>(PAGE, { first: 2, after: all[2]!.cursor, last: 1 });
    expect(tail.edges.map((edge) => edge.node.modelId)).toEqual([all[4]!.node.modelId]);
  });

  it('filters with the same fields and results as REST', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ prefixes: ['gpt-4o', ' claude-3-5'] }, 'prefixes=gpt-4o,claude-3-5'],
      [{ providers: ['xai', 'vertex'] }, 'providers=xai,vertex'],
      [{ type: ['image', 'audio'] }, 'type=image,audio'],
      [{ capability: ['vision', 'function_calling'] }, 'capability=vision,function_calling'],
      [{ deprecated: true }, 'deprecated=true'],
      [{ deprecated: false, providers: ['openai'] }, 'deprecated=false&providers=openai'],
    ];
    for (const [filter, rest] of cases) {
      const { models } = await query<Page>(PAGE, { filter, first: 100 });
      expect(models.edges.map((edge) => edge.node.modelId), rest).toEqual(await restIds(`/api/v1/models?${rest}`));
    }
  });

  it('answers bad arguments with BAD_USER_INPUT', async () => {
    for (const [variables, message] of [
      [{ filter: { capability: ['telepathy'] } }, /unknown capability "telepathy"/],
      [{ first: -1 }, /first must be a non-negative integer/],
      [{ after: 'not-a-cursor' }, /invalid model cursor/],
    ] as const) {
      const result = await server.graphql(PAGE, variables, false);
      expect(result.errors?.[0]?.message).toMatch(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it('keeps cursors meaningful after a sync changes the list', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-graphql-'));
    const local = await startTestServer();
    try {
      const page = (await local.graphql<Page>(PAGE, { first: 3 }, false)).data!.models;
      const afterThird = page.pageInfo.endCursor; // anthropic / claude-3-opus-20240229
      const source = path.join(dir, 'smaller.json');
      writeFileSync(
        source,
        JSON.stringify({
          'anthropic/claude-3-opus-20240229': { litellm_provider: 'anthropic' },
          'azure/gpt-4o': { litellm_provider: 'azure' },
          'claude-2': { litellm_provider: 'anthropic' },
        }),
      );
      await local.app.services.catalog.sync({ kind: 'litellm', source });
      const next = (await local.graphql<Page>(PAGE, { first: 5, after: afterThird }, false)).data!.models;
      expect(next.edges.map((edge) => edge.node.modelId)).toEqual(['azure/gpt-4o']);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Query.model and Node', () => {
  it('finds a model by id, slashes included, with its fields and whole record', async () => {
    const { model } = await query(`{
      model(id: "openrouter/openai/gpt-4o") {
        id modelId modelName providerId providerName maxInputTokens maxOutputTokens
        inputCostPerToken inputCostPerMillion outputCostPerMillion cacheReadCostPerToken cacheWriteCostPerMillion
        supportsFunctionCalling supportsVision supportsJsonMode supportsParallelFunctions modelType deprecationDate deprecated
        provider { providerId modelCount }
        record
      }
    }`);
    const rest = await (await server.request('/api/v1/models/openrouter/openai/gpt-4o?fill-with-zeros=false', { auth: false })).json();
    expect(model).toMatchObject({
      modelId: 'openrouter/openai/gpt-4o',
      modelName: 'GPT-4o',
      providerId: 'openrouter',
      providerName: 'OpenRouter',
      maxInputTokens: 128000,
      maxOutputTokens: 4096,
      inputCostPerToken: 0.0000025,
      inputCostPerMillion: rest.input_cost_per_million,
      outputCostPerMillion: rest.output_cost_per_million,
      cacheReadCostPerToken: null,
      cacheWriteCostPerMillion: null,
      supportsFunctionCalling: true,
      supportsVision: true,
      supportsJsonMode: false,
      supportsParallelFunctions: true,
      modelType: 'chat',
      deprecationDate: null,
      deprecated: false,
      provider: { providerId: 'openrouter', modelCount: 1 },
    });
    expect(model.record).toEqual(rest);
    expect(Buffer.from(model.id, 'base64').toString()).toBe('Model:openrouter/openai/gpt-4o');
  });

  it('answers null for an unknown model and tells deprecated models by the today rule', async () => {
    const data = await query(`{
      unknown: model(id: "nope") { modelId }
      old: model(id: "gpt-3.5-turbo-0301") { deprecationDate deprecated }
      planned: model(id: "claude-3-opus-20240229") { deprecationDate deprecated }
    }`);
    expect(data).toEqual({
      unknown: null,
      old: { deprecationDate: '2024-06-13', deprecated: true },
      planned: { deprecationDate: '2099-03-01', deprecated: false },
    });
  });

  it('resolves global ids of models and providers through Query.node', async () => {
    const { model, providers } = await query(`{ model(id: "grok-2") { id } providers(first: 1) { edges { node { id providerId } } } }`);
    const provider = providers.edges[0].node;
    const data = await query(
      `query($m: ID!, $p: ID!) {
        m: node(id: $m) { __typename ... on Model { modelId } }
        p: node(id: $p) { __typename ... on Provider { providerId } }
      }`,
      { m: model.id, p: provider.id },
    );
    expect(data).toEqual({ m: { __typename: 'Model', modelId: 'grok-2' }, p: { __typename: 'Provider', providerId: provider.providerId } });
  });
});

describe('Query.providers', () => {
  it('lists providers sorted by id with their own filtered, paged models', async () => {
    const { providers } = await query(`{
      providers(filter: { ids: ["xai", "google", "nope"] }) {
        totalCount
        edges { node { providerId providerName modelCount models(first: 1) { totalCount edges { node { modelId } } pageInfo { hasNextPage } } } }
      }
    }`);
    expect(providers).toEqual({
      totalCount: 2,
      edges: [
        {
          node: {
            providerId: 'google',
            providerName: 'Google',
            modelCount: 2,
            models: { totalCount: 2, edges: [{ node: { modelId: '2.5-pro' } }], pageInfo: { hasNextPage: true } },
          },
        },
        {
          node: {
            providerId: 'xai',
            providerName: 'xAI',
            modelCount: 1,
            models: { totalCount: 1, edges: [{ node: { modelId: 'grok-2' } }], pageInfo: { hasNextPage: false } },
          },
        },
      ],
    });
    const { provider } = await query(`{ provider(id: "openai") { models(filter: { type: ["audio"] }) { edges { node { modelId } } } } }`);
    expect(provider.models.edges.map((edge: any) => edge.node.modelId)).toEqual(['tts-1', 'whisper-1']);
  });

  it('pages providers backward', async () => {
    const { providers } = await query(`{ providers(last: 2) { edges { node { providerId } } pageInfo { hasPreviousPage hasNextPage } } }`);
    expect(providers).toEqual({
      edges: [{ node: { providerId: 'vertex' } }, { node: { providerId: 'xai' } }],
      pageInfo: { hasPreviousPage: true, hasNextPage: false },
    });
  });
});

describe('Query.catalogMetadata', () => {
  it('reports the same numbers as /api/v1/metadata', async () => {
    const { catalogMetadata } = await query(`{
      catalogMetadata {
        source sourceKind generatedAt schemaVersion modelCount modelsRead modelsSkipped modelsWritten
        skipReasons { name count } providers { name count } types { name count } capabilities { name count }
        activeCount deprecatedCount
      }
    }`);
    const rest = await (await server.request('/api/v1/metadata', { auth: false })).json();
    const pairs = (record: Record<string, number>) => Object.entries(record).map(([name, count]) => ({ name, count }));
    expect(catalogMetadata).toEqual({
      source: rest.source,
      sourceKind: 'litellm',
      generatedAt: new Date(rest.generated_at).toISOString(),
      schemaVersion: '1.0.0',
      modelCount: 26,
      modelsRead: 31,
      modelsSkipped: 5,
      modelsWritten: 26,
      skipReasons: pairs(rest.sync.skip_reasons),
      providers: pairs(rest.stats.providers),
      types: pairs(rest.stats.types),
      capabilities: pairs(rest.stats.capabilities),
      activeCount: 24,
      deprecatedCount: 2,
    });
  });
});
