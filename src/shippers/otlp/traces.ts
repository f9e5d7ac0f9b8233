// OTLP spans as events, laid out as Axiom stores them: `_time` is the span's start, `duration`
// its length (a timespan: `duration > 100ms`, `duration / 1s`), ids in lowercase hex (`parent_span_id` empty for roots), `kind` in lowercase,
// `error` when the status is an error, `status.code`/`status.message`, the span's events and
// links as arrays, and resource, scope and attributes placed as placement.ts says.
import type { EventVisitor, RawEvent } from '../../ingest/parse-body';
import { formatDateTime } from '../../apl/time';
import { Timespan } from '../../ingest/timespan';
import { countingVisitor } from '../event-count';
import { eventTime } from '../event-time';
import { forEachExportItem, type OtlpEncoding } from './codec';
import type { OtlpSpan } from './model';
import { addAttributes, addFields, sharedFields } from './placement';
import { enumNumber, idHex, int64, keyValues, listOf } from './values';

const KIND_NAMES = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'] as const;
const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUS_NAMES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'] as const;

/** Reads every span of an export request body, one event each; returns the count. */
export function readSpans(body: Buffer, encoding: OtlpEncoding, visit: EventVisitor): number {
  const counter = countingVisitor(visit);
  forEachExportItem<OtlpSpan, [string, unknown][]>('traces', body, encoding, sharedFields, (span, shared) => counter.visit(spanEvent(span, shared)));
  return counter.count();
}

/** A span's length (undefined when it has not ended). */
export function spanDuration(start: bigint, end: bigint): Timespan | undefined {
  return end === 0n ? undefined : Timespan.between(start, end);
}

function spanEvent(span: OtlpSpan, shared: [string, unknown][]): RawEvent {
  const start = int64(span.startTimeUnixNano ?? 0, 'startTimeUnixNano');
  const end = int64(span.endTimeUnixNano ?? 0, 'endTimeUnixNano');
  const statusCode = enumNumber(span.status?.code, STATUS_NAMES, 'status.code');
  const event: RawEvent = {};
  if (start !== 0n) event._time = eventTime(start);
  event.trace_id = idHex(span.traceId, 'traceId');
  event.span_id = idHex(span.spanId, 'spanId');
  event.parent_span_id = idHex(span.parentSpanId, 'parentSpanId');
  event.name = span.name ?? '';
  event.kind = KINDS[enumNumber(span.kind, KIND_NAMES, 'kind')] ?? 'unspecified';
  const duration = spanDuration(start, end);
  if (duration !== undefined) event.duration = duration;
  event.error = statusCode === 2;
  if (statusCode === 1) event['status.code'] = 'OK';
  else if (statusCode === 2) event['status.code'] = 'ERROR';
  if (span.status?.message) event['status.message'] = span.status.message;
  if (span.traceState) event.trace_state = span.traceState;
  addFields(event, shared);
  addAttributes(event, span.attributes);
  const events = listOf(span.events, 'events');
  if (events.length > 0) {
    event.events = events.map((item) => {
      const entry: RawEvent = { name: item.name ?? '', timestamp: formatDateTime(int64(item.timeUnixNano ?? 0, 'events.timeUnixNano')) };
      const attributes = keyValues(item.attributes);
      if (Object.keys(attributes).length > 0) entry.attributes = attributes;
      return entry;
    });
  }
  const links = listOf(span.links, 'links');
  if (links.length > 0) {
    event.links = links.map((link) => {
      const entry: RawEvent = { trace_id: idHex(link.traceId, 'links.traceId'), span_id: idHex(link.spanId, 'links.spanId') };
      if (link.traceState) entry.trace_state = link.traceState;
      const attributes = keyValues(link.attributes);
      if (Object.keys(attributes).length > 0) entry.attributes = attributes;
      return entry;
    });
  }
  return event;
}
