// Splunk HTTP Event Collector bodies. The event endpoint takes envelopes
// (`{"event": ..., "time": ..., "host": ..., "source": ..., "sourcetype": ..., "index": ...,
// "fields": {...}}`) back to back or one per line; the raw endpoint takes text, one event per
// line. Errors carry HEC's own codes; a body with an unreadable envelope is refused whole.
import { DomainError, type ErrorKind } from '../errors';
import type { EventVisitor, RawEvent } from '../ingest/parse-body';
import { isPlainObject } from '../ingest/parse-body';
import { countingVisitor } from './event-count';

/** HEC status codes and their texts, as Splunk sends them. */
export const HEC_CODES = {
  success: { code: 0, text: 'Success' },
  tokenRequired: { code: 2, text: 'Token is required' },
  invalidAuthorization: { code: 3, text: 'Invalid authorization' },
  invalidToken: { code: 4, text: 'Invalid token' },
  noData: { code: 5, text: 'No data' },
  invalidDataFormat: { code: 6, text: 'Invalid data format' },
  incorrectIndex: { code: 7, text: 'Incorrect index' },
  internalError: { code: 8, text: 'Internal server error' },
  serverBusy: { code: 9, text: 'Server is busy' },
  eventRequired: { code: 12, text: 'Event field is required' },
  eventBlank: { code: 13, text: 'Event field cannot be blank' },
  indexedFields: { code: 15, text: 'Error in handling indexed fields' },
  healthy: { code: 17, text: 'HEC is healthy' },
} as const;

type HecStatus = (typeof HEC_CODES)[keyof typeof HEC_CODES];

/** An error that answers with a HEC code; `details.hecCode` carries it to the door. */
export function hecError(kind: ErrorKind, status: HecStatus, extra: Record<string, unknown> = {}, message: string = status.text): DomainError {
  return new DomainError(kind, message, { hecCode: status.code, ...extra });
}

/** The metadata every event of a request may carry, from the envelope or the raw endpoint's query. */
const METADATA = ['host', 'source', 'sourcetype', 'index'] as const;

export interface HecEnvelopes {
  events: RawEvent[];
  /** The `index` of the first envelope, which names the dataset when the query does not. */
  firstIndex: string | undefined;
}

/** Finds where the JSON object starting at `start` ends (the index after its closing brace). */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b /* { */ || char === 0x5b /* [ */) depth++;
    else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const isSpace = (char: number) => char === 0x20 || char === 0x0a || char === 0x0d || char === 0x09;

/** The envelopes of an event-endpoint body, each turned into an event. */
export function parseHecEnvelopes(body: Buffer): HecEnvelopes {
  const text = body.toString('utf8');
  const events: RawEvent[] = [];
  let firstIndex: string | undefined;
  let at = 0;
  let number = 0;
  const counter = countingVisitor((event) => events.push(event));
  for (;;) {
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    if (at >= text.length) break;
    const invalid = () => hecError('invalid_input', HEC_CODES.invalidDataFormat, { 'invalid-event-number': number });
    if (text[at] !== '{') throw invalid();
    const end = objectEnd(text, at);
    if (end === -1) throw invalid();
    let envelope: unknown;
    try {
      envelope = JSON.parse(text.slice(at, end));
    } catch {
      throw invalid();
    }
    const event = eventOfEnvelope(envelope as RawEvent, number);
    if (number === 0 && typeof (envelope as RawEvent).index === 'string') firstIndex = (envelope as RawEvent).index as string;
    counter.visit(event);
    number++;
    at = end;
  }
  if (events.length === 0) throw hecError('invalid_input', HEC_CODES.noData);
  return { events, firstIndex };
}

function eventOfEnvelope(envelope: RawEvent, number: number): RawEvent {
  const at = { 'invalid-event-number': number };
  if (!('event' in envelope)) throw hecError('invalid_input', HEC_CODES.eventRequired, at);
  const payload = envelope.event;
  if (payload === null || payload === '' || (isPlainObject(payload) && Object.keys(payload).length === 0)) {
    throw hecError('invalid_input', HEC_CODES.eventBlank, at);
  }
  const event: RawEvent = {};
  for (const name of METADATA) if (envelope[name] !== undefined && envelope[name] !== null) event[name] = envelope[name];
  if (envelope.fields !== undefined && envelope.fields !== null) {
    if (!isPlainObject(envelope.fields)) throw hecError('invalid_input', HEC_CODES.indexedFields, at);
    Object.assign(event, envelope.fields);
  }
  if (isPlainObject(payload)) Object.assign(event, payload);
  else event._raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  // The envelope's time is the event's; without it the event's own `_time` (or the receive time).
  if (envelope.time !== undefined && envelope.time !== null && envelope.time !== '') event._time = envelope.time;
  return event;
}

export type RawMetadata = Partial<Record<(typeof METADATA)[number], string>>;

/**
 * A raw-endpoint body: one event per non-empty line, in `_raw`, with the query's metadata. A JSON
 * object body (Content-Type application/json) is one event with its fields.
 */
export function readHecRaw(body: Buffer, metadata: RawMetadata, json: boolean, visit: EventVisitor): number {
  const counter = countingVisitor(visit);
  const text = body.toString('utf8');
  if (json) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isPlainObject(value)) {
      counter.visit({ ...metadata, ...value });
      return counter.count();
    }
  }
  for (const line of text.split(/\r?\n/)) if (line.trim() !== '') counter.visit({ ...metadata, _raw: line });
  if (counter.count() === 0) throw hecError('invalid_input', HEC_CODES.noData);
  return counter.count();
}
