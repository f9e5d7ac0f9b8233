import { describe, expect, it } from 'vitest';
import { compileGoLayout } from '../../../src/ingest/go-time-layout';
import { MAX_EVENT_BYTES } from '../../../src/ingest/limits';
import { fieldTypeOf, measureEventSize, type PrepareOptions, prepareEvents, rowOf, valueAtPath } from '../../../src/ingest/prepare';
import { Timespan } from '../../../src/ingest/timespan';

const receivedAt = new Date('2025-06-15T12:00:00Z');
const receivedNs = BigInt(receivedAt.getTime()) * 1_000_000n;
const options: PrepareOptions = { receivedAt, receivedNs };
const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

function fieldsOf(event: Record<string, unknown>, extra: Partial<PrepareOptions> = {}) {
  const batch = prepareEvents([event], { ...options, ...extra });
  expect(batch.failures).toEqual([]);
  expect(batch.rowCount).toBe(1);
  return {
    time: batch.times[0]!,
    fields: Object.fromEntries(batch.fields.filter((field) => field.present).map((field) => [field.name, { value: field.values[0], type: field.type }])),
  };
}

describe('flattening and typing', () => {
  it('flattens nested objects to dot-separated names and types every value', () => {
    const { fields } = fieldsOf({
      message: 'hi',
      status: 200,
      duration: 1.25,
      ok: false,
      tags: ['a', 1],
      req: { method: 'GET', headers: { host: 'x' } },
      'already.dotted': 1,
    });
    expect(fields).toEqual({
      message: { value: 'hi', type: 'string' },
      status: { value: 200, type: 'integer' },
      duration: { value: 1.25, type: 'float' },
      ok: { value: false, type: 'boolean' },
      tags: { value: ['a', 1], type: 'array' },
      'req.method': { value: 'GET', type: 'string' },
      'req.headers.host': { value: 'x', type: 'string' },
      'already.dotted': { value: 1, type: 'integer' },
    });
  });

  it('keeps arrays of objects whole instead of flattening into them', () => {
    expect(fieldsOf({ spans: [{ id: 1 }, { id: 2 }] }).fields).toEqual({ spans: { value: [{ id: 1 }, { id: 2 }], type: 'array' } });
  });

  it('skips nulls and empty objects, which hold no value', () => {
    expect(fieldsOf({ a: null, b: {}, c: { d: null }, e: 1 }).fields).toEqual({ e: { value: 1, type: 'integer' } });
  });

  it('types whole numbers beyond int64 as floats', () => {
    expect(fieldTypeOf(9_223_372_036_854_775_807)).toBe('float'); // rounds to 2^63, outside int64
    expect(fieldTypeOf(-9_223_372_036_854_775_808)).toBe('integer');
    expect(fieldTypeOf(1e300)).toBe('float');
  });

  it('takes _time out of the fields and drops the server-assigned _sysTime and _rowId', () => {
    const { time, fields } = fieldsOf({ _time: '2024-01-02T03:04:05Z', _sysTime: 'x', _rowId: 7, nested: { _time: 'kept' } });
    expect(time).toBe(ns('2024-01-02T03:04:05Z'));
    expect(fields).toEqual({ 'nested._time': { value: 'kept', type: 'string' } });
  });
});

describe('the columnar batch', () => {
  it('puts each field in one column, one slot per stored event', () => {
    const batch = prepareEvents([{ a: 1, b: 'x' }, { b: 'y', c: true }, { a: 3 }], options);
    expect(batch.fields.map((field) => [field.name, field.type, field.values])).toEqual([
      ['a', 'integer', [1, undefined, 3]],
      ['b', 'string', ['x', 'y']],
      ['c', 'boolean', [undefined, true]],
    ]);
    expect(rowOf(batch, 1)).toEqual({ b: 'y', c: true });
  });

  it('widens a field over the batch: integer and float meet at float, other mixes make it mixed', () => {
    const batch = prepareEvents([{ n: 1, m: true, k: [1] }, { n: 2.5, m: 'yes', k: 2 }, { k: 'x', m: false }], options);
    expect(batch.fields.map((field) => `${field.name}:${field.type}`)).toEqual(['n:float', 'm:string|boolean', 'k:string|integer|array']);
    expect(batch.fields.map((field) => field.values)).toEqual([[1, 2.5], [true, 'yes', false], [[1], 2, 'x']]);
  });

  it('types timespans from format parsers as timespan, nested ones too, and mixes them with other types', () => {
    const batch = prepareEvents(
      [
        { duration: Timespan.of(1500, 'us'), span: { wait: Timespan.of(2, 's') }, both: Timespan.of(3n) },
        { duration: Timespan.of(-7n), both: 4 },
      ],
      options,
    );
    expect(batch.fields.map((field) => `${field.name}:${field.type}`)).toEqual(['duration:timespan', 'span.wait:timespan', 'both:integer|timespan']);
    expect((batch.fields[0]!.values as Timespan[]).map((value) => value.nanoseconds)).toEqual([1_500_000n, -7n]);
    expect((batch.fields[1]!.values as Timespan[])[0]!.nanoseconds).toBe(2_000_000_000n);
    expect(fieldTypeOf(Timespan.of(0))).toBe('timespan');
  });

  it('builds timespans from amounts of a unit and from two instants, and prints them as Go does', () => {
    expect(Timespan.of(1.5, 'ms').nanoseconds).toBe(1_500_000n);
    expect(Timespan.of(2n, 's').nanoseconds).toBe(2_000_000_000n);
    expect(Timespan.between(1_000n, 251_000n).nanoseconds).toBe(250_000n);
    expect([Timespan.of(1500, 'us'), Timespan.of(90, 's'), Timespan.of(999n), Timespan.of(0)].map(String)).toEqual(['1.5ms', '1m30s', '999ns', '0s']);
    expect(JSON.stringify({ d: Timespan.of(250, 'ms') })).toBe('{"d":"250ms"}');
    expect(() => Timespan.of(Number.NaN)).toThrow(RangeError);
  });

  it('keeps the objects under map fields whole, at any depth, and flattens everything else', () => {
    const mapFields = new Set(['attributes.custom', 'geo']);
    const batch = prepareEvents(
      [
        { attributes: { custom: { 'http.protocol': 'HTTP/1.1', retries: 2, nested: { deep: true } }, service: 'api' }, geo: { city: 'Oslo' } },
        { 'attributes.custom': { other: 1 }, geo: 'unknown', attributes: { custom: null } },
        { geo: {}, other: { geo: { city: 'x' } } },
      ],
      { ...options, mapFields },
    );
    expect(batch.failures).toEqual([]);
    expect(batch.fields.map((field) => [field.name, field.type, field.values])).toEqual([
      ['attributes.custom', 'map', [{ 'http.protocol': 'HTTP/1.1', retries: 2, nested: { deep: true } }, { other: 1 }]],
      ['attributes.service', 'string', ['api']],
      ['geo', 'map', [{ city: 'Oslo' }, 'unknown', {}]],
      ['other.geo.city', 'string', [undefined, undefined, 'x']],
    ]);
    expect(fieldTypeOf({ a: 1 })).toBe('map');
  });

  it('merges a nested field and a dotted key of the same name, the later one winning', () => {
    const batch = prepareEvents([{ a: { b: 1 }, 'a.b': 2 }, { 'a.b': 3 }, { a: { b: 4 } }], options);
    expect(batch.fields.map((field) => [field.name, field.values])).toEqual([['a.b', [2, 3, 4]]]);
  });

  it('leaves no trace of a failed event in the columns', () => {
    const batch = prepareEvents([{ a: 1 }, { a: 'half', fresh: 1, [''.padEnd(201, 'z')]: 1 }, { a: 2 }], options);
    expect(batch.rowCount).toBe(2);
    const a = batch.fields.find((field) => field.name === 'a')!;
    expect(a.values).toEqual([1, 2]);
    expect(a.type).toBe('integer');
    expect(batch.fields.find((field) => field.name === 'fresh')!.present).toBe(false);
  });
});

describe('event time', () => {
  it('uses the receive time when _time is absent or null', () => {
    expect(fieldsOf({ a: 1 }).time).toBe(receivedNs);
    expect(fieldsOf({ _time: null }).time).toBe(receivedNs);
  });

  it('reads another field with timestamp-field, nested or flat, and keeps that field', () => {
    const { time, fields } = fieldsOf({ ts: 1_704_164_645 }, { timestampField: 'ts' });
    expect(time).toBe(ns('2024-01-02T03:04:05Z'));
    expect(fields.ts).toEqual({ value: 1_704_164_645, type: 'integer' });
    expect(fieldsOf({ req: { at: '2024-01-02T03:04:05Z' } }, { timestampField: 'req.at' }).time).toBe(ns('2024-01-02T03:04:05Z'));
    expect(fieldsOf({ 'req.at': '2024-01-02' }, { timestampField: 'req.at' }).time).toBe(ns('2024-01-02T00:00:00Z'));
  });

  it('falls back to _time, then the receive time, when the timestamp-field is missing', () => {
    expect(fieldsOf({ _time: '2024-01-02T00:00:00Z' }, { timestampField: 'ts' }).time).toBe(ns('2024-01-02T00:00:00Z'));
    expect(fieldsOf({ other: 1 }, { timestampField: 'ts' }).time).toBe(receivedNs);
  });

  it('reads textual times with timestamp-format, numbers still as epochs', () => {
    const parseTimeText = compileGoLayout('02/01/2006 15:04');
    expect(fieldsOf({ _time: '24/12/2023 18:30' }, { parseTimeText }).time).toBe(ns('2023-12-24T18:30:00Z'));
    expect(fieldsOf({ _time: 1_704_164_645_000 }, { parseTimeText }).time).toBe(ns('2024-01-02T03:04:05Z'));
  });

  it('finds values at dotted paths through nested and flat keys', () => {
    expect(valueAtPath({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
    expect(valueAtPath({ 'a.b': { c: 2 } }, 'a.b.c')).toBe(2);
    expect(valueAtPath({ a: { 'b.c': 3 } }, 'a.b.c')).toBe(3);
    expect(valueAtPath({ a: 1 }, 'a.b')).toBeUndefined();
  });
});

describe('events that fail alone', () => {
  it('reports a bad _time with the receive time and keeps the other events', () => {
    const batch = prepareEvents([{ a: 1 }, { _time: 'soon' }, { a: 2 }], options);
    expect(batch.rowCount).toBe(2);
    expect(batch.positions).toEqual([0, 2]);
    expect(batch.failures).toEqual([{ index: 1, time: receivedNs, error: 'invalid _time: "soon" is neither RFC 3339 / ISO 8601 nor an epoch' }]);
  });

  it('names the timestamp-field in its failures', () => {
    const batch = prepareEvents([{ ts: true }], { ...options, timestampField: 'ts' });
    expect(batch.failures[0]!.error).toBe('invalid ts: expected a string or a number, got a boolean');
  });

  it('refuses field names over 200 bytes of UTF-8, counting multi-byte characters', () => {
    const ascii200 = 'a'.repeat(200);
    const accented = 'é'.repeat(101); // 202 bytes, 101 characters
    const batch = prepareEvents([{ [ascii200]: 1 }, { [`${ascii200}b`]: 1 }, { [accented]: 1 }, { deep: { [ascii200]: 1 } }], options);
    expect(batch.positions).toEqual([0]);
    expect(batch.failures.map((failure) => [failure.index, failure.error.replace(/".*"/, '"…"')])).toEqual([
      [1, 'field name "…" is longer than 200 bytes'],
      [2, 'field name "…" is longer than 200 bytes'],
      [3, 'field name "…" is longer than 200 bytes'],
    ]);
  });

  it('refuses empty field names and names holding NUL', () => {
    const batch = prepareEvents([{ '': 1 }, { a: { '': 1 } }, { 'x\u0000y': 1 }], options);
    expect(batch.failures.map((failure) => failure.error)).toEqual([
      'an empty field name',
      'field "a" has a member with an empty name',
      'field name "x\\0y" contains a NUL character',
    ]);
  });

  it('refuses events over 1 MB by their measured size', () => {
    const big = { blob: 'x'.repeat(MAX_EVENT_BYTES) };
    const small = { blob: 'x'.repeat(MAX_EVENT_BYTES - 100) };
    const events = [big, small];
    const sizes = events.map(measureEventSize);
    expect(sizes[0]).toBeGreaterThan(MAX_EVENT_BYTES);
    expect(sizes[1]).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    const batch = prepareEvents(events, options, sizes);
    expect(batch.positions).toEqual([1]);
    expect(batch.failures[0]!.error).toBe(`event is ${sizes[0]} bytes, more than the 1048576 bytes an event may take`);
  });

  it('fails an event nested deeper than 100 levels alone, however it nests, and keeps the others', () => {
    let deepObject: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deepObject = { a: deepObject };
    let deepArray: unknown = [1];
    for (let i = 0; i < 10_000; i++) deepArray = [deepArray];
    // 99 levels of objects under the event: 100 with the event itself, the most allowed.
    let fits: Record<string, unknown> = { z: 1 };
    for (let i = 0; i < 98; i++) fits = { y: fits };
    const events = [{ ok: 1 }, { nested: deepObject }, { list: deepArray }, { f: fits }, { ok: 2 }];
    // Lazily measured sizes: a depth failure must come before serializing the event.
    const batch = prepareEvents(events, options, events.map((event) => () => measureEventSize(event)));
    expect(batch.positions).toEqual([0, 3, 4]);
    // Nested objects reach the 200-byte field name limit about as soon as the depth limit.
    expect(batch.failures.map((failure) => failure.index)).toEqual([1, 2]);
    expect(batch.failures[0]!.error).toMatch(/deeper than 100 levels|is longer than 200 bytes/);
    expect(batch.failures[1]!.error).toBe('the event nests objects and arrays deeper than 100 levels');
    expect(batch.fields.map((field) => field.name)).toContain(`f.${'y.'.repeat(98)}z`);
  });
});
