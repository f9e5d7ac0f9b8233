// The MCP endpoint end to end with the SDK's own client: the tool list with its annotations and
// schemas, then every tool against data this file ingests over REST. Expected rows, counts and
// costs are computed here from the posted events and the test catalog's prices.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMetrics } from '../../helpers/docs/metrics-fixture';
import { callTool, mcpClient } from '../../helpers/mcp';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let client: Client;

const NOW = Date.now();
const STATUSES = [200, 200, 404, 500];
const URIS = ['/api/users', '/api/orders', '/api/cart'];
const WEB = Array.from({ length: 250 }, (_, i) => ({
  _time: new Date(NOW - 10_000 - i * 2_000).toISOString(),
  status: STATUSES[i % STATUSES.length]!,
  uri: URIS[i % URIS.length]!,
  duration: i % 50,
}));
const WIDE = Array.from({ length: 300 }, (_, i) => ({
  _time: new Date(NOW - 20_000 - i * 1_000).toISOString(),
  id: i,
  blob: `${'b'.repeat(5_000)}${i}`,
  ...Object.fromEntries(Array.from({ length: 8 }, (_, f) => [`f${f}`, String.fromCharCode(97 + f).repeat(190)])),
}));

const OPUS = 'claude-3-opus-20240229';
const MINI = 'openai/gpt-4o-mini';
const CALLS = Array.from({ length: 12 }, (_, i) => ({
  time: NOW - 30 * 60_000 - i * 60_000,
  model: i % 3 === 0 ? OPUS : MINI,
  service: i % 2 === 0 ? 'search' : 'chat',
  input: 1_000 + 37 * i,
  output: 200 + 11 * i,
}));
const catalog = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, { input_cost_per_token: number; output_cost_per_token: number; cache_read_input_token_cost?: number }>;
const costOf = (model: string, input: number, output: number) => input * catalog[model]!.input_cost_per_token + output * catalog[model]!.output_cost_per_token;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function ok(response: Promise<Response>) {
  const answer = await response;
  expect(answer.status, await answer.clone().text()).toBe(200);
  return answer.json() as Promise<any>;
}

let disabledMonitorId: string;

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['web', 'wide', 'genai']) await ok(post('/v2/datasets', { name, description: `${name} events` }));
  await ok(post('/v2/datasets/web/mapfields', { name: 'labels' }));
  await ok(post('/v2/vfields', { dataset: 'web', name: 'slow', expression: 'duration > 40', description: 'slower than 40 ms' }));
  await ok(post('/v1/datasets/web/ingest', WEB));
  await ok(post('/v1/datasets/wide/ingest', WIDE));
  await ok(
    post(
      '/v1/datasets/genai/ingest',
      CALLS.map((call) => ({
        _time: new Date(call.time).toISOString(),
        service: { name: call.service },
        attributes: { gen_ai: { operation: { name: 'chat' }, request: { model: call.model }, usage: { input_tokens: call.input, output_tokens: call.output } } },
      })),
    ),
  );
  await prepareMetrics(server);
  await ok(post('/v2/apl-starred-queries', { name: 'Web failures', dataset: 'web', query: { apl: "['web'] | where status >= 500" } }));
  await ok(post('/v2/apl-starred-queries', { name: 'Slow pages', dataset: 'web', query: { apl: "['web'] | top 5 by duration" } }));
  const monitor = await ok(
    post('/v2/monitors', { name: 'Web errors', type: 'Threshold', aplQuery: "['web'] | where status >= 500 | summarize count()", operator: 'Above', threshold: 1, intervalMinutes: 60, disabled: true }),
  );
  disabledMonitorId = monitor.id;
  const since = new Date(NOW - 5 * 60_000).toISOString();
  await server.app.services.store.prisma.monitorState.upsert({
    where: { monitorId: monitor.id },
    create: { monitorId: monitor.id, nextRunAt: new Date(NOW + 3_600_000), alerts: JSON.stringify({ '': { open: true, reason: 'threshold', recent: [true], groupKeys: null, groupValues: null, since } }) },
    update: { alerts: JSON.stringify({ '': { open: true, reason: 'threshold', recent: [true], groupKeys: null, groupValues: null, since } }) },
  });
  await server.app.services.store.prisma.monitorHistory.createMany({
    data: [
      { monitorId: monitor.id, checkId: 'check-1', name: 'Web errors', state: 'open', timestamp: new Date(NOW - 5 * 60_000) },
      { monitorId: monitor.id, checkId: 'check-0', name: 'Web errors', state: 'closed', timestamp: new Date(NOW - 50 * 60_000) },
    ],
  });
  client = await mcpClient(server, server.adminToken);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

const TOOLS = [
  'listDatasets',
  'getDatasetSchema',
  'queryApl',
  'validateApl',
  'aplReference',
  'getSavedQueries',
  'checkMonitors',
  'getMonitorHistory',
  'listMetrics',
  'listMetricTags',
  'getMetricTagValues',
  'queryMetrics',
  'searchModels',
  'getModelPrice',
  'estimateLlmCost',
  'getLlmUsage',
];

describe('MCP tools', () => {
  it('lists every tool as read-only, with input and output schemas and descriptions', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, openWorldHint: false, destructiveHint: false });
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    const instructions = client.getInstructions();
    expect(instructions).toContain('listDatasets');
  });

  it('lists datasets with their kind and describes a schema with a sample event', async () => {
    const listed = await callTool(client, 'listDatasets');
    expect(listed.isError).toBe(false);
    const byName = Object.fromEntries(listed.structured.datasets.map((d: any) => [d.name, d]));
    expect(Object.keys(byName).sort()).toEqual(['genai', 'otel-metrics', 'web', 'wide']);
    expect(byName.web).toMatchObject({ kind: 'events', description: 'web events' });
    expect(byName['otel-metrics'].kind).toBe('metrics');
    expect(listed.text.split('\n')[0]).toBe('name,kind,datasetKind,description');
    expect((await callTool(client, 'listDatasets', { prefix: 'w' })).structured.datasets.map((d: any) => d.name).sort()).toEqual(['web', 'wide']);

    const schema = await callTool(client, 'getDatasetSchema', { dataset: 'web', sample: true });
    expect(schema.isError).toBe(false);
    const fields = Object.fromEntries(schema.structured.fields.map((f: any) => [f.name, f.type]));
    expect(fields).toMatchObject({ status: expect.stringMatching(/integer/), uri: expect.stringMatching(/string/), duration: expect.stringMatching(/integer/) });
    expect(schema.structured.sample).toMatchObject({ uri: WEB[0]!.uri, status: WEB[0]!.status });
    expect(schema.structured.mapFields).toEqual(['labels']);
    expect(schema.structured.virtualFields).toEqual([{ name: 'slow', expression: 'duration > 40', type: '', unit: '', description: 'slower than 40 ms' }]);
    expect(schema.text).toContain('slow = duration > 40');
    const metrics = await callTool(client, 'getDatasetSchema', { dataset: 'otel-metrics' });
    expect(metrics.structured.kind).toBe('metrics');
    expect(metrics.structured.note).toContain('listMetrics');
  });

  it('runs APL: aggregates, truncation with the total and hints, and results kept under the size budget', async () => {
    const summary = await callTool(client, 'queryApl', { apl: "['web'] | summarize n = count() by status | order by status asc" });
    expect(summary.isError, summary.text).toBe(false);
    const expected = [...new Set(WEB.map((e) => e.status))].sort((a, b) => a - b).map((status) => [status, WEB.filter((e) => e.status === status).length]);
    expect(summary.structured.columns.map((c: any) => c.name)).toEqual(['status', 'n']);
    expect(summary.structured.rows).toEqual(expected);
    expect(summary.structured).toMatchObject({ truncated: false, totalRows: expected.length, returnedRows: expected.length });
    expect(summary.text.split('\n')[0]).toBe('status,n');

    const raw = await callTool(client, 'queryApl', { apl: "['web'] | project status, uri", maxRows: 10 });
    expect(raw.structured).toMatchObject({ returnedRows: 10, totalRows: WEB.length, truncated: true });
    expect(raw.structured.omitted.rows).toBe(WEB.length - 10);
    expect(raw.structured.hints.join(' ')).toMatch(/summarize/);
    // Newest first: the first rows are the first events posted (the newest).
    expect(raw.structured.rows[0]).toEqual([WEB[0]!.status, WEB[0]!.uri]);

    const long = await callTool(client, 'queryApl', { apl: "['wide'] | project id, blob | take 40", maxRows: 40 });
    expect(long.structured.truncated).toBe(true);
    expect(long.structured.omitted.cutValues).toBe(40);
    expect(long.structured.rows).toHaveLength(40);
    expect(String(long.structured.rows[0][1])).toMatch(/…\[cut: \d+ more characters\]$/);

    const wide = await callTool(client, 'queryApl', { apl: "['wide']", maxRows: 300, startTime: 'now-1h' });
    expect(wide.isError, wide.text).toBe(false);
    expect(wide.structured.omitted.columns.length).toBeGreaterThan(0);
    expect(wide.structured.columns.map((c: any) => c.name)).toContain('id');
    const bytes = Buffer.byteLength(JSON.stringify(wide.structured)) + Buffer.byteLength(wide.text);
    expect(bytes).toBeLessThan(80_000);
    expect(wide.structured.totalRows).toBe(WIDE.length);

    const bad = await callTool(client, 'queryApl', { apl: "['web'] | where nosuchfield > 1" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/nosuchfield/);
  });

  it('validates APL without running it, and looks words up in the reference', async () => {
    const valid = await callTool(client, 'validateApl', { apl: "['web'] | summarize count() by uri" });
    expect(valid.structured).toMatchObject({ valid: true, errors: [], datasets: ['web'] });
    expect(valid.structured.columns.map((c: any) => c.name)).toEqual(['uri', 'count_']);
    const invalid = await callTool(client, 'validateApl', { apl: "['web']\n| where status >" });
    expect(invalid.isError).toBe(false);
    expect(invalid.structured.valid).toBe(false);
    expect(invalid.structured.errors[0]).toMatchObject({ line: 2 });
    expect(typeof invalid.structured.errors[0].column).toBe('number');
    const missing = await callTool(client, 'validateApl', { apl: "['nope'] | count" });
    expect(missing.structured).toMatchObject({ valid: false, datasets: ['nope'] });

    const reference = await callTool(client, 'aplReference', { search: 'summarize' });
    expect(reference.structured.entries[0]).toMatchObject({ name: 'summarize', kind: 'tabular operator' });
    expect(reference.structured.entries[0].signature).toContain('summarize');
    // APL's substring takes a source, a start and an optional length.
    expect((await callTool(client, 'aplReference', { search: 'substring' })).structured.entries[0]).toMatchObject({ kind: 'scalar function', signature: 'substring(a, b[, c])' });
    const percentile = await callTool(client, 'aplReference', { search: 'percentile' });
    expect(percentile.structured.entries.some((e: any) => e.kind === 'aggregation' && e.name.startsWith('percentile'))).toBe(true);
  });

  it('lists saved queries, monitors with their open alerts, and a monitor history', async () => {
    const saved = await callTool(client, 'getSavedQueries', { dataset: 'web' });
    expect(saved.structured.queries.map((q: any) => [q.name, q.apl])).toEqual([
      ['Web failures', "['web'] | where status >= 500"],
      ['Slow pages', "['web'] | top 5 by duration"],
    ]);
    expect((await callTool(client, 'getSavedQueries', { limit: 1, offset: 1 })).structured.queries.map((q: any) => q.name)).toEqual(['Slow pages']);

    const open = await callTool(client, 'checkMonitors', { state: 'open' });
    expect(open.structured.monitors).toHaveLength(1);
    expect(open.structured.monitors[0]).toMatchObject({ id: disabledMonitorId, name: 'Web errors', state: 'open', datasets: ['web'], disabled: true });
    expect(open.structured.monitors[0].openAlerts).toHaveLength(1);
    expect((await callTool(client, 'checkMonitors', { state: 'closed' })).structured.monitors).toHaveLength(0);

    const history = await callTool(client, 'getMonitorHistory', { monitorId: disabledMonitorId, startTime: 'now-2h' });
    expect(history.structured.entries.map((e: any) => [e.checkId, e.state])).toEqual([
      ['check-0', 'closed'],
      ['check-1', 'open'],
    ]);
    const shorter = await callTool(client, 'getMonitorHistory', { monitorId: disabledMonitorId, startTime: 'now-10m' });
    expect(shorter.structured.entries.map((e: any) => e.checkId)).toEqual(['check-1']);
    const unknown = await callTool(client, 'getMonitorHistory', { monitorId: 'no-such-monitor' });
    expect(unknown.isError).toBe(true);
  });

  it('discovers and queries metrics', async () => {
    const metrics = await callTool(client, 'listMetrics', { dataset: 'otel-metrics' });
    expect(metrics.isError, metrics.text).toBe(false);
    expect(metrics.structured.metrics.map((m: any) => m.name).sort()).toEqual(['cpu', 'http.server.duration']);
    expect((await callTool(client, 'listMetrics', { dataset: 'otel-metrics', search: 'HTTP' })).structured.metrics.map((m: any) => m.name)).toEqual(['http.server.duration']);
    const tags = await callTool(client, 'listMetricTags', { dataset: 'otel-metrics', metric: 'http.server.duration' });
    expect(tags.structured.tags).toEqual(expect.arrayContaining(['http.route', 'http.status_code']));
    const values = await callTool(client, 'getMetricTagValues', { dataset: 'otel-metrics', tag: 'http.route' });
    expect([...values.structured.values].sort()).toEqual(['/api', '/pay']);
    expect((await callTool(client, 'getMetricTagValues', { dataset: 'otel-metrics', tag: 'http.route', search: 'PA' })).structured.values).toEqual(['/pay']);

    const series = await callTool(client, 'queryMetrics', { mpl: '`otel-metrics`:`cpu` | align to 5m using max', startTime: 'now-1h' });
    expect(series.isError, series.text).toBe(false);
    expect(series.structured.series).toHaveLength(1);
    expect(series.structured.series[0].data.filter((value: number | null) => value !== null)).toContain(0.25);
    expect(series.structured.truncated).toBe(false);
    // Two routes at one-second steps over an hour: 2 × 3,600 values, past the 5,000 an answer carries.
    const fine = await callTool(client, 'queryMetrics', { mpl: '`otel-metrics`:`http.server.duration` | align to 1s using max | group by `http.route` using max', startTime: 'now-1h' });
    expect(fine.isError, fine.text).toBe(false);
    expect(fine.structured).toMatchObject({ totalSeries: 2, omittedSeries: 1, truncated: true });
    expect(fine.structured.series).toHaveLength(1);
    const events = await callTool(client, 'queryMetrics', { mpl: '`web`:`cpu` | align to 5m using max' });
    expect(events.isError).toBe(true);
  });

  it('searches the catalog, resolves prices, estimates costs like genai_cost and sums LLM usage', async () => {
    const claude = await callTool(client, 'searchModels', { query: 'claude' });
    const fixtureClaude = Object.keys(catalog).filter((key) => key.includes('claude'));
    expect(claude.structured.total).toBe(fixtureClaude.length);
    for (const model of claude.structured.models) expect(`${model.id} ${model.name}`).toContain('claude');
    const opus = claude.structured.models.find((m: any) => m.id.includes('claude-3-opus'));
    expect(opus.inputPerMillion).toBeCloseTo(catalog[OPUS]!.input_cost_per_token * 1e6, 9);
    const paged = await callTool(client, 'searchModels', { provider: 'openai', limit: 2 });
    expect(paged.structured.models).toHaveLength(2);
    expect(paged.structured.models.every((m: any) => m.provider === 'openai')).toBe(true);
    const next = await callTool(client, 'searchModels', { provider: 'openai', limit: 2, cursor: paged.structured.nextCursor });
    expect(next.structured.models[0].id).not.toBe(paged.structured.models[0].id);

    const price = await callTool(client, 'getModelPrice', { model: MINI });
    expect(price.structured.modelId).toContain('gpt-4o-mini');
    expect(price.structured.price.inputPerMillion).toBeCloseTo(catalog[MINI]!.input_cost_per_token * 1e6, 9);
    expect(price.structured.price.outputPerMillion).toBeCloseTo(catalog[MINI]!.output_cost_per_token * 1e6, 9);
    expect(price.structured.history.length).toBeGreaterThan(0);
    const unknownModel = await callTool(client, 'getModelPrice', { model: 'no-such-model-xyz' });
    expect(unknownModel.structured).toMatchObject({ modelId: null, price: null });

    const estimate = await callTool(client, 'estimateLlmCost', { model: OPUS, inputTokens: 1_000, outputTokens: 200, cacheReadTokens: 300 });
    const prices = catalog[OPUS]!;
    const expectedCost = 200 * prices.output_cost_per_token + 700 * prices.input_cost_per_token + 300 * prices.cache_read_input_token_cost!;
    expect(estimate.structured.costUsd).toBeCloseTo(expectedCost, 12);
    expect((await callTool(client, 'estimateLlmCost', { model: MINI, inputTokens: 10, outputTokens: 5 })).structured.costUsd).toBeCloseTo(costOf(MINI, 10, 5), 12);

    const usage = await callTool(client, 'getLlmUsage', { dataset: 'genai', startTime: 'now-3h', groupBy: ['model'] });
    expect(usage.isError, usage.text).toBe(false);
    const expectedCalls = CALLS.length;
    const expectedTotal = CALLS.reduce((sum, call) => sum + costOf(call.model, call.input, call.output), 0);
    expect(usage.structured.calls).toBe(expectedCalls);
    expect(usage.structured.inputTokens).toBe(CALLS.reduce((sum, call) => sum + call.input, 0));
    expect(usage.structured.costUsd).toBeCloseTo(expectedTotal, 10);
    for (const model of [OPUS, MINI]) {
      const group = usage.structured.groups.find((g: any) => g.group.model === model);
      const calls = CALLS.filter((call) => call.model === model);
      expect(group.calls).toBe(calls.length);
      expect(group.costUsd).toBeCloseTo(calls.reduce((sum, call) => sum + costOf(model, call.input, call.output), 0), 10);
    }
  });

  it('prices a model at a time before and after a catalog change, with the history', async () => {
    // The mini model's prices change ten minutes ago (a sync dated then); every call above is older.
    const changedAt = Math.floor((NOW - 10 * 60_000) / 1000) * 1000; // syncs are dated to the second
    const changed = path.join(server.dataDir, 'catalog-changed.json');
    writeFileSync(changed, JSON.stringify({ ...catalog, [MINI]: { ...catalog[MINI], input_cost_per_token: 0.000001, output_cost_per_token: 0.000004 } }));
    await server.app.services.catalog.sync({ kind: 'litellm', source: changed }, { now: () => new Date(changedAt) });
    const deadline = Date.now() + 20_000;
    let now = await callTool(client, 'getModelPrice', { model: MINI });
    while (now.structured.price.inputPerMillion !== 1) {
      if (Date.now() > deadline) throw new Error('the new prices never reached the events database');
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await callTool(client, 'getModelPrice', { model: MINI });
    }
    expect(now.structured.price.outputPerMillion).toBeCloseTo(4, 9);
    const before = await callTool(client, 'getModelPrice', { model: MINI, at: new Date(changedAt - 60_000).toISOString() });
    expect(before.structured.price.inputPerMillion).toBeCloseTo(catalog[MINI]!.input_cost_per_token * 1e6, 9);
    expect(now.structured.history).toHaveLength(2);
    expect(now.structured.history[0].validTo).toBe(new Date(changedAt).toISOString());
    expect(now.structured.history[1]).toMatchObject({ validFrom: new Date(changedAt).toISOString(), validTo: null, inputPerMillion: 1 });
    const estimate = await callTool(client, 'estimateLlmCost', { model: MINI, inputTokens: 1_000, outputTokens: 1_000, at: new Date(changedAt - 60_000).toISOString() });
    expect(estimate.structured.costUsd).toBeCloseTo(costOf(MINI, 1_000, 1_000), 12);
  });
});
