// OTLP/HTTP metrics into a metrics dataset: the OpenTelemetry JS SDK's MeterProvider exporting
// through the protobuf exporter, unchanged (every instrument kind, cumulative and delta), then
// hand-built export requests for what the SDK does not send (summaries, refused points),
// compression, and the refusals (JSON, events datasets, unreadable bodies). Answers are read
// back through MPL and the discovery routes and compared with the values recorded here.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { compress, zstdReady } from '../../helpers/zstd';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, AggregationType, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, type MetricsServer, startMetricsServer } from '../../helpers/metrics/harness';

let server: MetricsServer;

// The wire messages, from the .proto files the server reads (to build requests the SDK cannot).
const root = new protobuf.Root();
for (const file of ['common.proto', 'metrics.proto', 'status.proto']) {
  protobuf.parse(readFileSync(new URL(`../../../src/shippers/otlp/proto/${file}`, import.meta.url), 'utf8'), root, { keepCase: false });
}
root.resolveAll();
const ExportRequest = root.lookupType('opentelemetry.proto.metrics.v1.ExportMetricsServiceRequest');
const ExportResponse = root.lookupType('opentelemetry.proto.metrics.v1.ExportMetricsServiceResponse');
const RpcStatus = root.lookupType('google.rpc.Status');

beforeAll(async () => {
  server = await startMetricsServer();
  for (const name of ['sdk-cumulative', 'sdk-delta', 'raw']) await createDataset(server, name);
  await createDataset(server, 'events', 'axiom:events:v1');
  await zstdReady();
});
afterAll(async () => {
  await server?.close();
});

const range = () => ({ startTime: new Date(Date.now() - 3_600_000).toISOString(), endTime: new Date(Date.now() + 120_000).toISOString() });
const infoRange = () => `start=${encodeURIComponent(range().startTime)}&end=${encodeURIComponent(range().endTime)}`;

function meterProvider(dataset: string, temporalityPreference: AggregationTemporality) {
  const exporter = new OTLPMetricExporter({
    url: `${server.url}/v1/metrics`,
    headers: { Authorization: `Bearer ${server.adminToken}`, 'X-Axiom-Metrics-Dataset': dataset },
    temporalityPreference,
  });
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'checkout', 'deployment.environment': 'test', 'process.pid': 4242 }),
    readers: [reader],
    views: [{ instrumentName: 'payload.size', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
  });
  return { provider, reader };
}

/** Records the same measurements on every instrument kind; returns what was recorded. */
async function recordAndExport(dataset: string, temporality: AggregationTemporality) {
  const { provider, reader } = meterProvider(dataset, temporality);
  const meter = provider.getMeter('orders', '1.2.3');
  const requests = meter.createCounter('http.requests', { unit: '{request}' });
  requests.add(3, { route: '/cart', code: 200 });
  requests.add(2, { route: '/cart', code: 500 });
  requests.add(5, { route: '/pay', code: 200, retried: true });
  const inflight = meter.createUpDownCounter('queue.inflight');
  inflight.add(7, { queue: 'a' });
  inflight.add(-2, { queue: 'a' });
  const latency = meter.createHistogram('http.duration', { unit: 'ms', advice: { explicitBucketBoundaries: [10, 50, 100] } });
  for (const value of [5, 20, 30, 70, 120]) latency.record(value, { route: '/cart' });
  const payload = meter.createHistogram('payload.size', { unit: 'By' });
  for (const value of [1, 2, 4, 8, 1000]) payload.record(value);
  meter.createObservableGauge('cpu.temp', { unit: 'Cel' }).addCallback((result) => {
    result.observe(41.5, { core: 0, throttled: false, zone: '' });
    result.observe(44, { core: 1, ratio: 0.5 });
  });
  await reader.forceFlush();
  await provider.shutdown();
}

const views = (answer: any) => Object.fromEntries(answer.series.map((s: any) => [s.tags['axiom.histogram'], s.data[0]]));

describe('the OpenTelemetry SDK exporting protobuf', () => {
  it('lands every instrument kind, with resource, scope and point attributes as typed tags', async () => {
    await recordAndExport('sdk-cumulative', AggregationTemporality.CUMULATIVE);
    const info = await server.request(`/v1/query/metrics/info/datasets/sdk-cumulative/metrics?${infoRange()}`);
    expect(await info.json()).toEqual({
      'http.requests': { type: 'CounterMonotonic', temporality: 'Cumulative', unit: '{request}' },
      'queue.inflight': { type: 'CounterNonMonotonic', temporality: 'Cumulative', unit: null },
      'http.duration': { type: 'Histogram', temporality: 'Cumulative', unit: 'ms' },
      'payload.size': { type: 'Histogram', temporality: 'Cumulative', unit: 'By' },
      'cpu.temp': { type: 'Gauge', temporality: null, unit: 'Cel' },
    });

    const counts = await server.mpl('`sdk-cumulative`:`http.requests` | align using last', range());
    expect(counts.series.map((s: any) => [s.tags.route, s.tags.code, s.data[0]]).sort()).toEqual([
      ['/cart', 200, 3],
      ['/cart', 500, 2],
      ['/pay', 200, 5],
    ]);
    expect(counts.series[0].tags).toMatchObject({ 'service.name': 'checkout', 'deployment.environment': 'test', 'process.pid': 4242 });
    // An integer attribute compares as an integer, a boolean as a boolean.
    expect((await server.mpl('`sdk-cumulative`:`http.requests` | where code >= 500 | align using last', range())).series.map((s: any) => s.data[0])).toEqual([2]);
    expect((await server.mpl('`sdk-cumulative`:`http.requests` | where retried == true | align using last', range())).series.map((s: any) => s.data[0])).toEqual([5]);
    expect((await server.mpl('`sdk-cumulative`:`http.requests` | where code == "200" | align using last', range())).series).toEqual([]);

    expect((await server.mpl('`sdk-cumulative`:`queue.inflight` | align using last', range())).series.map((s: any) => s.data[0])).toEqual([5]);
    const gauge = await server.mpl('`sdk-cumulative`:`cpu.temp` | where ratio == 0.5 | align using max', range());
    expect(gauge.series.map((s: any) => [s.tags.core, s.data[0]])).toEqual([[1, 44]]);
    // Attribute values equal to their type's zero are values too.
    const zeros = await server.mpl('`sdk-cumulative`:`cpu.temp` | where core == 0 and throttled == false and zone == "" | align using max', range());
    expect(zeros.series.map((s: any) => [s.tags.core, s.tags.throttled, s.tags.zone, s.data[0]])).toEqual([[0, false, '', 41.5]]);

    expect(views(await server.mpl('`sdk-cumulative`:`http.duration` | align using last', range()))).toEqual({ count: 5, sum: 245, min: 5, max: 120 });
    expect(views(await server.mpl('`sdk-cumulative`:`payload.size` | align using last', range()))).toEqual({ count: 5, sum: 1015, min: 1, max: 1000 });

    // The timestamp is the export's, truncated to the second.
    const [series] = (await server.mpl('`sdk-cumulative`:`cpu.temp` | where core == 0 | align to 1s using last', range())).series;
    const index = series.data.findIndex((value: number | null) => value !== null);
    expect(Math.abs(series.start + index - Date.now() / 1000)).toBeLessThan(60);
    expect(Number.isInteger(series.start + index)).toBe(true);
  });

  it('sends delta temporality when the exporter prefers it, and its histograms answer quantiles', async () => {
    await recordAndExport('sdk-delta', AggregationTemporality.DELTA);
    const info = (await (await server.request(`/v1/query/metrics/info/datasets/sdk-delta/metrics?${infoRange()}`)).json()) as any;
    expect(info).toMatchObject({
      'http.duration': { type: 'Histogram', temporality: 'Delta' },
      'http.requests': { type: 'CounterMonotonic', temporality: 'Delta' },
      'payload.size': { type: 'Histogram', temporality: 'Delta' },
    });
    const answer = await server.mpl('`sdk-delta`:`http.duration` | bucket using interpolate_delta_histogram(0.5, 0.9, count, max)', range());
    const bySpec = Object.fromEntries(answer.series.map((s: any) => [s.tags.spec, s.data[0]]));
    // Buckets (.., 10] (10, 50] (50, 100] (100, ..) hold 1, 2, 1, 1; the smallest value 5, the largest 120.
    // p50: 2.5 of 5 lies in (10, 50], which holds 2 after 1: 10 + 40 * 1.5 / 2 = 40.
    // p90: 4.5 of 5 lies in (100, 120], which holds 1 after 4: 100 + 20 * 0.5 = 110.
    expect(bySpec).toEqual({ p50: 40, p90: 110, count: 5, max: 120 });
    // The exponential histogram's buckets bound the values 1, 2, 4, 8 and 1000 with a relative
    // error of at most 2^(2^-scale) - 1; the median lies in the bucket of 4.
    const exponential = await server.mpl('`sdk-delta`:`payload.size` | bucket using interpolate_delta_histogram(0.5, count)', range());
    const spec = Object.fromEntries(exponential.series.map((s: any) => [s.tags.spec, s.data[0]]));
    expect(spec.count).toBe(5);
    expect(spec.p50).toBeGreaterThan(2);
    expect(spec.p50).toBeLessThanOrEqual(4.001);
  });
});

// -- hand-built requests --------------------------------------------------------------------

const NOW_NS = () => BigInt(Date.now()) * 1_000_000n;
const attr = (key: string, value: Record<string, unknown>) => ({ key, value });

function exportBody(metrics: Record<string, unknown>[], resource: Record<string, unknown>[] = []): Buffer {
  const message = ExportRequest.fromObject({ resourceMetrics: [{ resource: { attributes: resource }, scopeMetrics: [{ scope: { name: 'hand', attributes: [attr('scope.tag', { stringValue: 's' })] }, metrics }] }] });
  return Buffer.from(ExportRequest.encode(message).finish());
}

const post = (body: Buffer, headers: Record<string, string> = {}) =>
  server.request('/v1/metrics', {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf', 'x-axiom-metrics-dataset': 'raw', ...headers },
    body: new Uint8Array(body),
  });

describe('hand-built export requests', () => {
  it('stores summaries, nested attributes and a point attribute that overrides the resource', async () => {
    const time = NOW_NS().toString();
    const body = exportBody(
      [
        {
          name: 'rpc.time',
          unit: 'ms',
          summary: { dataPoints: [{ timeUnixNano: time, count: 10, sum: 42.5, quantileValues: [{ quantile: 0.99, value: 9 }, { quantile: 0.5, value: 3 }], attributes: [attr('host', { stringValue: 'point' })] }] },
        },
        {
          name: 'nested',
          gauge: {
            dataPoints: [
              {
                timeUnixNano: time,
                asInt: 7,
                attributes: [attr('http', { kvlistValue: { values: [attr('method', { stringValue: 'GET' }), attr('code', { intValue: 201 })] } }), attr('list', { arrayValue: { values: [{ intValue: 1 }, { stringValue: 'x' }] } })],
              },
            ],
          },
        },
      ],
      [attr('host', { stringValue: 'resource' }), attr('region', { stringValue: 'eu' })],
    );
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/x-protobuf/);
    expect(ExportResponse.toObject(ExportResponse.decode(new Uint8Array(await response.arrayBuffer())))).toEqual({});

    const summary = await server.mpl('raw:`rpc.time` | align using last', range());
    expect(Object.fromEntries(summary.series.map((s: any) => [`${s.tags['axiom.histogram']}${s.tags.quantile ?? ''}`, s.data[0]]))).toEqual({ count: 10, sum: 42.5, 'quantile0.5': 3, 'quantile0.99': 9 });
    expect(summary.series[0].tags).toMatchObject({ host: 'point', region: 'eu', 'scope.tag': 's' });
    const nested = await server.mpl('raw:nested | where `http.code` == 201 | align using last', range());
    expect(nested.series.map((s: any) => [s.tags['http.method'], s.tags.list, s.data[0]])).toEqual([['GET', '[1,"x"]', 7]]);
  });

  it('reports points it cannot store as partial success and stores the others', async () => {
    const time = NOW_NS().toString();
    const body = exportBody([
      { name: 'partial', gauge: { dataPoints: [{ timeUnixNano: time, asDouble: 1 }, { timeUnixNano: time, attributes: [attr('k', { stringValue: 'no value' })] }] } },
      { name: 'bad.histogram', histogram: { aggregationTemporality: 1, dataPoints: [{ timeUnixNano: time, count: 3, bucketCounts: [1, 2], explicitBounds: [1, 2] }] } },
      { name: 'no.value', gauge: { dataPoints: [{ timeUnixNano: time, asDouble: 5, flags: 1 }] } },
    ]);
    const response = await post(body);
    expect(response.status).toBe(200);
    const decoded = ExportResponse.toObject(ExportResponse.decode(new Uint8Array(await response.arrayBuffer())), { longs: Number }) as any;
    expect(decoded.partialSuccess.rejectedDataPoints).toBe(2);
    expect(decoded.partialSuccess.errorMessage).toMatch(/2 data points were not stored; the first: metric partial: a number point has neither asDouble nor asInt/);
    expect((await server.mpl('raw:partial | align using last', range())).series.map((s: any) => s.data[0])).toEqual([1]);
    // A point flagged as holding no value is skipped, not refused.
    expect((await server.mpl('raw:`no.value` | align using last', range())).series).toEqual([]);
  });

  it('reads gzip and zstd bodies', async () => {
    const body = (name: string) => exportBody([{ name, gauge: { dataPoints: [{ timeUnixNano: NOW_NS().toString(), asDouble: 2.5 }] } }]);
    expect((await post(gzipSync(body('zipped')), { 'content-encoding': 'gzip' })).status).toBe(200);
    expect((await post(Buffer.from(compress(body('zstded'), 3)), { 'content-encoding': 'zstd' })).status).toBe(200);
    for (const name of ['zipped', 'zstded']) expect((await server.mpl(`raw:${name} | align using last`, range())).series[0].data).toEqual([2.5]);
  });

  it('refuses JSON with 415, events datasets and unreadable bodies with 400, as google.rpc.Status', async () => {
    const json = await server.request('/v1/metrics', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-axiom-metrics-dataset': 'raw' },
      body: JSON.stringify({ resourceMetrics: [] }),
    });
    expect(json.status).toBe(415);
    expect(((await json.json()) as any).message).toMatch(/protobuf only/);

    const status = async (response: Response) => RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await response.arrayBuffer()))) as { code: number; message: string };
    const events = await post(exportBody([]), { 'x-axiom-metrics-dataset': 'events' });
    expect(events.status).toBe(400);
    expect((await status(events)).message).toMatch(/holds events/);
    const garbage = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]));
    expect(garbage.status).toBe(400);
    expect(await status(garbage)).toMatchObject({ code: 3 });
    const missing = await post(exportBody([]), { 'x-axiom-metrics-dataset': 'nope' });
    expect(missing.status).toBe(404);
    const anonymous = await server.request('/v1/metrics', { method: 'POST', auth: false, headers: { 'content-type': 'application/x-protobuf' }, body: new Uint8Array(exportBody([])) });
    expect(anonymous.status).toBe(401);
    // OTLP traces into a metrics dataset are refused the other way round.
    const traces = await server.request('/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json', 'x-axiom-dataset': 'raw' }, body: '{"resourceSpans":[]}' });
    expect(traces.status).toBe(400);
  });
});
