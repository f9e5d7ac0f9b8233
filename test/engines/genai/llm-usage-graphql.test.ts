// GraphQL llmUsage and Model.usage over OpenTelemetry GenAI spans sent through OTLP and over
// plain events: series per model, provider and service, each model linked to its catalog node,
// costs compared with figures computed here from the catalog file's per-token prices.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';

const litellm = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, { input_cost_per_token: number; output_cost_per_token: number }>;
const HOUR = 3_600_000;
const base = Date.parse('2024-09-02T10:00:00Z');

/** service, model as sent, LiteLLM key of its prices (null: unknown), minutes after base, tokens. */
const CALLS: [string, string, string | null, number, number, number][] = [
  ['chatbot', 'claude-3-opus-20240229', 'claude-3-opus-20240229', 5, 1000, 200],
  ['chatbot', 'claude-3-opus-20240229', 'claude-3-opus-20240229', 70, 3000, 50],
  ['chatbot', 'openai/gpt-4o-mini', 'openai/gpt-4o-mini', 10, 500, 500],
  ['search', 'openai/gpt-4o-mini', 'openai/gpt-4o-mini', 75, 800, 100],
  ['search', 'acme-internal-7b', null, 20, 100, 10],
];
const costOf = (key: string | null, input: number, output: number) => (key === null ? 0 : input * litellm[key]!.input_cost_per_token + output * litellm[key]!.output_cost_per_token);

describe('GraphQL llmUsage', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
    const byService = new Map<string, object[]>();
    CALLS.forEach(([service, model, , minute, input, output], i) => {
      const spans = byService.get(service) ?? [];
      spans.push({
        traceId: `0af7651916cd43dd8448eb211c80319${i}`,
        spanId: `b7ad6b716920333${i}`,
        name: `chat ${model}`,
        startTimeUnixNano: nanos(base + minute * 60_000),
        endTimeUnixNano: nanos(base + minute * 60_000 + 1500),
        attributes: [
          { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
          { key: 'gen_ai.request.model', value: { stringValue: model } },
          { key: 'gen_ai.usage.input_tokens', value: { intValue: String(input) } },
          { key: 'gen_ai.usage.output_tokens', value: { intValue: String(output) } },
        ],
      });
      byService.set(service, spans);
    });
    const body = {
      resourceSpans: [...byService].map(([service, spans]) => ({ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ spans }] })),
    };
    for (const name of ['spans', 'plain']) {
      const created = await server.request('/v1/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      expect(created.status).toBe(200);
    }
    const sent = await server.request('/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json', 'x-axiom-dataset': 'spans' }, body: JSON.stringify(body) });
    expect(sent.status).toBe(200);
    const plain = CALLS.map(([service, model, , minute, input, output]) => ({ _time: new Date(base + minute * 60_000).toISOString(), app: service, llm: model, prompt_tokens: input, completion_tokens: output }));
    const ingested = await server.request('/v1/datasets/plain/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(plain) });
    expect(ingested.status).toBe(200);
  });
  afterAll(() => server?.close());

  const window = { startTime: new Date(base - HOUR).toISOString(), endTime: new Date(base + 3 * HOUR).toISOString() };

  it('splits tokens and cost by model and hour, linking each model to the catalog', async () => {
    const { data, errors } = await server.graphql(
      `query($start: String, $end: String) {
        llmUsage(dataset: "spans", startTime: $start, endTime: $end, groupBy: [MODEL], interval: "1h") {
          interval calls inputTokens cost
          series { modelName model { modelId providerId } calls cost points { time calls inputTokens outputTokens cost unpricedCalls } }
        }
      }`,
      { start: window.startTime, end: window.endTime },
    );
    expect(errors).toBeUndefined();
    const usage = data.llmUsage;
    expect(usage.interval).toBe('1h');
    expect(usage.calls).toBe(CALLS.length);
    expect(usage.inputTokens).toBe(CALLS.reduce((sum, c) => sum + c[4], 0));
    expect(usage.cost).toBeCloseTo(CALLS.reduce((sum, c) => sum + costOf(c[2], c[4], c[5]), 0), 12);
    const byName = Object.fromEntries(usage.series.map((s: any) => [s.modelName, s]));
    expect(Object.keys(byName).sort()).toEqual(['acme-internal-7b', 'claude-3-opus-20240229', 'openai/gpt-4o-mini']);
    expect(byName['claude-3-opus-20240229'].model).toEqual({ modelId: 'claude-3-opus-20240229', providerId: 'anthropic' });
    expect(byName['openai/gpt-4o-mini'].model.providerId).toBe('openai');
    expect(byName['acme-internal-7b'].model).toBeNull();
    expect(byName['acme-internal-7b'].cost).toBeNull();
    expect(byName['acme-internal-7b'].points[0].unpricedCalls).toBe(1);
    const claude = byName['claude-3-opus-20240229'];
    expect(claude.points.map((p: any) => [p.time, p.calls, p.inputTokens])).toEqual([
      ['2024-09-02T10:00:00Z', 1, 1000],
      ['2024-09-02T11:00:00Z', 1, 3000],
    ]);
    expect(claude.points[1].cost).toBeCloseTo(costOf('claude-3-opus-20240229', 3000, 50), 12);
  });

  it('groups by catalog provider and service, and reads plain events through named fields', async () => {
    const { data, errors } = await server.graphql(
      `{ llmUsage(dataset: "plain", groupBy: [PROVIDER, SERVICE], interval: "1d", startTime: "${window.startTime}", endTime: "${window.endTime}",
           fields: { model: ["llm"], inputTokens: "prompt_tokens", outputTokens: "completion_tokens", service: "app" }) {
          series { provider service calls cost }
        } }`,
    );
    expect(errors).toBeUndefined();
    const rows = data.llmUsage.series.map((s: any) => [s.provider, s.service, s.calls, s.cost === null ? null : Number(s.cost.toPrecision(12))]);
    const expected = new Map<string, [string, string, number, number | null]>();
    for (const [service, , key, , input, output] of CALLS) {
      const provider = key === null ? '' : key.startsWith('claude') ? 'anthropic' : 'openai';
      const entry = expected.get(`${provider}/${service}`) ?? [provider, service, 0, null];
      entry[2] += 1;
      if (key !== null) entry[3] = (entry[3] ?? 0) + costOf(key, input, output);
      expected.set(`${provider}/${service}`, entry);
    }
    const sort = (list: any[]) => [...list].sort((a, b) => `${a[0]}/${a[1]}`.localeCompare(`${b[0]}/${b[1]}`));
    expect(sort(rows)).toEqual(sort([...expected.values()].map((e) => [e[0], e[1], e[2], e[3] === null ? null : Number(e[3].toPrecision(12))])));
  });

  it('answers Model.usage for one catalog model', async () => {
    const { data, errors } = await server.graphql(
      `{ model(id: "claude-3-opus-20240229") { modelId usage(dataset: "spans", interval: "1d", startTime: "${window.startTime}", endTime: "${window.endTime}") { calls cost series { points { calls } } } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data.model.usage.calls).toBe(2);
    expect(data.model.usage.cost).toBeCloseTo(costOf('claude-3-opus-20240229', 1000, 200) + costOf('claude-3-opus-20240229', 3000, 50), 12);
  });

  it('refuses a malformed interval, and a dataset the caller cannot see', async () => {
    const bad = await server.graphql(`{ llmUsage(dataset: "spans", interval: "1h; drop") { calls } }`);
    expect(bad.errors?.[0]?.message).toMatch(/interval must be a duration/);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const missing = await server.graphql(`{ llmUsage(dataset: "nope") { calls } }`);
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
