// OTLP log records as events: `_time` is the record's time (its observed time when it has none),
// `body`, `severity_text`, `severity_number`, `trace_id`/`span_id` when set, `event_name`, and
// resource, scope and attributes placed as placement.ts says.
import type { EventVisitor, RawEvent } from '../../ingest/parse-body';
import { countingVisitor } from '../event-count';
import { eventTime } from '../event-time';
import { forEachExportItem, type OtlpEncoding } from './codec';
import type { OtlpLogRecord } from './model';
import { addAttributes, addFields, sharedFields } from './placement';
import { anyValue, idHex, int64 } from './values';

const SEVERITY_NAMES = [
  'SEVERITY_NUMBER_UNSPECIFIED',
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level) => [1, 2, 3, 4].map((n) => `SEVERITY_NUMBER_${level}${n === 1 ? '' : n}`)),
];

/** Reads every log record of an export request body, one event each; returns the count. */
export function readLogRecords(body: Buffer, encoding: OtlpEncoding, visit: EventVisitor): number {
  const counter = countingVisitor(visit);
  forEachExportItem<OtlpLogRecord, [string, unknown][]>('logs', body, encoding, sharedFields, (record, shared) => counter.visit(logEvent(record, shared)));
  return counter.count();
}

function severityNumber(value: number | string | undefined): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  const index = SEVERITY_NAMES.indexOf(value);
  return index === -1 ? Number(value) || 0 : index;
}

function logEvent(record: OtlpLogRecord, shared: [string, unknown][]): RawEvent {
  const time = int64(record.timeUnixNano ?? 0, 'timeUnixNano');
  const observed = int64(record.observedTimeUnixNano ?? 0, 'observedTimeUnixNano');
  const event: RawEvent = {};
  if (time !== 0n) event._time = eventTime(time);
  else if (observed !== 0n) event._time = eventTime(observed);
  const body = anyValue(record.body);
  if (body !== undefined) event.body = body;
  if (record.severityText) event.severity_text = record.severityText;
  const severity = severityNumber(record.severityNumber);
  if (severity !== 0) event.severity_number = severity;
  const traceId = idHex(record.traceId, 'traceId');
  if (traceId !== '') event.trace_id = traceId;
  const spanId = idHex(record.spanId, 'spanId');
  if (spanId !== '') event.span_id = spanId;
  if (record.eventName) event.event_name = record.eventName;
  addFields(event, shared);
  addAttributes(event, record.attributes);
  return event;
}
