// Turns event objects into a columnar batch ready for storage: nested objects become
// dot-separated field names, every value lands in its field's column with the field's type
// widened to hold it, `_time` is read (or set to the receive time). An event that cannot be
// stored as sent fails alone, with a reason.
//
// The batch is built column by column as events are read, because that is what the store
// writes: the per-event work is a lookup of each key in a cache of known names, not the
// building of per-event objects.
import { type FieldType, widenFieldType } from '../fields/types';
import { ROW_ID_FIELD, SYS_TIME_FIELD, TIME_FIELD } from '../fields/system-fields';
import type { TimeLayoutParser } from './go-time-layout';
import { nestsDeeperThan } from '../lib/json-depth';
import { MAX_EVENT_BYTES, MAX_EVENT_DEPTH, MAX_FIELD_NAME_BYTES } from './limits';
import type { RawEvent } from './parse-body';
import { Timespan } from './timespan';
import { abbreviate, InvalidTimeError, parseTimeValue } from './timestamp';

/**
 * A stored value: text, number, boolean, an array (kept whole, stored as JSON), a timespan
 * (which only format parsers produce; see timespan.ts), or the object under a map field.
 */
export type FieldValue = string | number | boolean | unknown[] | Timespan | RawEvent;

export interface BatchField {
  /** The flattened name (`req.method`). */
  name: string;
  /** The narrowest type that holds every value of the field in the batch. */
  type: FieldType;
  /** One slot per row of the batch; undefined where the event has no value. */
  values: (FieldValue | undefined)[];
  /** False when no stored event holds a value (the field came only from failed events). */
  present: boolean;
  /** First and last rows that may hold a value: every other row holds none. */
  firstRow: number;
  lastRow: number;
}

export interface EventFailure {
  /** Position of the event in the request. */
  index: number;
  /** The event's time when it could be read, else the receive time. */
  time: bigint;
  error: string;
}

export interface PreparedBatch {
  /** Events that passed; each is one row of every field's `values`. */
  rowCount: number;
  /** `_time` of each row, in nanoseconds since the epoch. */
  times: bigint[];
  /** Position in the request of each row, to report later failures in request order. */
  positions: number[];
  fields: BatchField[];
  failures: EventFailure[];
}

export interface PrepareOptions {
  /** `timestamp-field`: where the event time is read from (default `_time`). */
  timestampField?: string;
  /** `timestamp-format`: reads textual times with a Go layout instead of RFC 3339 / epochs. */
  parseTimeText?: TimeLayoutParser;
  receivedAt: Date;
  /** The receive time in nanoseconds, `_time` of events that carry none. */
  receivedNs: bigint;
  /** The dataset's map fields: objects under these names are kept whole, not flattened. */
  mapFields?: ReadonlySet<string>;
}

const INT64_LIMIT = 9_223_372_036_854_775_808; // 2^63, exactly representable

export function fieldTypeOf(value: FieldValue): FieldType {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT ? 'integer' : 'float';
    default:
      if (Array.isArray(value)) return 'array';
      return value instanceof Timespan ? 'timespan' : 'map';
  }
}

class EventRejected extends Error {}

const tooDeep = () => `the event nests objects and arrays deeper than ${MAX_EVENT_DEPTH} levels`;

function checkName(name: string, key: string): void {
  // Three UTF-8 bytes per UTF-16 unit at most, so short names need no counting.
  if (name.length * 3 > MAX_FIELD_NAME_BYTES && Buffer.byteLength(name) > MAX_FIELD_NAME_BYTES) {
    throw new EventRejected(`field name "${abbreviate(name)}" is longer than ${MAX_FIELD_NAME_BYTES} bytes`);
  }
  // DuckDB identifiers cannot hold NUL, and no tool shows such a name sensibly.
  if (key.includes('\u0000')) throw new EventRejected(`field name "${abbreviate(name.replaceAll('\u0000', '\\0'))}" contains a NUL character`);
}

/** The names met under one object path, so each event's keys resolve without building strings. */
interface Scope {
  prefix: string;
  leaves: Map<string, number>;
  children: Map<string, Scope>;
  /** Keys naming map fields: their objects are leaves, kept whole. */
  maps: Map<string, number>;
}

const newScope = (prefix: string): Scope => ({ prefix, leaves: new Map(), children: new Map(), maps: new Map() });
const NO_MAP_FIELDS: ReadonlySet<string> = new Set();

const isObjectValue = (value: object): value is RawEvent => !Array.isArray(value) && !(value instanceof Timespan);

/** Builds the columns of a batch one event at a time. */
export class BatchBuilder {
  readonly fields: BatchField[] = [];
  private readonly byName = new Map<string, number>();
  private readonly root = newScope('');
  private row = 0;
  // Fields written by the event being added, to commit or undo it as a whole.
  private readonly touched: number[] = [];
  private readonly touchedTypes: FieldType[] = [];

  constructor(private readonly mapFields: ReadonlySet<string> = NO_MAP_FIELDS) {}

  get rowCount(): number {
    return this.row;
  }

  /**
   * Adds the event as the next row, or throws EventRejected and leaves no trace of it. `check`
   * runs once the event is known to be well-formed (its depth checked), before it is kept.
   */
  add(event: RawEvent, check?: () => void): void {
    this.touched.length = 0;
    this.touchedTypes.length = 0;
    try {
      this.flatten(event, this.root, 1);
      check?.();
    } catch (error) {
      for (const index of this.touched) this.fields[index]!.values[this.row] = undefined;
      throw error;
    }
    for (let i = 0; i < this.touched.length; i++) {
      const field = this.fields[this.touched[i]!]!;
      const type = this.touchedTypes[i]!;
      if (!field.present) {
        field.present = true;
        field.type = type;
      } else if (field.type !== type) {
        field.type = widenFieldType(field.type, type);
      }
    }
    this.row++;
  }

  private flatten(object: RawEvent, scope: Scope, depth: number): void {
    if (depth > MAX_EVENT_DEPTH) throw new EventRejected(tooDeep());
    for (const key in object) {
      const value = object[key];
      if (value === null || value === undefined) continue;
      if (scope === this.root && (key === TIME_FIELD || key === SYS_TIME_FIELD || key === ROW_ID_FIELD)) continue;
      if (typeof value === 'object' && isObjectValue(value)) {
        const child = scope.children.get(key);
        if (child) {
          this.flatten(value, child, depth + 1);
          continue;
        }
        const target = scope.maps.get(key) ?? this.objectTarget(scope, key);
        if (typeof target === 'number') {
          // A map field's object is kept whole (stored as JSON), so its depth is checked here, once.
          if (nestsDeeperThan(value, MAX_EVENT_DEPTH - depth)) throw new EventRejected(tooDeep());
          this.put(target, value);
        } else this.flatten(value, target, depth + 1);
        continue;
      }
      // Arrays are kept whole (stored as JSON), so their depth is checked here, once.
      if (Array.isArray(value) && nestsDeeperThan(value, MAX_EVENT_DEPTH - depth)) throw new EventRejected(tooDeep());
      const index = scope.leaves.get(key) ?? this.leaf(scope, key);
      this.put(index, typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'object' ? (value as FieldValue) : String(value));
    }
  }

  private put(index: number, stored: FieldValue): void {
    const field = this.fields[index]!;
    field.values[this.row] = stored;
    if (field.firstRow < 0) field.firstRow = this.row;
    field.lastRow = this.row;
    this.touched.push(index);
    this.touchedTypes.push(fieldTypeOf(stored));
  }

  /** Where an object under `key` goes: a map field's leaf (kept whole), or a scope to flatten into. */
  private objectTarget(scope: Scope, key: string): Scope | number {
    const name = this.nameOf(scope, key);
    if (!this.mapFields.has(name)) return this.childScope(scope, key, name);
    const index = this.fieldNamed(name);
    scope.maps.set(key, index);
    return index;
  }

  private nameOf(scope: Scope, key: string): string {
    if (key === '') throw new EventRejected(scope.prefix ? `field "${abbreviate(scope.prefix)}" has a member with an empty name` : 'an empty field name');
    const name = scope.prefix === '' ? key : `${scope.prefix}.${key}`;
    checkName(name, key);
    return name;
  }

  private childScope(scope: Scope, key: string, name = this.nameOf(scope, key)): Scope {
    const child = newScope(name);
    scope.children.set(key, child);
    return child;
  }

  private leaf(scope: Scope, key: string): number {
    const index = this.fieldNamed(this.nameOf(scope, key));
    scope.leaves.set(key, index);
    return index;
  }

  /** The field of that name, created on first use. */
  private fieldNamed(name: string): number {
    // The same name can come from a nested object and from a dotted key ({"a":{"b":1}}, {"a.b":2}).
    let index = this.byName.get(name);
    if (index === undefined) {
      index = this.fields.length;
      this.fields.push({ name, type: 'string', values: [], present: false, firstRow: -1, lastRow: -1 });
      this.byName.set(name, index);
    }
    return index;
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

/** Prepares events one at a time (as a body is read), collecting failures with their positions. */
export class EventPreparer {
  private readonly builder: BatchBuilder;
  private readonly times: bigint[] = [];
  private readonly positions: number[] = [];
  private readonly failures: EventFailure[] = [];
  private readonly timestampField: string | undefined;
  private index = 0;

  constructor(private readonly options: PrepareOptions) {
    this.builder = new BatchBuilder(options.mapFields);
    this.timestampField = options.timestampField && options.timestampField !== TIME_FIELD ? options.timestampField : undefined;
  }

  /**
   * Adds the next event of the request; `size` is its JSON size, or a way to measure it once
   * the event is known to be well-formed (measuring serializes it).
   */
  add(raw: RawEvent, size?: number | (() => number)): void {
    const index = this.index++;
    let time = this.options.receivedNs;
    try {
      const chosen = this.timestampField ? valueAtPath(raw, this.timestampField) : undefined;
      time = readTime(chosen ?? raw[TIME_FIELD], this.options);
      if (typeof size === 'number' && size > MAX_EVENT_BYTES) throw new EventRejected(eventTooLarge(size));
      const measure = typeof size === 'function' ? size : undefined;
      this.builder.add(
        raw,
        measure &&
          (() => {
            const bytes = measure();
            if (bytes > MAX_EVENT_BYTES) throw new EventRejected(eventTooLarge(bytes));
          }),
      );
      this.times.push(time);
      this.positions.push(index);
    } catch (error) {
      if (!(error instanceof EventRejected) && !(error instanceof InvalidTimeError)) throw error;
      const message = error instanceof InvalidTimeError ? `invalid ${this.timestampField ?? TIME_FIELD}: ${error.message}` : error.message;
      this.failures.push({ index, time, error: message });
    }
  }

  finish(): PreparedBatch {
    return { rowCount: this.builder.rowCount, times: this.times, positions: this.positions, fields: this.builder.fields, failures: this.failures };
  }
}

export function prepareEvents(rawEvents: RawEvent[], options: PrepareOptions, sizes?: (number | (() => number))[]): PreparedBatch {
  const preparer = new EventPreparer(options);
  for (let index = 0; index < rawEvents.length; index++) preparer.add(rawEvents[index]!, sizes?.[index]);
  return preparer.finish();
}

/** The fields of one row as name -> value, for tests and debugging. */
export function rowOf(batch: PreparedBatch, row: number): Record<string, FieldValue> {
  const fields: Record<string, FieldValue> = {};
  for (const field of batch.fields) {
    const value = field.values[row];
    if (value !== undefined) fields[field.name] = value;
  }
  return fields;
}

export function eventTooLarge(size: number): string {
  return `event is ${size} bytes, more than the ${MAX_EVENT_BYTES} bytes an event may take`;
}

/** Big integers (nanosecond times, 64-bit counters from binary formats) count as their digits. */
const bigintAsDigits = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/** UTF-8 size of an event's JSON text; serializes it, so only for events of known depth. */
export function measureEventSize(event: RawEvent): number {
  let text: string;
  try {
    // Without a replacer JSON.stringify stays in native code; only bigints need the slow path.
    text = JSON.stringify(event);
  } catch {
    text = JSON.stringify(event, bigintAsDigits);
  }
  return Buffer.byteLength(text);
}
