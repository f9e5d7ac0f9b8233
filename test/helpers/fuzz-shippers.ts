// Generated requests for the shippers' doors (OTLP/HTTP, Elasticsearch bulk, Loki push, Splunk
// HEC, Heroku logplex), for the seeded fuzz test: mostly well-shaped messages with something
// wrong in them (truncated or flipped bytes, wrong types, values nested far too deep, bad
// encodings, wrong media types), some plainly valid, some pure noise. Protobuf bodies are built
// with protobufjs from the OTLP and Loki definitions the formats publish (kept beside the parsers).
import zlib from 'node:zlib';
import { compress } from './zstd';
import protobuf from 'protobufjs';
import snappy from 'snappy';

export interface Rng {
  next(): number;
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export interface FuzzRequest {
  kind: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** How the token goes: Bearer (default) or HEC's own scheme. */
  scheme?: 'bearer' | 'splunk';
}

const protoFile = (path: string) => new URL(`../../src/shippers/${path}`, import.meta.url).pathname;
const otlp = protobuf.loadSync(['otlp/proto/common.proto', 'otlp/proto/trace.proto', 'otlp/proto/logs.proto'].map(protoFile));
const TraceRequest = otlp.lookupType('opentelemetry.proto.trace.v1.ExportTraceServiceRequest');
const LogsRequest = otlp.lookupType('opentelemetry.proto.logs.v1.ExportLogsServiceRequest');
const PushRequest = protobuf.loadSync(protoFile('loki/push.proto')).lookupType('lokipush.PushRequest');

const TEXTS = ['', 'GET /x', 'ünïcödé ☃', '\u0000', 'x'.repeat(300), '{"a":1}', '1e309', 'null', '"', '\\'];
const NANOS = ['1700000000000000000', '0', '-1', '99999999999999999999999', 'abc', '1.5', '', '18446744073709551615'];

/** An OTLP AnyValue (JSON mapping), sometimes nested far past the event depth limit. */
function anyValue(rng: Rng, depth: number): unknown {
  const roll = rng.next();
  if (depth > 0 && roll < 0.1) return { kvlistValue: { values: Array.from({ length: rng.int(3) }, () => keyValue(rng, depth - 1)) } };
  if (depth > 0 && roll < 0.18) return { arrayValue: { values: Array.from({ length: rng.int(3) }, () => anyValue(rng, depth - 1)) } };
  if (roll < 0.45) return { stringValue: rng.pick(TEXTS) };
  if (roll < 0.6) return { intValue: rng.pick(['5', '-9223372036854775808', '9223372036854775807', 'x', 7]) };
  if (roll < 0.7) return { doubleValue: rng.pick([1.5, -0, 1e308, 'NaN', 'Infinity', '']) };
  if (roll < 0.8) return { boolValue: rng.pick([true, false, 'yes']) };
  if (roll < 0.85) return { bytesValue: rng.pick(['AAEC', '!!', '']) };
  if (roll < 0.9) return rng.pick([{}, null, 5, 'text', []]);
  return { stringValue: 'plain' };
}

function keyValue(rng: Rng, depth: number): unknown {
  return { key: rng.pick(['service.name', 'http.request.method', 'a', '', 'a.b', '_time', 'x'.repeat(250), '__proto__']), value: anyValue(rng, depth) };
}

/** An AnyValue kvlist nested `levels` deep. */
function deepValue(levels: number): unknown {
  let value: unknown = { stringValue: 'bottom' };
  for (let i = 0; i < levels; i++) value = { kvlistValue: { values: [{ key: 'd', value }] } };
  return value;
}

function attributes(rng: Rng): unknown[] {
  const list = Array.from({ length: rng.int(4) }, () => keyValue(rng, 3));
  if (rng.chance(0.08)) list.push({ key: 'deep', value: deepValue(rng.pick([50, 120, 400])) });
  return list;
}

function span(rng: Rng): Record<string, unknown> {
  return {
    traceId: rng.pick(['5b8efff798038103d269b633813fc60c', '', 'zz', 'AAECAwQFBgcICQoLDA0ODw==', '00']),
    spanId: rng.pick(['eee19b7ec3c1b174', '', 'x']),
    parentSpanId: rng.chance(0.3) ? 'eee19b7ec3c1b173' : undefined,
    name: rng.pick(TEXTS),
    kind: rng.pick([0, 1, 2, 5, 99, 'SPAN_KIND_SERVER', -1]),
    startTimeUnixNano: rng.pick(NANOS),
    endTimeUnixNano: rng.pick(NANOS),
    attributes: attributes(rng),
    events: rng.chance(0.3) ? [{ timeUnixNano: rng.pick(NANOS), name: 'e', attributes: attributes(rng) }] : undefined,
    links: rng.chance(0.2) ? [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', attributes: attributes(rng) }] : undefined,
    status: rng.chance(0.5) ? { code: rng.pick([0, 1, 2, 7]), message: rng.pick(TEXTS) } : undefined,
  };
}

function logRecord(rng: Rng): Record<string, unknown> {
  return {
    timeUnixNano: rng.pick(NANOS),
    observedTimeUnixNano: rng.chance(0.5) ? rng.pick(NANOS) : undefined,
    severityNumber: rng.pick([0, 9, 17, 24, 99, 'SEVERITY_NUMBER_INFO']),
    severityText: rng.pick(['INFO', 'error', '']),
    body: rng.chance(0.1) ? deepValue(rng.pick([90, 200])) : anyValue(rng, 3),
    attributes: attributes(rng),
    traceId: rng.chance(0.3) ? '5b8efff798038103d269b633813fc60c' : undefined,
  };
}

function otlpMessage(rng: Rng, signal: 'traces' | 'logs'): Record<string, unknown> {
  const groups = Array.from({ length: 1 + rng.int(2) }, () => {
    const scopes = Array.from({ length: 1 + rng.int(2) }, () => {
      const items = Array.from({ length: rng.int(4) }, () => (signal === 'traces' ? span(rng) : logRecord(rng)));
      const scope = { name: rng.pick(TEXTS), version: '1', attributes: attributes(rng) };
      return signal === 'traces' ? { scope, spans: items } : { scope, logRecords: items };
    });
    const resource = { attributes: attributes(rng) };
    return signal === 'traces' ? { resource, scopeSpans: scopes } : { resource, scopeLogs: scopes };
  });
  return signal === 'traces' ? { resourceSpans: groups } : { resourceLogs: groups };
}

/** Changes a few bytes, cuts the end off, or splices in noise. */
function mangle(rng: Rng, body: Buffer): Buffer {
  const copy = Buffer.from(body);
  const roll = rng.next();
  if (roll < 0.35 && copy.length > 0) {
    for (let k = 1 + rng.int(4); k > 0; k--) copy[rng.int(copy.length)] = rng.int(256);
    return copy;
  }
  if (roll < 0.65) return copy.subarray(0, rng.int(copy.length + 1));
  const at = rng.int(copy.length + 1);
  return Buffer.concat([copy.subarray(0, at), Buffer.from(Array.from({ length: 1 + rng.int(12) }, () => rng.int(256))), copy.subarray(at)]);
}

function noise(rng: Rng): Buffer {
  return Buffer.from(Array.from({ length: rng.int(300) }, () => rng.int(256)));
}

/** Compresses (or claims to) as shippers may: gzip, zstd, nothing, or a wrong claim. */
function encode(rng: Rng, body: Buffer, headers: Record<string, string>): Buffer {
  const roll = rng.next();
  if (roll < 0.6) return body;
  if (roll < 0.75) {
    headers['content-encoding'] = 'gzip';
    return zlib.gzipSync(body);
  }
  if (roll < 0.88) {
    headers['content-encoding'] = 'zstd';
    return Buffer.from(compress(body, 3));
  }
  headers['content-encoding'] = rng.pick(['gzip', 'zstd', 'snappy', 'deflate']);
  return body;
}

function otlpCase(rng: Rng): FuzzRequest {
  const signal = rng.pick(['traces', 'logs'] as const);
  const message = otlpMessage(rng, signal);
  const headers: Record<string, string> = { 'x-axiom-dataset': rng.chance(0.9) ? 'fuzz' : rng.pick(['canary', 'nope', '', 'bad name']) };
  let body: Buffer;
  const roll = rng.next();
  if (roll < 0.45) {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(message));
    if (rng.chance(0.3)) body = mangle(rng, body);
  } else if (roll < 0.9) {
    headers['content-type'] = 'application/x-protobuf';
    const type = signal === 'traces' ? TraceRequest : LogsRequest;
    // The JSON mapping's hex ids and string nanos go through fromObject; values it cannot take are dropped.
    let encoded: Uint8Array;
    try {
      encoded = type.encode(type.fromObject(message)).finish();
    } catch {
      encoded = type.encode(type.fromObject({})).finish();
    }
    body = Buffer.from(encoded);
    if (rng.chance(0.5)) body = mangle(rng, body);
  } else {
    headers['content-type'] = rng.pick(['application/x-protobuf', 'application/json', 'text/plain', 'application/xml']);
    body = noise(rng);
  }
  return { kind: `otlp ${signal}`, path: `/v1/${signal}`, headers, body: encode(rng, body, headers) };
}

function bulkCase(rng: Rng): FuzzRequest {
  const lines: string[] = [];
  for (let k = rng.int(6); k > 0; k--) {
    const action = rng.pick(['index', 'create', 'delete', 'update', 'bogus']);
    const meta: Record<string, unknown> = rng.chance(0.5) ? { _index: rng.pick(['logs', '', 'x'.repeat(300)]) } : {};
    if (rng.chance(0.2)) meta._id = rng.pick(['1', 5, null, {}]);
    lines.push(rng.chance(0.05) ? rng.pick(['{', '[]', '"index"', '{}', '{"index":1}']) : JSON.stringify({ [action]: meta }));
    if (action === 'delete' && rng.chance(0.7)) continue;
    const doc: Record<string, unknown> = { '@timestamp': rng.pick(['2024-01-01T00:00:00Z', 'yesterday', 1700000000000, null, '']), message: rng.pick(TEXTS) };
    if (rng.chance(0.3)) doc.nested = { a: { b: rng.pick([1, 'x', [1, [2]]]) } };
    if (rng.chance(0.05)) lines.push(`{"deep":${'['.repeat(300)}${']'.repeat(300)}}`);
    else lines.push(rng.chance(0.08) ? rng.pick(['{"message":', 'not json', '']) : JSON.stringify(doc));
  }
  let text = lines.join('\n') + (rng.chance(0.8) ? '\n' : '');
  if (rng.chance(0.1)) text = noise(rng).toString('latin1');
  const headers: Record<string, string> = { 'content-type': rng.pick(['application/x-ndjson', 'application/json', 'application/vnd.elasticsearch+x-ndjson; compatible-with=8', 'text/plain']) };
  const index = rng.chance(0.3) ? `/${rng.pick(['logs', '_all', '%00', 'x'.repeat(200)])}` : '';
  const query = rng.chance(0.3) ? `?filter_path=${encodeURIComponent(rng.pick(['errors,items.*.error', 'items.*.status', '*', ',,', 'a.b.c.d.e.f']))}` : '';
  const dataset = rng.chance(0.9) ? 'fuzz' : rng.pick(['canary', 'nope']);
  return { kind: 'elasticsearch bulk', path: `/v1/ingest/${dataset}/elastic${index}/_bulk${query}`, headers, body: encode(rng, Buffer.from(text, 'latin1'), headers) };
}

function lokiCase(rng: Rng): FuzzRequest {
  const headers: Record<string, string> = { 'x-axiom-dataset': rng.chance(0.9) ? 'fuzz' : rng.pick(['canary', 'nope']) };
  const streams = Array.from({ length: 1 + rng.int(3) }, () => ({
    labels: rng.pick(['{app="web", env="prod"}', '{}', '{app=}', 'not labels', '{a="\\"q\\""}', `{${'x'.repeat(300)}="1"}`]),
    stream: rng.chance(0.9) ? { app: rng.pick(TEXTS), level: 'info' } : rng.pick([null, 5, ['a']]),
    entries: Array.from({ length: rng.int(4) }, () => [rng.pick(NANOS), rng.pick(TEXTS), ...(rng.chance(0.2) ? [rng.pick([{ trace_id: 'x' }, 'meta', { a: { b: 1 } }])] : [])]),
  }));
  let body: Buffer;
  const roll = rng.next();
  if (roll < 0.45) {
    headers['content-type'] = 'application/json';
    const json = { streams: streams.map((s) => (rng.chance(0.1) ? { labels: s.labels, entries: s.entries.map(([ts, line]) => ({ ts, line })) } : { stream: s.stream, values: s.entries })) };
    body = Buffer.from(JSON.stringify(json));
    if (rng.chance(0.3)) body = mangle(rng, body);
  } else if (roll < 0.9) {
    headers['content-type'] = 'application/x-protobuf';
    const message = {
      streams: streams.map((s) => ({
        labels: s.labels,
        entries: s.entries.map(([, line]) => ({ timestamp: { seconds: rng.pick([1700000000, 0, -5, 2 ** 40]), nanos: rng.pick([0, 999999999, -1]) }, line: String(line) })),
      })),
    };
    let encoded: Buffer = Buffer.from(PushRequest.encode(PushRequest.fromObject(message)).finish());
    if (rng.chance(0.4)) encoded = mangle(rng, encoded);
    body = rng.chance(0.9) ? snappy.compressSync(encoded) : encoded;
    if (rng.chance(0.2)) body = mangle(rng, body);
  } else {
    headers['content-type'] = rng.pick(['application/x-protobuf', 'application/json', 'text/plain']);
    body = noise(rng);
  }
  return { kind: 'loki push', path: '/loki/api/v1/push', headers, body: encode(rng, body, headers) };
}

function hecCase(rng: Rng): FuzzRequest {
  const headers: Record<string, string> = {};
  if (rng.chance(0.7)) {
    const envelopes = Array.from({ length: rng.int(5) }, () => {
      const envelope: Record<string, unknown> = {
        event: rng.chance(0.7) ? rng.pick([{ a: 1, message: 'x' }, 'text line', 5, null, [1, 2], { nested: { deeper: { v: true } } }]) : undefined,
        time: rng.pick([1700000000.5, '1700000000', 'now', -1, 1e20, undefined]),
        host: rng.pick(['web-1', 5, undefined]),
        source: rng.pick(['app', undefined]),
        sourcetype: rng.pick(['_json', undefined]),
        fields: rng.chance(0.3) ? rng.pick([{ env: 'prod' }, ['x'], 'f', { deep: { a: 1 } }]) : undefined,
        index: rng.chance(0.2) ? rng.pick(['fuzz', 'canary', 'nope', '']) : undefined,
      };
      return rng.chance(0.05) ? `{"event":${'{"d":'.repeat(200)}1${'}'.repeat(200)}}` : JSON.stringify(envelope);
    });
    let text = envelopes.join(rng.pick(['', '\n', ' ', '\r\n']));
    if (rng.chance(0.25)) text = mangle(rng, Buffer.from(text)).toString('latin1');
    headers['content-type'] = rng.pick(['application/json', 'text/plain', '']);
    const index = rng.chance(0.8) ? '?index=fuzz' : rng.pick(['', '?index=nope', '?index=canary']);
    const path = rng.pick(['/services/collector/event', '/services/collector', '/services/collector/event/1.0']);
    return { kind: 'hec event', path: `${path}${index}`, headers, body: encode(rng, Buffer.from(text, 'latin1'), headers), scheme: 'splunk' };
  }
  const lines = Array.from({ length: rng.int(6) }, () => rng.pick([...TEXTS, '{"json":"line"}', '\r']));
  headers['content-type'] = rng.pick(['text/plain', 'application/json', 'application/octet-stream']);
  const query = new URLSearchParams({ index: rng.chance(0.85) ? 'fuzz' : 'nope', ...(rng.chance(0.5) ? { host: rng.pick(TEXTS), sourcetype: 'raw' } : {}) });
  const body = rng.chance(0.1) ? noise(rng) : Buffer.from(lines.join('\n'));
  return { kind: 'hec raw', path: `/services/collector/raw?${query}`, headers, body: encode(rng, body, headers), scheme: 'splunk' };
}

function logplexCase(rng: Rng): FuzzRequest {
  const messages = Array.from({ length: rng.int(4) }, () =>
    rng.pick([
      '<190>1 2024-01-01T00:00:00.123456+00:00 host app web.1 - Started GET "/"',
      '<13>1 - - - - - -',
      '<999>1 2024-13-45T00:00:00Z h a p - x',
      'no syslog header here',
      `<190>1 2024-01-01T00:00:00Z ${'h'.repeat(300)} app web.1 - [sd@1 a="b"] text`,
    ]),
  );
  let text = messages.map((message) => `${rng.chance(0.85) ? Buffer.byteLength(message) : rng.pick([0, 1, 99999, -3])} ${message}`).join('');
  if (rng.chance(0.15)) text = mangle(rng, Buffer.from(text)).toString('latin1');
  const headers: Record<string, string> = { 'content-type': 'application/logplex-1', 'logplex-msg-count': String(messages.length) };
  return { kind: 'logplex', path: '/v1/datasets/fuzz/ingest', headers, body: encode(rng, Buffer.from(text, 'latin1'), headers) };
}

/** One request to a shipper's door. */
export function shipperCase(rng: Rng): FuzzRequest {
  return rng.pick([otlpCase, otlpCase, bulkCase, lokiCase, hecCase, logplexCase])(rng);
}
