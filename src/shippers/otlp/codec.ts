// OTLP/HTTP encodings: requests arrive as protobuf (`application/x-protobuf`) or OTLP/JSON
// (`application/json`), and the answer uses the request's encoding: the Export*ServiceResponse
// on success (with partial success when some items were refused) and google.rpc.Status on error.
// Signals are named so that metrics can join traces and logs here.
import { invalidInput, unsupportedMediaType } from '../../errors';
import { mediaTypeOf } from '../../events/ingest/content';
import { decodeMessage, loadProtoRoot } from '../protobuf';

export type OtlpSignal = 'traces' | 'logs';
export type OtlpEncoding = 'protobuf' | 'json';

const root = loadProtoRoot(new URL('./proto/', import.meta.url), ['common.proto', 'trace.proto', 'logs.proto', 'status.proto']);

const MESSAGES = {
  traces: {
    request: root.lookupType('opentelemetry.proto.trace.v1.ExportTraceServiceRequest'),
    response: root.lookupType('opentelemetry.proto.trace.v1.ExportTraceServiceResponse'),
    rejectedField: 'rejectedSpans',
    name: 'ExportTraceServiceRequest',
  },
  logs: {
    request: root.lookupType('opentelemetry.proto.logs.v1.ExportLogsServiceRequest'),
    response: root.lookupType('opentelemetry.proto.logs.v1.ExportLogsServiceResponse'),
    rejectedField: 'rejectedLogRecords',
    name: 'ExportLogsServiceRequest',
  },
} as const;

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

/** Decodes an export request of a signal. The result follows `model.ts`. */
export function decodeExportRequest<T>(signal: OtlpSignal, body: Buffer, encoding: OtlpEncoding): T {
  const messages = MESSAGES[signal];
  if (encoding === 'protobuf') return decodeMessage<T>(messages.request, body, `OTLP ${messages.name}`);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'), camelCaseKeys);
  } catch (error) {
    throw invalidInput(`request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`request body must be an OTLP ${messages.name} object`);
  return value as T;
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
