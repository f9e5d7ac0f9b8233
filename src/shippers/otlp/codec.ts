// OTLP/HTTP encodings: requests arrive as protobuf (`application/x-protobuf`) or OTLP/JSON
// (`application/json`), and the answer uses the request's encoding: the Export*ServiceResponse
// on success (with partial success when some items were refused) and google.rpc.Status on error.
// Traces, logs and metrics share the request shape, so one walk reads them all.
import protobuf from 'protobufjs';
import { invalidInput, unsupportedMediaType } from '../../errors';
import { mediaTypeOf } from '../../ingest/content';
import { loadProtoRoot } from '../protobuf';
import type { OtlpResource, OtlpScope } from './model';
import { listOf } from './values';

export type OtlpSignal = 'traces' | 'logs' | 'metrics';
export type OtlpEncoding = 'protobuf' | 'json';

const root = loadProtoRoot(new URL('./proto/', import.meta.url), ['common.proto', 'trace.proto', 'logs.proto', 'metrics.proto', 'status.proto']);

// Every signal's request has one shape: resource groups (field 1), each a resource (field 1) and
// scope groups (field 2), each a scope (field 1) and items (field 2). The JSON names differ.
const MESSAGES = {
  traces: {
    response: root.lookupType('opentelemetry.proto.trace.v1.ExportTraceServiceResponse'),
    item: root.lookupType('opentelemetry.proto.trace.v1.Span'),
    json: { groups: 'resourceSpans', scopes: 'scopeSpans', items: 'spans' },
    rejectedField: 'rejectedSpans',
    name: 'ExportTraceServiceRequest',
  },
  logs: {
    response: root.lookupType('opentelemetry.proto.logs.v1.ExportLogsServiceResponse'),
    item: root.lookupType('opentelemetry.proto.logs.v1.LogRecord'),
    json: { groups: 'resourceLogs', scopes: 'scopeLogs', items: 'logRecords' },
    rejectedField: 'rejectedLogRecords',
    name: 'ExportLogsServiceRequest',
  },
  metrics: {
    response: root.lookupType('opentelemetry.proto.metrics.v1.ExportMetricsServiceResponse'),
    item: root.lookupType('opentelemetry.proto.metrics.v1.Metric'),
    json: { groups: 'resourceMetrics', scopes: 'scopeMetrics', items: 'metrics' },
    rejectedField: 'rejectedDataPoints',
    name: 'ExportMetricsServiceRequest',
  },
} as const;

const Resource = root.lookupType('opentelemetry.proto.common.v1.Resource');
const Scope = root.lookupType('opentelemetry.proto.common.v1.InstrumentationScope');

const RpcStatus = root.lookupType('google.rpc.Status');

/** The encoding of a request body, from its Content-Type (415 for anything else). */
export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === 'application/x-protobuf' || mediaType === 'application/protobuf') return 'protobuf';
  if (mediaType === 'application/json') return 'json';
  throw unsupportedMediaType(`unsupported content type ${mediaType ? `"${mediaType}"` : '(none)'}: send application/x-protobuf or application/json`);
}

/** snake_case property names of OTLP/JSON (which parsers must accept) as the camelCase ones. */
function camelCaseKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let renamed: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (!key.includes('_')) continue;
    renamed ??= { ...(value as Record<string, unknown>) };
    const camel = key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    if (!(camel in renamed)) renamed[camel] = renamed[key];
    delete renamed[key];
  }
  return renamed ?? value;
}

/** Parses an OTLP/JSON export request, its names in camelCase. The result follows `model.ts`. */
function parseExportJson(signal: OtlpSignal, body: Buffer): Record<string, unknown> {
  const messages = MESSAGES[signal];
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'), camelCaseKeys);
  } catch (error) {
    throw invalidInput(`request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`request body must be an OTLP ${messages.name} object`);
  return value as Record<string, unknown>;
}

/**
 * Hands over every item of an export request with the group it belongs to (`group` runs once
 * per resource and scope). Protobuf bodies are decoded item by item, each by the message's
 * protobufjs decoder, so that the objects of one item die before the next is read instead of the
 * whole request living at once; the wire walk only finds where each message lies.
 */
export function forEachExportItem<Item, Group>(
  signal: OtlpSignal,
  body: Buffer,
  encoding: OtlpEncoding,
  group: (resource: OtlpResource | null | undefined, scope: OtlpScope | null | undefined) => Group,
  item: (item: Item, group: Group) => void,
): void {
  const messages = MESSAGES[signal];
  if (encoding === 'json') {
    const request = parseExportJson(signal, body);
    const names = messages.json;
    for (const resourceGroup of listOf(request[names.groups] as Record<string, unknown>[], names.groups)) {
      for (const scopeGroup of listOf(resourceGroup?.[names.scopes] as Record<string, unknown>[], names.scopes)) {
        const shared = group(resourceGroup.resource as OtlpResource, scopeGroup?.scope as OtlpScope);
        for (const value of listOf(scopeGroup[names.items] as Item[], names.items)) item(value, shared);
      }
    }
    return;
  }
  // One reader over the body; each item is decoded from where it lies.
  const reader = protobuf.Reader.create(body);
  try {
    for (const resourceGroup of fieldsOf(body, 0, body.length, 1)) {
      const resource = firstMessage(body, resourceGroup, Resource) as OtlpResource | undefined;
      for (const scopeGroup of fieldsOf(body, resourceGroup.start, resourceGroup.end, 2)) {
        const scope = firstMessage(body, scopeGroup, Scope) as OtlpScope | undefined;
        const shared = group(resource, scope);
        for (const itemBytes of fieldsOf(body, scopeGroup.start, scopeGroup.end, 2)) {
          reader.pos = itemBytes.start;
          item(messages.item.decode(reader, itemBytes.end - itemBytes.start) as unknown as Item, shared);
        }
      }
    }
  } catch (error) {
    if (!(error instanceof Error) || error.name === 'DomainError' || error.name === 'InvalidTimeError') throw error;
    throw invalidInput(`request body is not a valid OTLP ${messages.name} protobuf message: ${error.message}`);
  }
}

interface Span {
  start: number;
  end: number;
}

/** Where each length-delimited field `number` of a message (bytes start..end) lies; others are skipped. */
function fieldsOf(body: Buffer, start: number, end: number, number: number): Span[] {
  const reader = protobuf.Reader.create(body);
  reader.pos = start;
  const found: Span[] = [];
  while (reader.pos < end) {
    const tag = reader.uint32();
    const wireType = tag & 7;
    if (tag >>> 3 === number && wireType === 2) {
      const length = reader.uint32();
      const from = reader.pos;
      if (from + length > end) throw new RangeError(`field ${number} runs past the end of its message`);
      found.push({ start: from, end: from + length });
      reader.pos = from + length;
    } else {
      reader.skipType(wireType);
    }
  }
  if (reader.pos !== end) throw new RangeError('a message runs past the end of its parent');
  return found;
}

/** The message in field 1 of a group (the resource, the scope), wherever it lies in the group. */
function firstMessage(body: Buffer, group: Span, type: protobuf.Type): unknown {
  const [first] = fieldsOf(body, group.start, group.end, 1);
  return first ? type.decode(body.subarray(first.start, first.end)) : undefined;
}

export interface PartialSuccess {
  rejected: number;
  errorMessage: string;
}

/** The success answer: an empty response, or one reporting the items that were not stored. */
export function encodeExportResponse(signal: OtlpSignal, encoding: OtlpEncoding, partial?: PartialSuccess): Buffer | string {
  const messages = MESSAGES[signal];
  const partialSuccess = partial ? { [messages.rejectedField]: partial.rejected, errorMessage: partial.errorMessage } : undefined;
  if (encoding === 'json') {
    // int64 fields are decimal text in OTLP/JSON.
    return JSON.stringify(partialSuccess ? { partialSuccess: { ...partialSuccess, [messages.rejectedField]: String(partial!.rejected) } } : {});
  }
  const message = messages.response.create(partialSuccess ? { partialSuccess } : {});
  return Buffer.from(messages.response.encode(message).finish());
}

/** gRPC status codes for the HTTP statuses an export can end with. */
function grpcCodeOf(httpStatus: number): number {
  switch (httpStatus) {
    case 400:
    case 415:
      return 3; // INVALID_ARGUMENT
    case 401:
      return 16; // UNAUTHENTICATED
    case 403:
      return 7; // PERMISSION_DENIED
    case 404:
      return 5; // NOT_FOUND
    case 408:
      return 4; // DEADLINE_EXCEEDED
    case 413:
      return 8; // RESOURCE_EXHAUSTED
    case 503:
      return 14; // UNAVAILABLE
    default:
      return httpStatus >= 500 ? 13 /* INTERNAL */ : 2 /* UNKNOWN */;
  }
}

/** The error answer, google.rpc.Status in the request's encoding. */
export function encodeErrorStatus(encoding: OtlpEncoding, httpStatus: number, message: string): Buffer | string {
  const code = grpcCodeOf(httpStatus);
  if (encoding === 'json') return JSON.stringify({ code, message });
  return Buffer.from(RpcStatus.encode(RpcStatus.create({ code, message })).finish());
}
