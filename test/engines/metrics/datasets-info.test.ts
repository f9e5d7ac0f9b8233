// Metrics datasets through HTTP: their kind on every dataset route, the refusal of event reads
// and writes, the discovery routes over a time range, trim, vacuum and deletion, GraphQL's
// metrics field, the official SDK with an edge URL, and the public language description.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AxiomWithoutBatching } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricDescriptor } from '../../../src/metrics/model';
import { END, type FixtureSeries, START, T0 } from '../../helpers/metrics/fixture';
import { startTestServer } from '../../helpers/server';
import { createDataset, type MetricsServer, metricsTablesLeft, startMetricsServer } from '../../helpers/metrics/harness';

let server: MetricsServer;

const descriptor = (name: string, type: MetricDescriptor['type'], extra: Partial<MetricDescriptor> = {}): MetricDescriptor => ({
  name,
  type,
  temporality: null,
  monotonic: null,
  unit: '',
  ...extra,
});

const distribution = { count: 3, sum: 1.5, min: 0.2, max: 0.9, bounds: [0.5], counts: [2, 1], quantiles: null, quantileValues: null };

/** Inside the range: T0 .. T0 + 30m; the `old` metric lies a day before it. */
const written: FixtureSeries[] = [
  { metric: descriptor('cpu', 'gauge', { unit: '%' }), tags: { host: 'a', code: 200, 'service.name': 'api' }, points: [[T0 + 10, 1]] },
  { metric: descriptor('cpu', 'gauge', { unit: '%' }), tags: { host: 'b', code: 500, up: true }, points: [[T0 + 20, 2]] },
  { metric: descriptor('cpu', 'gauge', { unit: '%' }), tags: { host: 'frontend', ratio: 0.5 }, floats: ['ratio'], points: [[T0 + 30, 3]] },
  { metric: descriptor('requests', 'sum', { temporality: 'cumulative', monotonic: true, unit: '{request}' }), tags: { host: 'a', code: '200' }, points: [[T0, 5]] },
  { metric: descriptor('inflight', 'sum', { temporality: 'delta', monotonic: false }), tags: { host: 'frontend' }, points: [[T0, 1]] },
  { metric: descriptor('latency', 'histogram', { temporality: 'delta', unit: 's' }), tags: { service: 'frontend' }, points: [], distributions: [[T0, distribution]] },
  {
    metric: descriptor('rpc', 'summary', { unit: 'ms' }),
    tags: { service: 'api' },
    points: [],
    distributions: [[T0, { ...distribution, bounds: null, counts: null, quantiles: [0.5], quantileValues: [3] }]],
  },
  { metric: descriptor('mixed', 'gauge'), tags: { kind: 'g' }, points: [[T0, 1]] },
  { metric: descriptor('mixed', 'sum', { temporality: 'cumulative', monotonic: true }), tags: { kind: 's' }, points: [[T0, 1]] },
  { metric: descriptor('old', 'gauge'), tags: { stale: 'yes' }, points: [[T0 - 86_400, 1]] },
  { metric: descriptor('edges', 'gauge'), tags: { bound: Infinity, low: -Infinity }, floats: ['bound', 'low'], points: [[T0, 1]] },
];

beforeAll(async () => {
  server = await startMetricsServer();
  await createDataset(server, 'otel-metrics');
  await server.write('otel-metrics', written);
  await createDataset(server, 'events', 'axiom:events:v1');
});

afterAll(async () => {
  await server?.close();
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await server.request(path, { headers });
  return { status: response.status, body: (await response.json()) as any };
};
const range = `start=${encodeURIComponent(START)}&end=${encodeURIComponent(END)}`;
const info = '/v1/query/metrics/info/datasets/otel-metrics';

describe('metrics datasets', () => {
  it('are created with v1 and v2, and report their kind everywhere', async () => {
    const v1 = await server.request('/v1/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'm-v1', kind: 'otel:metrics:v1' }) });
    expect(v1.status).toBe(200);
    expect(((await v1.json()) as any).kind).toBe('otel:metrics:v1');
    expect((await get('/v2/datasets/m-v1')).body.kind).toBe('otel:metrics:v1');
    expect((await get('/v1/datasets/otel-metrics')).body.kind).toBe('otel:metrics:v1');
    const list = (await get('/v1/datasets')).body as any[];
    expect(Object.fromEntries(list.map((d) => [d.name, d.kind]))).toMatchObject({ 'otel-metrics': 'otel:metrics:v1', events: 'axiom:events:v1' });
    const graphql = await server.graphql('{ dataset(name: "otel-metrics") { kind } }');
    expect(graphql.data?.dataset.kind).toBe('otel:metrics:v1');
  });

  it('refuse event ingest with a clear 400, on every ingest path', async () => {
    for (const path of ['/v1/datasets/otel-metrics/ingest', '/v1/ingest/otel-metrics', '/api/v1/ingest?dataset=otel-metrics']) {
      const response = await server.request(path, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: '{"a":1}\n' });
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as any).message).toMatch(/metrics dataset \(otel:metrics:v1\).*\/v1\/metrics/);
    }
    const mutation = await server.graphql('mutation { ingest(dataset: "otel-metrics", events: [{a: 1}]) { ingested } }');
    expect(mutation.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuse APL queries with a clear 400', async () => {
    const response = await server.request('/v1/datasets/_apl?format=tabular', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apl: "['otel-metrics'] | count" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).message).toMatch(/query them with MPL/);
  });
});

describe('discovery routes', () => {
  it('list metrics with points in the range: type, temporality and unit', async () => {
    const { status, body } = await get(`${info}/metrics?${range}`, { accept: 'application/vnd.metrics-info.v2+json' });
    expect(status).toBe(200);
    expect(body).toEqual({
      cpu: { type: 'Gauge', temporality: null, unit: '%' },
      requests: { type: 'CounterMonotonic', temporality: 'Cumulative', unit: '{request}' },
      inflight: { type: 'CounterNonMonotonic', temporality: 'Delta', unit: null },
      latency: { type: 'Histogram', temporality: 'Delta', unit: 's' },
      rpc: { type: 'Summary', temporality: null, unit: 'ms' },
      mixed: { type: 'Mixed', temporality: 'Cumulative', unit: null },
      edges: { type: 'Gauge', temporality: null, unit: null },
    });
    expect((await get(`${info}/metrics?${range}`)).body).toEqual(body);
    const wider = (await get(`${info}/metrics?start=${encodeURIComponent(new Date((T0 - 90_000) * 1000).toISOString())}&end=${encodeURIComponent(END)}`)).body;
    expect(Object.keys(wider)).toContain('old');
  });

  it("list a dataset's tags and a tag's typed values", async () => {
    expect((await get(`${info}/tags?${range}`)).body).toEqual(['bound', 'code', 'host', 'kind', 'low', 'ratio', 'service', 'service.name', 'up']);
    expect((await get(`${info}/tags/bound/values?${range}`)).body).toEqual(['+Inf']);
    expect((await get(`${info}/tags/code/values?${range}`)).body).toEqual([200, 500, '200']);
    expect((await get(`${info}/tags/ratio/values?${range}`)).body).toEqual([0.5]);
    expect((await get(`${info}/tags/up/values?${range}`)).body).toEqual([true]);
    expect((await get(`${info}/tags/stale/values?${range}`)).body).toEqual([]);
  });

  it("list a metric's tags and their values", async () => {
    expect((await get(`${info}/metrics/cpu/tags?${range}`)).body).toEqual(['code', 'host', 'ratio', 'service.name', 'up']);
    expect((await get(`${info}/metrics/cpu/tags/host/values?${range}`)).body).toEqual(['a', 'b', 'frontend']);
    expect((await get(`${info}/metrics/requests/tags/code/values?${range}`)).body).toEqual(['200']);
    expect((await get(`${info}/metrics/${encodeURIComponent('cpu')}/tags/${encodeURIComponent('service.name')}/values?${range}`)).body).toEqual(['api']);
  });

  it('find the metrics having a tag with a value', async () => {
    const find = async (value: unknown, accept?: string) => {
      const response = await server.request(`${info}/metrics?${range}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
        body: JSON.stringify({ value }),
      });
      expect(response.status).toBe(200);
      return response.json();
    };
    expect(await find('frontend')).toEqual(['cpu', 'inflight', 'latency']);
    expect(await find('frontend', 'application/vnd.metrics-info.v2+json')).toEqual({ cpu: ['host'], inflight: ['host'], latency: ['service'] });
    expect(await find('200', 'application/vnd.metrics-info.v2+json')).toEqual({ cpu: ['code'], requests: ['code'] });
    expect(await find(0.5)).toEqual(['cpu']);
    expect(await find('nobody')).toEqual([]);
    // Infinite tag values answer as text, in queries too.
    const answer = (await server.mpl('`otel-metrics`:edges | align to 30m using max')) as any;
    expect(answer.series[0].tags).toEqual({ bound: '+Inf', low: '-Inf' });
  });

  it('answer 400 without a range, 404 for unknown datasets, metrics and tags, 400 for events datasets', async () => {
    expect((await get(`${info}/metrics`)).status).toBe(400);
    expect((await get(`${info}/tags?start=${encodeURIComponent(START)}`)).status).toBe(400);
    expect((await get(`${info}/tags?start=soon&end=later`)).status).toBe(400);
    expect((await get(`/v1/query/metrics/info/datasets/missing/metrics?${range}`)).status).toBe(404);
    expect((await get(`${info}/metrics/nope/tags?${range}`)).status).toBe(404);
    expect((await get(`${info}/tags/nope/values?${range}`)).status).toBe(404);
    expect((await get(`${info}/metrics/cpu/tags/kind/values?${range}`)).status).toBe(404);
    expect((await get(`/v1/query/metrics/info/datasets/events/metrics?${range}`)).status).toBe(400);
    const unauthenticated = await server.request(`${info}/metrics?${range}`, { auth: false });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('the official SDK with an edge URL', () => {
  it('runs MPL through /v1/query/_mpl and reads the discovery routes', async () => {
    const client = new AxiomWithoutBatching({ token: server.adminToken, edgeUrl: server.url });
    const answer = (await client.query('`otel-metrics`:cpu | align to 30m using sum | group by host using sum', {
      type: 'mpl',
      startTime: START,
      endTime: END,
    })) as any;
    expect(answer.series.map((s: any) => [s.tags.host, s.data[0]]).sort()).toEqual([
      ['a', 1],
      ['b', 2],
      ['frontend', 3],
    ]);
    expect(answer.metadata.group_keys).toEqual(['host']);
    const options = { start: START, end: END, edgeUrl: server.url };
    expect(Object.keys(await client.datasets.metrics('otel-metrics', options))).toContain('latency');
    expect(await client.datasets.metricTags('otel-metrics', 'cpu', options)).toContain('host');
    expect(await client.datasets.metricTagValues('otel-metrics', 'cpu', 'code', options)).toEqual([200, 500]);
    expect(await client.datasets.metricDatasetTags('otel-metrics', options)).toContain('service');
    expect(await client.datasets.metricDatasetTagValues('otel-metrics', 'service', options)).toEqual(['api', 'frontend']);
  });
});

describe('POST /v1/query/batch', () => {
  it('runs mplRequest entries beside aplRequest ones, each answer its own event', async () => {
    const response = await server.request('/v1/query/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { queryId: 'cpu', mplRequest: { mpl: '`otel-metrics`:cpu | align to 30m using sum | group using sum', startTime: START, endTime: END } },
        { queryId: 'typo', mplRequest: { mpl: '`otel-metrics`:cpu | algn to 5m using avg', startTime: START, endTime: END } },
        { queryId: 'events', aplRequest: { apl: "['events'] | count" } },
      ]),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split('\n\n')
      .filter((chunk) => chunk.startsWith('data: '))
      .map((chunk) => JSON.parse(chunk.slice(6)));
    const byId = Object.fromEntries(events.map((event) => [event.queryId, event]));
    expect(byId.cpu).toMatchObject({ kind: 'mpl', data: { metadata: { group_keys: [] }, series: [{ metric: 'cpu', tags: {}, start: T0, resolution: 1800, data: [6] }] } });
    expect(byId.typo).toMatchObject({ kind: 'mpl', error: { code: 400, message: expect.stringMatching(/line 1, column 22/) } });
    expect(byId.events).toMatchObject({ kind: 'apl', data: { format: 'tabular' } });
  });
});

describe('GraphQL', () => {
  it('runs MPL with metrics(dataset, mpl, startTime, endTime)', async () => {
    const result = await server.graphql(
      `query($mpl: String!, $start: String, $end: String) {
        metrics(dataset: "otel-metrics", mpl: $mpl, startTime: $start, endTime: $end) {
          metadata { groupKeys unit customUnit ignoreUnit warnings }
          series { metric tags start startTime resolution data summary }
        }
      }`,
      { mpl: 'set custom_unit = "pct"; `otel-metrics`:cpu | where host == "b" | align to 30m using max', start: START, end: END },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.metrics).toEqual({
      metadata: { groupKeys: [], unit: '%', customUnit: 'pct', ignoreUnit: false, warnings: [] },
      series: [{ metric: 'cpu', tags: { host: 'b', code: 500, up: true }, start: T0, startTime: new Date(T0 * 1000).toISOString(), resolution: 1800, data: [2], summary: 2 }],
    });
    const wrong = await server.graphql('{ metrics(dataset: "events", mpl: "events:cpu", startTime: "now-1h", endTime: "now") { series { metric } } }');
    expect(wrong.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const elsewhere = await server.graphql('{ metrics(dataset: "m-v1", mpl: "`otel-metrics`:cpu", startTime: "now-1h", endTime: "now") { series { metric } } }');
    expect(elsewhere.errors?.[0]?.message).toMatch(/reads dataset "otel-metrics", not "m-v1"/);
  });
});

describe('OPTIONS /v1/query/_mpl', () => {
  it('describes the language without a token', async () => {
    const response = await fetch(`${server.url}/v1/query/_mpl`, { method: 'OPTIONS' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await response.text();
    for (const word of ['align', 'group', 'bucket', 'compute', 'prom::rate', 'fill::prev', 'interpolate_cumulative_histogram', 'param', 'custom_unit']) {
      expect(text).toContain(word);
    }
  });
});

describe('retention', () => {
  it('sweeps points older than the retention period of a metrics dataset', async () => {
    const response = await server.request('/v2/datasets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept-a-day', kind: 'otel:metrics:v1', retentionDays: 1, useRetentionPeriod: true }),
    });
    expect(response.status).toBe(200);
    await server.write('kept-a-day', [{ metric: descriptor('g', 'gauge'), tags: { k: 'v' }, points: [[T0 - 3 * 86_400, 1], [T0, 2]] }]);
    const deleted = await server.app.services.retention.sweep();
    expect(deleted['kept-a-day']).toBe(1);
  });
});

describe('trim, vacuum and delete', () => {
  it('trims old points, vacuums empty series and drops the tables with the dataset', async () => {
    await createDataset(server, 'short-lived');
    await server.write('short-lived', [
      { metric: descriptor('g', 'gauge'), tags: { age: 'old' }, points: [[T0 - 10 * 86_400, 1]] },
      { metric: descriptor('g', 'gauge'), tags: { age: 'new' }, points: [[T0, 2]] },
    ]);
    const trim = await server.request('/v1/datasets/short-lived/trim', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ maxDuration: '120h' }) });
    expect(((await trim.json()) as any).numDeleted).toBe(1);
    const vacuum = await server.request('/v2/datasets/short-lived/vacuum', { method: 'POST' });
    expect(vacuum.status).toBe(200);
    const store = server.app.services.metrics.store;
    const table = (await server.app.services.datasets.resolveFor(await server.principal(), 'short-lived', 'query', 'read')).tableName;
    expect((await store.metricsOf(table)).get('g')?.series).toBe(1);
    expect(await metricsTablesLeft(server, table)).toBe(3);
    expect((await server.request('/v2/datasets/short-lived', { method: 'DELETE' })).status).toBe(204);
    expect(store.hasDataset(table)).toBe(false);
    expect(await metricsTablesLeft(server, table)).toBe(0);
  });
});

describe('a restart', () => {
  it('creates no events table for a metrics dataset, and keeps its metrics', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-metrics-restart-'));
    const first = await startMetricsServer({ dataDir });
    await createDataset(first, 'after-restart');
    await first.write('after-restart', [{ metric: descriptor('g', 'gauge'), tags: { host: 'a' }, points: [[T0, 1]] }]);
    await createDataset(first, 'events-beside', 'axiom:events:v1');
    const tableOf = async (server: MetricsServer, name: string) => (await server.app.services.datasets.resolveFor(await server.principal(), name, 'query', 'read')).tableName;
    const metricsTable = await tableOf(first, 'after-restart');
    const eventsTable = await tableOf(first, 'events-beside');
    await first.close();
    const restarted = await startTestServer(first.env, { dataDir });
    try {
      // The events dataset's table is there (created with it, or again at start); the metrics one has none.
      expect(restarted.app.services.eventStore.hasTable(eventsTable)).toBe(true);
      expect(restarted.app.services.eventStore.hasTable(metricsTable)).toBe(false);
      expect(await metricsTablesLeft(restarted, metricsTable)).toBe(3);
    } finally {
      await restarted.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
