// The shape of a decoded OTLP export request, as protobufjs produces it from protobuf bodies and
// as the JSON reader normalizes OTLP/JSON bodies into: camelCase names, and the few values whose
// form differs between the two encodings typed as either (ids: bytes or hex text; 64-bit
// integers: protobufjs Longs, or decimal text and numbers; bytes: Uint8Array or base64 text;
// enums: numbers, or their names in lenient JSON).
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

/** A point of a gauge or a sum: one of `asDouble` and `asInt` (protobufjs names it in `value`). */
export interface OtlpNumberDataPoint {
  attributes?: OtlpKeyValue[];
  timeUnixNano?: OtlpInt64;
  asDouble?: number | string | null;
  asInt?: OtlpInt64 | null;
  flags?: number;
}

interface OtlpDistributionDataPoint {
  attributes?: OtlpKeyValue[];
  timeUnixNano?: OtlpInt64;
  count?: OtlpInt64;
  sum?: number | string | null;
  min?: number | string | null;
  max?: number | string | null;
  flags?: number;
}

export interface OtlpHistogramDataPoint extends OtlpDistributionDataPoint {
  bucketCounts?: OtlpInt64[];
  explicitBounds?: (number | string)[];
}

export interface OtlpExponentialHistogramDataPoint extends OtlpDistributionDataPoint {
  scale?: number;
  zeroCount?: OtlpInt64;
  zeroThreshold?: number | string;
  positive?: { offset?: number; bucketCounts?: OtlpInt64[] } | null;
  negative?: { offset?: number; bucketCounts?: OtlpInt64[] } | null;
}

export interface OtlpSummaryDataPoint extends OtlpDistributionDataPoint {
  quantileValues?: { quantile?: number | string; value?: number | string }[];
}

type OtlpTemporality = number | string | null | undefined;

/** A metric: its name and unit, and one of five kinds of data (protobufjs names it in `data`). */
export interface OtlpMetric {
  name?: string;
  unit?: string;
  gauge?: { dataPoints?: OtlpNumberDataPoint[] } | null;
  sum?: { dataPoints?: OtlpNumberDataPoint[]; aggregationTemporality?: OtlpTemporality; isMonotonic?: boolean } | null;
  histogram?: { dataPoints?: OtlpHistogramDataPoint[]; aggregationTemporality?: OtlpTemporality } | null;
  exponentialHistogram?: { dataPoints?: OtlpExponentialHistogramDataPoint[]; aggregationTemporality?: OtlpTemporality } | null;
  summary?: { dataPoints?: OtlpSummaryDataPoint[] } | null;
}
