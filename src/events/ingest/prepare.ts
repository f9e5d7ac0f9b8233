// Turns event objects into flat, typed events ready for storage: nested objects become
// dot-separated field names, each value gets its field type, `_time` is read (or set to the
// receive time). An event that cannot be stored as sent fails alone, with a reason.
import { type FieldType, ROW_ID_FIELD, SYS_TIME_FIELD, TIME_FIELD } from '../layout';
import type { TimeLayoutParser } from './go-time-layout';
import { MAX_EVENT_BYTES, MAX_FIELD_NAME_BYTES } from './limits';
import type { RawEvent } from './parse-body';
import { abbreviate, InvalidTimeError, parseTimeValue } from './timestamp';

/** A stored value: text, number, boolean, or an array (kept whole, stored as JSON). */
export type FieldValue = string | number | boolean | unknown[];

export interface PreparedEvent {
  /** `_time` in nanoseconds since the epoch. */
  time: bigint;
  /** Flattened field names, their values and types, in the order met (later duplicates win). */
  names: string[];
  values: FieldValue[];
  types: FieldType[];
}

export interface EventFailure {
  /** Position of the event in the request. */
  index: number;
  /** The event's time when it could be read, else the receive time. */
  time: bigint;
  error: string;
}

export interface PrepareOptions {
  /** `timestamp-field`: where the event time is read from (default `_time`). */
  timestampField?: string;
  /** `timestamp-format`: reads textual times with a Go layout instead of RFC 3339 / epochs. */
  parseTimeText?: TimeLayoutParser;
  receivedAt: Date;
  /** The receive time in nanoseconds, `_time` of events that carry none. */
  receivedNs: bigint;
}

export interface PreparedBatch {
  events: PreparedEvent[];
  /** Request positions of `events`, to report later failures in request order. */
  positions: number[];
  failures: EventFailure[];
}

const INT64_LIMIT = 9_223_372_036_854_775_808; // 2^63, exactly representable

export function fieldTypeOf(value: number | string | boolean | unknown[]): FieldType {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT ? 'integer' : 'float';
    default:
      return 'array';
  }
}

class EventRejected extends Error {}

function checkName(name: string): void {
  // Three UTF-8 bytes per UTF-16 unit at most, so short names need no counting.
  if (name.length * 3 > MAX_FIELD_NAME_BYTES && Buffer.byteLength(name) > MAX_FIELD_NAME_BYTES) {
    throw new EventRejected(`field name "${abbreviate(name)}" is longer than ${MAX_FIELD_NAME_BYTES} bytes`);
  }
}

/** Appends the flattened fields of `object` (under `prefix`) to `out`. */
export function flattenInto(object: RawEvent, prefix: string, out: PreparedEvent, skipTopLevel: boolean): void {
  for (const key in object) {
    const value = object[key];
    if (value === null || value === undefined) continue;
    if (key === '') throw new EventRejected(prefix ? `field "${abbreviate(prefix)}" has a member with an empty name` : 'an empty field name');
    if (prefix === '') {
      if (skipTopLevel && (key === TIME_FIELD || key === SYS_TIME_FIELD || key === ROW_ID_FIELD)) continue;
    }
    const name = prefix === '' ? key : `${prefix}.${key}`;
    checkName(name);
    // DuckDB identifiers cannot hold NUL, and no tool shows such a name sensibly.
    if (key.includes('\u0000')) throw new EventRejected(`field name "${abbreviate(name.replaceAll('\u0000', '\\0'))}" contains a NUL character`);
    if (typeof value === 'object' && !Array.isArray(value)) {
      flattenInto(value as RawEvent, name, out, false);
      continue;
    }
    let stored: FieldValue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || Array.isArray(value)) {
      stored = value;
    } else {
      stored = String(value);
    }
    out.names.push(name);
    out.values.push(stored);
    out.types.push(fieldTypeOf(stored));
  }
}

/** The value at a dot-separated path (`req.time`), reading nested objects or flat keys. */
export function valueAtPath(event: RawEvent, path: string): unknown {
  if (path in event) return event[path];
  const dot = path.indexOf('.');
  if (dot === -1) return undefined;
  for (let split = dot; split !== -1; split = path.indexOf('.', split + 1)) {
    const head = event[path.slice(0, split)];
    if (typeof head === 'object' && head !== null && !Array.isArray(head)) {
      const found = valueAtPath(head as RawEvent, path.slice(split + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function readTime(value: unknown, options: PrepareOptions): bigint {
  if (value === undefined || value === null) return options.receivedNs;
  if (typeof value === 'string' && options.parseTimeText) return options.parseTimeText(value.trim(), options.receivedAt);
  return parseTimeValue(value);
}

export function prepareEvents(rawEvents: RawEvent[], options: PrepareOptions, sizes?: number[]): PreparedBatch {
  const timestampField = options.timestampField && options.timestampField !== TIME_FIELD ? options.timestampField : undefined;
  const batch: PreparedBatch = { events: [], positions: [], failures: [] };
  for (let index = 0; index < rawEvents.length; index++) {
    const raw = rawEvents[index]!;
    let time = options.receivedNs;
    try {
      const chosen = timestampField ? valueAtPath(raw, timestampField) : undefined;
      time = readTime(chosen ?? raw[TIME_FIELD], options);
      const size = sizes ? sizes[index]! : undefined;
      if (size !== undefined && size > MAX_EVENT_BYTES) throw new EventRejected(eventTooLarge(size));
      const event: PreparedEvent = { time, names: [], values: [], types: [] };
      flattenInto(raw, '', event, true);
      batch.events.push(event);
      batch.positions.push(index);
    } catch (error) {
      if (!(error instanceof EventRejected) && !(error instanceof InvalidTimeError)) throw error;
      const message = error instanceof InvalidTimeError ? `invalid ${timestampField ?? TIME_FIELD}: ${error.message}` : error.message;
      batch.failures.push({ index, time, error: message });
    }
  }
  return batch;
}

export function eventTooLarge(size: number): string {
  return `event is ${size} bytes, more than the ${MAX_EVENT_BYTES} bytes an event may take`;
}

/** UTF-8 size of each event's JSON text; only worth computing when the body could hold a large event. */
export function measureEventSizes(events: RawEvent[]): number[] {
  return events.map((event) => Buffer.byteLength(JSON.stringify(event)));
}
