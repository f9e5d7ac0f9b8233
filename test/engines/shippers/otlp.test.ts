// OpenTelemetry: the OTel SDK with its OTLP/HTTP exporters (JSON and protobuf) for traces and
// logs, unchanged, against the server; events read back through APL with Axiom's field layout,
// types and exact times. Then hand-made OTLP/JSON, partial success, and the error answers.
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as LogsHttpExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as LogsProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as TraceHttpExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as TraceProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { compress, zstdReady } from '../../helpers/zstd';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apl, countOf, createDataset, createToken } from '../../helpers/shippers/helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'error' });
  for (const name of ['traces-json', 'traces-proto', 'logs-json', 'logs-proto', 'otlp-raw', 'otlp-bad']) await createDataset(server, name);
  token = await createToken(server, { '*': { ingest: ['create'] } });
  await zstdReady();
});
afterAll(() => server.close());

const exporterOptions = (signal: string, dataset: string) => ({
  url: `${server.url}/v1/${signal}`,
  headers: { Authorization: `Bearer ${token}`, 'X-Axiom-Dataset': dataset },
});

const resource = resourceFromAttributes({
  'service.name': 'checkout',
  'service.version': '1.4.2',
  'host.name': 'box-1',
  'telemetry.sdk.language': 'nodejs',
});

/** Two spans of one trace (a server root and a failing client child) and a span they link to. */
async function sendTrace(exporter: SpanExporter) {
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('shop-tracer', '0.1.0');
  const other = tracer.startSpan('elsewhere', { startTime: [1_700_000_000, 0] });
  other.end([1_700_000_000, 1]);
  const root = tracer.startSpan('GET /orders', {
    kind: SpanKind.SERVER,
    startTime: [1_700_000_000, 100_000_000],
    attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200, 'url.path': '/orders', 'my.custom.key': 'v1', 'retry.count': 3 },
  });
  root.addEvent('cache miss', { key: 'orders' }, [1_700_000_000, 150_000_000]);
  const child = tracer.startSpan(
    'SELECT orders',
    {
      kind: SpanKind.CLIENT,
      startTime: [1_700_000_000, 120_000_000],
      attributes: { 'db.system.name': 'postgresql', 'db.query.text': 'SELECT * FROM orders' },
      links: [{ context: other.spanContext(), attributes: { reason: 'retry' } }],
    },
    trace.setSpan(ROOT_CONTEXT, root),
  );
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'timeout' });
  child.end([1_700_000_000, 320_000_000]);
  root.setStatus({ code: SpanStatusCode.OK });
  root.end([1_700_000_000, 350_000_123]);
  await provider.forceFlush();
  await provider.shutdown();
  return { root: root.spanContext(), child: child.spanContext(), other: other.spanContext() };
}

async function expectTrace(dataset: string, ids: Awaited<ReturnType<typeof sendTrace>>) {
  const { types, rows } = await apl(server, `['${dataset}'] | sort by _time asc`);
  expect(rows.map((row) => row.name)).toEqual(['elsewhere', 'GET /orders', 'SELECT orders']);
  const [other, root, child] = rows as [Record<string, any>, Record<string, any>, Record<string, any>];
  expect(root).toMatchObject({
    _time: '2023-11-14T22:13:20.1Z',
    trace_id: ids.root.traceId,
    span_id: ids.root.spanId,
    parent_span_id: '',
    name: 'GET /orders',
    kind: 'server',
    // 350.000123 ms - 100 ms, as Go writes durations
    duration: '250.000123ms',
    error: false,
    'status.code': 'OK',
    'service.name': 'checkout',
    'telemetry.sdk.language': 'nodejs',
    'resource.service.version': '1.4.2',
    'resource.host.name': 'box-1',
    'scope.name': 'shop-tracer',
    'scope.version': '0.1.0',
    'attributes.http.request.method': 'GET',
    'attributes.http.response.status_code': 200,
    'attributes.url.path': '/orders',
    events: [{ name: 'cache miss', timestamp: '2023-11-14T22:13:20.15Z', attributes: { key: 'orders' } }],
  });
  expect(root.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(root.span_id).toMatch(/^[0-9a-f]{16}$/);
  expect(child).toMatchObject({
    _time: '2023-11-14T22:13:20.12Z',
    trace_id: ids.root.traceId,
    parent_span_id: ids.root.spanId,
    kind: 'client',
    duration: '200ms',
    error: true,
    'status.code': 'ERROR',
    'status.message': 'timeout',
    'attributes.db.system.name': 'postgresql',
    links: [{ trace_id: ids.other.traceId, span_id: ids.other.spanId, attributes: { reason: 'retry' } }],
  });
  expect(other).toMatchObject({ kind: 'internal', duration: '1ns', parent_span_id: '' });
  expect(other).not.toHaveProperty('status.code');
  // Attributes outside the semantic conventions go to the attributes.custom map, whole.
  expect(root['attributes.custom']).toEqual({ 'my.custom.key': 'v1', 'retry.count': 3 });
  expect(Object.keys(root).filter((name) => name.startsWith('attributes.')).sort()).toEqual([
    'attributes.custom',
    'attributes.http.request.method',
    'attributes.http.response.status_code',
    'attributes.url.path',
  ]);
  expect(types).toMatchObject({
    _time: 'datetime',
    trace_id: 'string',
    kind: 'string',
    duration: 'timespan',
    error: 'boolean',
    'attributes.http.response.status_code': 'integer',
    events: 'array',
    links: 'array',
  });

  // duration is a timespan: compared with timespan literals, divided into seconds.
  const slow = await apl(server, `['${dataset}'] | where duration > 100ms | project name, seconds = duration / 1s | sort by name asc`);
  expect(slow.rows).toEqual([
    { name: 'GET /orders', seconds: 0.250000123 },
    { name: 'SELECT orders', seconds: 0.2 },
  ]);
  // Custom attributes are read from the map by their full names.
  const custom = await apl(server, `['${dataset}'] | where ['attributes.custom']['my.custom.key'] == 'v1' | project name, retries = ['attributes.custom']['retry.count']`);
  expect(custom.rows).toEqual([{ name: 'GET /orders', retries: 3 }]);
  // The dataset has the map field declared, as the API lists it.
  const mapFields = await server.request(`/v2/datasets/${dataset}/mapfields`);
  expect(await mapFields.json()).toEqual(['attributes.custom']);
}

describe('OTel SDK traces', () => {
  it('exports through @opentelemetry/exporter-trace-otlp-http (JSON)', async () => {
    const ids = await sendTrace(new TraceHttpExporter(exporterOptions('traces', 'traces-json')));
    await expectTrace('traces-json', ids);
  });

  it('exports through @opentelemetry/exporter-trace-otlp-proto (protobuf, gzip)', async () => {
    const ids = await sendTrace(new TraceProtoExporter({ ...exporterOptions('traces', 'traces-proto'), compression: 'gzip' as never }));
    await expectTrace('traces-proto', ids);
  });
});

async function sendLogs(exporter: ConstructorParameters<typeof SimpleLogRecordProcessor>[0]['exporter']) {
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  const logger = provider.getLogger('shop-logger', '2.0.0');
  const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
  logger.emit({
    timestamp: [1_700_000_001, 5],
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    body: 'payment declined',
    attributes: { 'exception.type': 'CardError', 'order.id': 'o-1' },
    context: trace.setSpanContext(ROOT_CONTEXT, spanContext),
  });
  logger.emit({ timestamp: [1_700_000_002, 0], severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: { event: 'shipped', items: 3 } });
  await provider.forceFlush();
  await provider.shutdown();
  return spanContext;
}

async function expectLogs(dataset: string, spanContext: { traceId: string; spanId: string }) {
  const { types, rows } = await apl(server, `['${dataset}'] | sort by _time asc`);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({
    _time: '2023-11-14T22:13:21.000000005Z',
    body: 'payment declined',
    severity_text: 'ERROR',
    severity_number: 17,
    trace_id: spanContext.traceId,
    span_id: spanContext.spanId,
    'service.name': 'checkout',
    'resource.host.name': 'box-1',
    'scope.name': 'shop-logger',
    'scope.version': '2.0.0',
    'attributes.exception.type': 'CardError',
    'attributes.custom': { 'order.id': 'o-1' },
  });
  expect(rows[1]).toMatchObject({ _time: '2023-11-14T22:13:22Z', 'body.event': 'shipped', 'body.items': 3, severity_number: 9 });
  expect(rows[1]).not.toHaveProperty('trace_id');
  expect(types).toMatchObject({ severity_number: 'integer', severity_text: 'string', body: 'string' });
}

describe('OTel SDK logs', () => {
  it('exports through @opentelemetry/exporter-logs-otlp-http (JSON)', async () => {
    await expectLogs('logs-json', await sendLogs(new LogsHttpExporter(exporterOptions('logs', 'logs-json'))));
  });

  it('exports through @opentelemetry/exporter-logs-otlp-proto (protobuf)', async () => {
    await expectLogs('logs-proto', await sendLogs(new LogsProtoExporter(exporterOptions('logs', 'logs-proto'))));
  });
});

function post(path: string, body: string | Buffer, headers: Record<string, string>) {
  return server.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-axiom-dataset': 'otlp-raw', ...headers },
    body: body as BodyInit,
    auth: false,
  });
}

/** The response and status messages, decoded with a schema written here from the OTLP layout. */
const answers = protobuf.parse(`
  syntax = "proto3";
  message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
  message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }
  message Status { int32 code = 1; string message = 2; }
`).root;

describe('OTLP/JSON by hand', () => {
  const span = (overrides: Record<string, unknown>) => ({
    traceId: '5B8EFFF798038103D269B633813FC60C',
    spanId: 'EEE19B7EC3C1B174',
    name: 'hand-made',
    kind: 2,
    startTimeUnixNano: '1544712660000000000',
    endTimeUnixNano: '1544712661000000001',
    ...overrides,
  });

  it('reads hex ids, decimal-text times, snake_case names, every AnyValue kind, and zstd', async () => {
    const body = {
      resource_spans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'hand' } }] },
          scope_spans: [
            {
              scope: { name: 'manual' },
              spans: [
                span({
                  attributes: [
                    { key: 'text', value: { stringValue: 'x' } },
                    { key: 'flag', value: { boolValue: true } },
                    { key: 'big', value: { intValue: '9007199254740993' } },
                    { key: 'small', value: { int_value: 7 } },
                    { key: 'ratio', value: { doubleValue: 0.25 } },
                    { key: 'list', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '2' }] } } },
                    { key: 'map', value: { kvlistValue: { values: [{ key: 'inner', value: { stringValue: 'y' } }] } } },
                    { key: 'raw', value: { bytesValue: 'AQID' } },
                  ],
                  status: { code: 2, message: 'bad' },
                }),
              ],
            },
          ],
        },
      ],
    };
    const response = await post('/v1/traces', Buffer.from(compress(Buffer.from(JSON.stringify(body)), 3)), { 'content-type': 'application/json', 'content-encoding': 'zstd' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({});
    const { rows } = await apl(server, `['otlp-raw'] | where name == "hand-made"`);
    expect(rows[0]).toMatchObject({
      _time: '2018-12-13T14:51:00Z',
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      kind: 'server',
      duration: '1.000000001s',
      error: true,
      'service.name': 'hand',
      'scope.name': 'manual',
      'attributes.custom': { text: 'x', flag: true, big: '9007199254740993', small: 7, ratio: 0.25, list: ['a', 2], map: { inner: 'y' }, raw: 'AQID' },
    });
  });

  it('reports spans that cannot be stored as partial success, in the request encoding', async () => {
    const before = await countOf(server, 'otlp-raw');
    const body = { resourceSpans: [{ scopeSpans: [{ spans: [span({ name: 'fine' }), span({ name: 'far future', startTimeUnixNano: '18446744073709551615' })] }] }] };
    const json = await post('/v1/traces', JSON.stringify(body), { 'content-type': 'application/json' });
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringMatching(/^1 spans were not stored; the first \(item 1\): invalid _time/) } });
    expect(await countOf(server, 'otlp-raw')).toBe(before + 1);
  });
});

describe('bad input', () => {
  const Status = answers.lookupType('Status');

  it('refuses malformed protobuf and JSON with 400 and a google.rpc.Status in the request encoding', async () => {
    const proto = await post('/v1/traces', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), { 'content-type': 'application/x-protobuf', 'x-axiom-dataset': 'otlp-bad' });
    expect(proto.status).toBe(400);
    expect(proto.headers.get('content-type')).toMatch(/^application\/x-protobuf/);
    const status = Status.toObject(Status.decode(new Uint8Array(await proto.arrayBuffer()))) as { code: number; message: string };
    expect(status.code).toBe(3);
    expect(status.message).toMatch(/not a valid OTLP ExportTraceServiceRequest protobuf message/);
    for (const body of ['{"resourceSpans": [', '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}', '{"resourceLogs": 5}']) {
      const json = await post(body.includes('Logs') ? '/v1/logs' : '/v1/traces', body, { 'content-type': 'application/json', 'x-axiom-dataset': 'otlp-bad' });
      expect(json.status, body).toBe(400);
      expect(await json.json()).toMatchObject({ code: 3, message: expect.any(String) });
    }
    const gzip = await post('/v1/logs', Buffer.from('not gzip'), { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-axiom-dataset': 'otlp-bad' });
    expect(gzip.status).toBe(400);
    expect((await post('/v1/traces', '{}', { 'content-type': 'text/plain', 'x-axiom-dataset': 'otlp-bad' })).status).toBe(415);
    expect(await countOf(server, 'otlp-bad')).toBe(0);
  });

  it('answers 401, 403 and 404 as Status messages, storing nothing', async () => {
    const body = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'x' } }] }] }] });
    const missing = await post('/v1/logs', body, { 'content-type': 'application/json', authorization: '', 'x-axiom-dataset': 'otlp-bad' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 16 });
    const reader = await createToken(server, { 'otlp-bad': { query: ['read'] } });
    const forbidden = await post('/v1/logs', body, { 'content-type': 'application/json', authorization: `Bearer ${reader}`, 'x-axiom-dataset': 'otlp-bad' });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: 7 });
    const unknown = await post('/v1/logs', gzipSync(body), { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-axiom-dataset': 'nope' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 5 });
    expect(await countOf(server, 'otlp-bad')).toBe(0);
  });
});
