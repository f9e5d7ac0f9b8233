// Request bodies for the shipper benchmark, built from the ingest benchmark's events: Elasticsearch
// bulk NDJSON with the same documents, and HTTP server spans both as OTLP protobuf exports and as
// NDJSON of the events those spans are stored as (the native path carrying the same events).
import { loadProtoRoot } from '../src/shippers/protobuf';
import { BENCH_START_MS, type BenchEvent } from './ingest-events';

export function bulkBatches(events: BenchEvent[], batchSize: number): Buffer[] {
  const bodies: Buffer[] = [];
  for (let offset = 0; offset < events.length; offset += batchSize) {
    const lines: string[] = [];
    for (const { _time, ...rest } of events.slice(offset, offset + batchSize)) {
      lines.push('{"create":{"_index":"logs"}}', JSON.stringify({ '@timestamp': _time, ...rest }));
    }
    bodies.push(Buffer.from(`${lines.join('\n')}\n`));
  }
  return bodies;
}

const otlp = loadProtoRoot(new URL('../src/shippers/otlp/proto/', import.meta.url), ['common.proto', 'trace.proto']);
const ExportTraceServiceRequest = otlp.lookupType('opentelemetry.proto.trace.v1.ExportTraceServiceRequest');

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const integer = (key: string, value: number) => ({ key, value: { intValue: value } });

/** An HTTP server span made from a benchmark event. */
export interface BenchSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  start: bigint;
  end: bigint;
  method: string;
  path: string;
  status: number;
  host: string;
  client: string;
  user: string;
}

const RESOURCE: [string, string][] = [
  ['service.name', 'checkout'],
  ['service.version', '1.4.2'],
  ['host.name', 'web-1'],
  ['telemetry.sdk.language', 'nodejs'],
  ['telemetry.sdk.name', 'opentelemetry'],
  ['telemetry.sdk.version', '2.12.1'],
];
const SCOPE = { name: '@opentelemetry/instrumentation-http', version: '0.223.1' };

export function makeSpans(events: BenchEvent[]): BenchSpan[] {
  return events.map((event, i) => {
    const start = BigInt(BENCH_START_MS + i * 37) * 1_000_000n;
    return {
      traceId: event.traceId.padStart(32, '0'),
      spanId: (i + 1).toString(16).padStart(16, '0'),
      parentSpanId: i % 4 === 0 ? '' : '00000000000000ff',
      name: `${event.method} /api/v1/items`,
      start,
      end: start + BigInt(Math.round(event.duration * 1e6)),
      method: event.method,
      path: event.uri,
      status: event.status,
      host: event.req.host,
      client: event.req.ip,
      user: event.user,
    };
  });
}

function batches<T>(items: T[], batchSize: number, body: (batch: T[]) => Buffer): Buffer[] {
  const bodies: Buffer[] = [];
  for (let offset = 0; offset < items.length; offset += batchSize) bodies.push(body(items.slice(offset, offset + batchSize)));
  return bodies;
}

/** The spans as OTLP protobuf export requests, one per batch. */
export function traceBatches(spans: BenchSpan[], batchSize: number): Buffer[] {
  const resource = { attributes: RESOURCE.map(([key, value]) => text(key, value)) };
  return batches(spans, batchSize, (batch) => {
    const otlpSpans = batch.map((span) => ({
      traceId: Buffer.from(span.traceId, 'hex'),
      spanId: Buffer.from(span.spanId, 'hex'),
      parentSpanId: Buffer.from(span.parentSpanId, 'hex'),
      name: span.name,
      kind: 2,
      startTimeUnixNano: span.start.toString(),
      endTimeUnixNano: span.end.toString(),
      attributes: [
        text('http.request.method', span.method),
        text('url.path', span.path),
        integer('http.response.status_code', span.status),
        text('server.address', span.host),
        text('client.address', span.client),
        text('user.id', span.user),
      ],
      status: { code: span.status >= 500 ? 2 : 0 },
    }));
    const request = { resourceSpans: [{ resource, scopeSpans: [{ scope: SCOPE, spans: otlpSpans }] }] };
    return Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(request)).finish());
  });
}

/** The same spans as NDJSON events already in the stored layout: the native path's baseline. */
export function spanNdjsonBatches(spans: BenchSpan[], batchSize: number): Buffer[] {
  return batches(spans, batchSize, (batch) => {
    const lines = batch.map((span) => {
      const event: Record<string, unknown> = {
        _time: span.start.toString(),
        trace_id: span.traceId,
        span_id: span.spanId,
        parent_span_id: span.parentSpanId,
        name: span.name,
        kind: 'server',
        duration: Number(span.end - span.start),
        error: span.status >= 500,
      };
      if (span.status >= 500) event['status.code'] = 'ERROR';
      for (const [key, value] of RESOURCE) event[key === 'service.name' || key.startsWith('telemetry.sdk.') ? key : `resource.${key}`] = value;
      event['scope.name'] = SCOPE.name;
      event['scope.version'] = SCOPE.version;
      event['attributes.http.request.method'] = span.method;
      event['attributes.url.path'] = span.path;
      event['attributes.http.response.status_code'] = span.status;
      event['attributes.server.address'] = span.host;
      event['attributes.client.address'] = span.client;
      event['attributes.custom'] = { 'user.id': span.user };
      return JSON.stringify(event);
    });
    return Buffer.from(`${lines.join('\n')}\n`);
  });
}
