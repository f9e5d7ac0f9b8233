// The GenAI pricing functions through the real server and the Axiom SDK, priced from a catalog
// imported from LiteLLM's price file. Every expected cost is computed here from the file's own
// per-token prices (looked up by the LiteLLM key the name should resolve to), never by the code
// under test.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { LITELLM_SNAPSHOT, sharedDataAvailable } from '../../helpers/shared-data';

interface LiteLLMEntry {
  input_cost_per_token: number;
  output_cost_per_token: number;
  cache_read_input_token_cost?: number;
  cache_creation_input_token_cost?: number;
  litellm_provider: string;
}

const available = sharedDataAvailable(LITELLM_SNAPSHOT);

describe.runIf(available)('GenAI pricing from the model catalog', () => {
  let server: TestServer;
  let client: Axiom;
  let dir: string;
  let source: string;
  let litellm: Record<string, LiteLLMEntry>;
  const entry = (key: string) => {
    const found = litellm[key];
    if (!found) throw new Error(`the LiteLLM file has no ${key}`);
    return found;
  };
  const costOf = (key: string, input: number, output: number) => input * entry(key).input_cost_per_token + output * entry(key).output_cost_per_token;

  /** Model names as clients write them, with the LiteLLM key each must be priced as (null: unknown). */
  const NAMES: [string, string | null][] = [
    ['gpt-4o', 'gpt-4o'],
    ['openai/gpt-4o', 'gpt-4o'],
    ['azure/gpt-4o', 'azure/gpt-4o'],
    ['GPT-4o-mini', 'gpt-4o-mini'],
    ['gpt-4o-2024-08-06', 'gpt-4o-2024-08-06'],
    // A date the catalog does not list falls back to the undated model of the same provider.
    ['gpt-4o-2099-01-01', 'gpt-4o'],
    ['bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0', 'anthropic.claude-3-5-sonnet-20240620-v1:0'],
    ['arn:aws:bedrock:us-east-1:123456789012:foundation-model/anthropic.claude-3-5-sonnet-20240620-v1:0', 'anthropic.claude-3-5-sonnet-20240620-v1:0'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929'],
    ['gemini-2.5-pro', 'gemini/gemini-2.5-pro'],
    ['gpt-4.1', 'gpt-4.1'],
    // Unknown: no such model, and an unknown date whose undated name belongs to another provider.
    ['in-house-model-v2', null],
    ['claude-sonnet-4-5-20991231', null],
  ];
  const base = Date.parse('2024-05-01T00:00:00Z');
  const calls = NAMES.map(([model], i) => ({
    _time: new Date(base + i * 60_000).toISOString(),
    model,
    input_tokens: 1000 + 137 * i,
    output_tokens: 200 + 31 * i,
    cache_read: 300 + i,
    cache_write: 50 + i,
    conversation: `c${i % 3}`,
  }));

  beforeAll(async () => {
    litellm = JSON.parse(readFileSync(LITELLM_SNAPSHOT, 'utf8'));
    dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-genai-'));
    source = path.join(dir, 'prices.json');
    copyFileSync(LITELLM_SNAPSHOT, source);
    server = await startTestServer({ MODEL_CATALOG_SOURCE: source });
    client = new Axiom({ url: server.url, token: server.adminToken });
    await client.datasets.create({ name: 'llm' });
    expect((await client.ingestRaw('llm', JSON.stringify(calls))).ingested).toBe(calls.length);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = async (apl: string) => [...(await client.query(apl)).tables[0]!.events()] as Record<string, any>[];

  it('prices each call by the model its name resolves to, and unknown models as null', async () => {
    const result = await rows(
      "['llm'] | extend cost = genai_cost(model, input_tokens, output_tokens), i = genai_input_cost(model, input_tokens), o = genai_output_cost(model, output_tokens) | order by _time asc | project model, cost, i, o",
    );
    expect(result.map((row) => row.model)).toEqual(NAMES.map(([name]) => name));
    result.forEach((row, n) => {
      const key = NAMES[n]![1];
      const call = calls[n]!;
      if (key === null) {
        expect(row, row.model).toMatchObject({ cost: null, i: null, o: null });
        return;
      }
      expect(row.cost, row.model).toBeCloseTo(costOf(key, call.input_tokens, call.output_tokens), 12);
      expect(row.i, row.model).toBeCloseTo(call.input_tokens * entry(key).input_cost_per_token, 12);
      expect(row.o, row.model).toBeCloseTo(call.output_tokens * entry(key).output_cost_per_token, 12);
    });
  });

  it('answers the pricing object, per million tokens, with provider and catalog id', async () => {
    const result = await rows("['llm'] | order by _time asc | project model, pricing = genai_get_pricing(model)");
    result.forEach((row, n) => {
      const key = NAMES[n]![1];
      if (key === null) return expect(row.pricing, row.model).toBeNull();
      const e = entry(key);
      const pricing = typeof row.pricing === 'string' ? JSON.parse(row.pricing) : row.pricing;
      expect(pricing.input_price_per_million, row.model).toBeCloseTo(e.input_cost_per_token * 1e6, 9);
      expect(pricing.output_price_per_million, row.model).toBeCloseTo(e.output_cost_per_token * 1e6, 9);
      if (e.cache_read_input_token_cost) expect(pricing.cache_read_price_per_million).toBeCloseTo(e.cache_read_input_token_cost * 1e6, 9);
      else expect(pricing.cache_read_price_per_million).toBeNull();
      expect(typeof pricing.model_id).toBe('string');
      expect(typeof pricing.provider).toBe('string');
    });
    const [gpt] = await rows("print p = genai_get_pricing('openai/gpt-4o')");
    const pricing = typeof gpt!.p === 'string' ? JSON.parse(gpt!.p) : gpt!.p;
    expect(pricing).toMatchObject({ model_id: 'gpt-4o', provider: 'openai', input_price_per_million: 2.5, output_price_per_million: 10 });
  });

  it('bills cached input at the cache prices when given cache read and write tokens', async () => {
    const result = await rows("['llm'] | order by _time asc | project model, cost = genai_cost(model, input_tokens, output_tokens, cache_read, cache_write), read_only = genai_cost(model, input_tokens, output_tokens, cache_read)");
    result.forEach((row, n) => {
      const key = NAMES[n]![1];
      if (key === null) return expect(row.cost).toBeNull();
      const e = entry(key);
      const call = calls[n]!;
      const readPrice = e.cache_read_input_token_cost ?? e.input_cost_per_token;
      const writePrice = e.cache_creation_input_token_cost ?? e.input_cost_per_token;
      const uncached = call.input_tokens - call.cache_read - call.cache_write;
      const expected = uncached * e.input_cost_per_token + call.cache_read * readPrice + call.cache_write * writePrice + call.output_tokens * e.output_cost_per_token;
      expect(row.cost, row.model).toBeCloseTo(expected, 12);
      const readOnly = (call.input_tokens - call.cache_read) * e.input_cost_per_token + call.cache_read * readPrice + call.output_tokens * e.output_cost_per_token;
      expect(row.read_only, row.model).toBeCloseTo(readOnly, 12);
    });
  });

  it('sums costs by model and time inside the engine', async () => {
    const result = await rows("['llm'] | summarize total = sum(genai_cost(model, input_tokens, output_tokens)) by conversation | order by conversation asc");
    const expected = new Map<string, number>();
    calls.forEach((call, n) => {
      const key = NAMES[n]![1];
      if (key !== null) expected.set(call.conversation, (expected.get(call.conversation) ?? 0) + costOf(key, call.input_tokens, call.output_tokens));
    });
    expect(result.map((row) => row.conversation)).toEqual(['c0', 'c1', 'c2']);
    for (const row of result) expect(row.total).toBeCloseTo(expected.get(row.conversation)!, 12);
    // The same lookup under a filter, a sort key and a join key.
    const expensive = await rows("['llm'] | where genai_cost(model, input_tokens, output_tokens) > 0.01 | order by genai_cost(model, input_tokens, output_tokens) desc | project model");
    const byCost = calls
      .map((call, n) => ({ model: call.model, cost: NAMES[n]![1] === null ? null : costOf(NAMES[n]![1]!, call.input_tokens, call.output_tokens) }))
      .filter((c) => c.cost !== null && c.cost > 0.01)
      .sort((a, b) => b.cost! - a.cost!);
    expect(expensive.map((row) => row.model)).toEqual(byCost.map((c) => c.model));
  });

  it('prices OpenTelemetry GenAI spans from their convention attributes', async () => {
    const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
    const span = (i: number, model: string, input: number, output: number) => ({
      traceId: `5b8efff798038103d269b633813fc6${String(i).padStart(2, '0')}`,
      spanId: `eee19b7ec3c1b1${String(i).padStart(2, '0')}`,
      name: `chat ${model}`,
      kind: 3,
      startTimeUnixNano: nanos(base + i * 1000),
      endTimeUnixNano: nanos(base + i * 1000 + 800),
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.request.model', value: { stringValue: model } },
        { key: 'gen_ai.response.model', value: { stringValue: `${model}-2024-08-06` } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: String(input) } },
        { key: 'gen_ai.usage.output_tokens', value: { intValue: String(output) } },
      ],
    });
    const body = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'chatbot' } }] }, scopeSpans: [{ spans: [span(1, 'gpt-4o', 1200, 300), span(2, 'gpt-4o', 800, 100)] }] }] };
    await client.datasets.create({ name: 'otel-genai' });
    const response = await server.request('/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json', 'x-axiom-dataset': 'otel-genai' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    const [row] = await rows(
      "['otel-genai'] | extend cost = genai_cost(['attributes.gen_ai.response.model'], tolong(['attributes.gen_ai.usage.input_tokens']), tolong(['attributes.gen_ai.usage.output_tokens'])) | summarize total = sum(cost), n = count() by ['service.name']",
    );
    expect(row!.n).toBe(2);
    expect(row!.total).toBeCloseTo(costOf('gpt-4o-2024-08-06', 1200, 300) + costOf('gpt-4o-2024-08-06', 800, 100), 12);
  });

  it('keeps old events at the prices of their time when a later sync changes them', async () => {
    const costQuery = "['llm'] | where model == 'gpt-4o' | project cost = genai_cost(model, input_tokens, output_tokens)";
    const call = calls[0]!;
    const before = costOf('gpt-4o', call.input_tokens, call.output_tokens);
    expect((await rows(costQuery))[0]!.cost).toBeCloseTo(before, 12);

    // The provider cuts gpt-4o's prices by half; the catalog syncs.
    const changed = JSON.parse(readFileSync(source, 'utf8'));
    changed['gpt-4o'].input_cost_per_token /= 2;
    changed['gpt-4o'].output_cost_per_token /= 2;
    writeFileSync(source, JSON.stringify(changed));
    const syncedAt = Date.now();
    await server.app.services.catalog.sync({ kind: 'litellm', source });
    await server.app.services.prices?.idle();

    // An event from after the sync pays the new prices; the old event keeps the old ones.
    const later = { _time: new Date(syncedAt + 5_000).toISOString(), model: 'gpt-4o', input_tokens: call.input_tokens, output_tokens: call.output_tokens };
    expect((await client.ingestRaw('llm', JSON.stringify([later]))).ingested).toBe(1);
    const after = await rows(`${costQuery.replace('project', 'order by _time asc | project')}`);
    expect(after).toHaveLength(2);
    expect(after[0]!.cost).toBeCloseTo(before, 12);
    expect(after[1]!.cost).toBeCloseTo(before / 2, 12);
    // Without a time (print) the price is today's.
    const [now] = await rows("print p = genai_get_pricing('gpt-4o')");
    const pricing = typeof now!.p === 'string' ? JSON.parse(now!.p) : now!.p;
    expect(pricing.input_price_per_million).toBeCloseTo(entry('gpt-4o').input_cost_per_token * 1e6 / 2, 9);
  });
});
