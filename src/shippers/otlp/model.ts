// The shape of a decoded OTLP export request, as protobufjs produces it from protobuf bodies and
// as the JSON reader normalizes OTLP/JSON bodies into: camelCase names, and the few values whose
// form differs between the two encodings typed as either (ids: bytes or hex text; 64-bit
// integers: protobufjs Longs, or decimal text and numbers; bytes: Uint8Array or base64 text;
// enums: numbers, or their names in lenient JSON). Metrics will add their messages here.
import type { LongLike } from '../protobuf';

export type OtlpId = Uint8Array | string | null | undefined;
export type OtlpInt64 = LongLike | string;

export interface OtlpAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: OtlpInt64;
  doubleValue?: number | string | null;
  arrayValue?: { values?: OtlpAnyValue[] } | null;
  kvlistValue?: { values?: OtlpKeyValue[] } | null;
  bytesValue?: Uint8Array | string | null;
}

export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue | null;
}

export interface OtlpResource {
  attributes?: OtlpKeyValue[];
}

export interface OtlpScope {
  name?: string;
  version?: string;
  attributes?: OtlpKeyValue[];
}

export interface OtlpSpan {
  traceId?: OtlpId;
  spanId?: OtlpId;
  traceState?: string;
  parentSpanId?: OtlpId;
  name?: string;
  kind?: number | string;
  startTimeUnixNano?: OtlpInt64;
  endTimeUnixNano?: OtlpInt64;
  attributes?: OtlpKeyValue[];
  events?: { timeUnixNano?: OtlpInt64; name?: string; attributes?: OtlpKeyValue[] }[];
  links?: { traceId?: OtlpId; spanId?: OtlpId; traceState?: string; attributes?: OtlpKeyValue[] }[];
  status?: { message?: string; code?: number | string } | null;
}

export interface OtlpTracesRequest {
  resourceSpans?: { resource?: OtlpResource | null; scopeSpans?: { scope?: OtlpScope | null; spans?: OtlpSpan[] }[] }[];
}

export interface OtlpLogRecord {
  timeUnixNano?: OtlpInt64;
  observedTimeUnixNano?: OtlpInt64;
  severityNumber?: number | string;
  severityText?: string;
  body?: OtlpAnyValue | null;
  attributes?: OtlpKeyValue[];
  traceId?: OtlpId;
  spanId?: OtlpId;
  eventName?: string;
}

export interface OtlpLogsRequest {
  resourceLogs?: { resource?: OtlpResource | null; scopeLogs?: { scope?: OtlpScope | null; logRecords?: OtlpLogRecord[] }[] }[];
}
