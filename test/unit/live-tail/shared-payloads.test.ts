// The subscription payload serializer writes what JSON.stringify writes, and writes an array
// element shared by several payloads once.
import { describe, expect, it, vi } from 'vitest';
import { stringifySharing } from '../../../src/graphql/server/shared-payloads';

describe('stringifySharing', () => {
  it('writes the same text as JSON.stringify', () => {
    const when = new Date(Date.UTC(2025, 2, 4, 5, 6, 7, 8));
    const values: unknown[] = [
      null,
      0,
      -1.5,
      'quote " and \\ and \n and \u2028',
      [],
      {},
      [1, 'two', null, undefined, () => 3, { a: undefined, b: [undefined] }],
      { data: { liveEvents: { skipped: 7, events: [{ time: 't', rowId: '12', data: { 'a.b': 1, nested: { deep: [true, false] } } }] } } },
      { when, list: [when, { when }], text: 'é☃', symbolValue: Symbol('x'), fn() {} },
      { errors: [{ message: 'no', path: ['liveEvents'], extensions: { code: 'FORBIDDEN' } }], data: null },
      Object.assign(Object.create(null), { bare: 1 }),
      [Number.NaN, Infinity, -0],
    ];
    for (const value of values) expect(stringifySharing(value)).toBe(JSON.stringify(value) ?? 'null');
  });

  it('writes an element object once, however many payloads carry it', () => {
    const event = { time: '2025-01-01T00:00:00Z', rowId: '1', data: { status: 200 } };
    const first = { data: { liveEvents: { skipped: 0, events: [event] } } };
    const second = { data: { liveEvents: { skipped: 3, events: [event, event] } } };
    const spy = vi.spyOn(JSON, 'stringify');
    let texts: string[];
    let eventWrites: number;
    try {
      texts = [stringifySharing(first), stringifySharing(second), stringifySharing(first)];
      eventWrites = spy.mock.calls.filter(([value]) => value === event).length;
    } finally {
      spy.mockRestore();
    }
    expect(eventWrites).toBe(1);
    expect(texts).toEqual([JSON.stringify(first), JSON.stringify(second), JSON.stringify(first)]);
  });
});
