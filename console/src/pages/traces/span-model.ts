// The spans of a trace read from the query answers, one object per span with what the waterfall
// draws (ids, service, name, start, length, status, events) and the row it came from; the rest of
// a span (attributes, links) is read when it is opened. Only rows with a `parent_span_id` are
// spans: logs carry `trace_id`/`span_id` too.
import type { DatasetRows } from '../../api/traces';
import type { ResultTable } from '../../api/query';
import { type Instant, parseDurationNanos, parseInstant } from './time-ns';

export interface SpanEvent {
  name: string;
  at: Instant | undefined;
  attributes: Record<string, unknown> | undefined;
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  traceState: string | undefined;
  attributes: Record<string, unknown> | undefined;
}

export interface Span {
  spanId: string;
  /** Empty for a root. */
  parentSpanId: string;
  name: string;
  service: string;
  kind: string;
  start: Instant;
  /** 0 for a span that had not ended when it was sent. */
  durationNanos: number;
  ended: boolean;
  error: boolean;
  statusCode: string | undefined;
  statusMessage: string | undefined;
  events: readonly SpanEvent[];
  /** The dataset it is stored in, and the row of the answer it was read from. */
  dataset: string;
  table: ResultTable;
  row: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** Shared by every span without events (most of them), so reading 10,000 spans allocates no empty lists. */
const NO_EVENTS: readonly SpanEvent[] = Object.freeze([]);

function spanEvents(value: unknown): readonly SpanEvent[] {
  if (!Array.isArray(value) || value.length === 0) return NO_EVENTS;
  return value.map((item) => {
    const entry = record(item) ?? {};
    return { name: text(entry.name), at: parseInstant(entry.timestamp), attributes: record(entry.attributes) };
  });
}

/** The links of a span's whole event. */
export function spanLinks(value: unknown): SpanLink[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) => {
    const entry = record(item) ?? {};
    return { traceId: text(entry.trace_id), spanId: text(entry.span_id), traceState: typeof entry.trace_state === 'string' ? entry.trace_state : undefined, attributes: record(entry.attributes) };
  });
}

/** The spans of every answer, in no particular order. */
export function readSpans(answers: DatasetRows[]): Span[] {
  const spans: Span[] = [];
  for (const { dataset, table } of answers) {
    const column = (name: string): unknown[] | undefined => {
      const index = table.fields.findIndex((field) => field.name === name);
      return index === -1 ? undefined : table.columns[index];
    };
    const times = column('_time') ?? [];
    const spanIds = column('span_id') ?? [];
    const parents = column('parent_span_id') ?? [];
    const names = column('name');
    const services = column('service.name');
    const kinds = column('kind');
    const durations = column('duration');
    const errors = column('error');
    const codes = column('status.code');
    const messages = column('status.message');
    const events = column('events');
    for (let row = 0; row < times.length; row++) {
      const parent = parents[row];
      const start = parseInstant(times[row]);
      if (typeof parent !== 'string' || !start || typeof spanIds[row] !== 'string') continue;
      const duration = parseDurationNanos(durations?.[row]);
      const code = codes?.[row];
      spans.push({
        spanId: spanIds[row] as string,
        parentSpanId: parent,
        name: text(names?.[row]),
        service: text(services?.[row]),
        kind: text(kinds?.[row]),
        start,
        durationNanos: Math.max(0, duration ?? 0),
        ended: duration !== undefined,
        error: errors?.[row] === true || code === 'ERROR',
        // Empty when the dataset has no such field (the waterfall's query reads a missing field as '').
        statusCode: typeof code === 'string' && code !== '' ? code : undefined,
        statusMessage: typeof messages?.[row] === 'string' && messages[row] !== '' ? (messages[row] as string) : undefined,
        events: spanEvents(events?.[row]),
        dataset,
        table,
        row,
      });
    }
  }
  return spans;
}
