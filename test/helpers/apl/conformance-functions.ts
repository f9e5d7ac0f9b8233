// The fixture of the per-family function conformance tests: a small dataset whose events
// exercise text, numbers, booleans, addresses, arrays, bags and series (one event is nearly
// empty, for nulls), and table helpers. Expected values are written by hand or computed here
// in plain JS, never by the engine.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FieldType } from '../../../src/fields/types';
import { addDataset, createTestDatabase, type TestDatabase } from './fixtures';
import { onClickHouse } from './unsupported-on-clickhouse';

export interface FxEvent {
  _time: string;
  id: number;
  text?: string;
  n?: number;
  x?: number;
  flag?: boolean;
  ip?: string;
  ip6?: string;
  arr?: unknown[];
  bag?: Record<string, unknown>;
  series?: (number | null)[];
  group?: string;
}

export const FX_FIELDS: { name: string; type: FieldType }[] = [
  { name: 'id', type: 'integer' },
  { name: 'text', type: 'string' },
  { name: 'n', type: 'integer' },
  { name: 'x', type: 'float' },
  { name: 'flag', type: 'boolean' },
  { name: 'ip', type: 'string' },
  { name: 'ip6', type: 'string' },
  { name: 'arr', type: 'array' },
  { name: 'bag', type: 'array' },
  { name: 'series', type: 'array' },
  { name: 'group', type: 'string' },
];

export const FX: FxEvent[] = [
  { _time: '2024-03-01T10:00:00Z', id: 1, text: 'Hello, World', n: 42, x: 3.75, flag: true, ip: '10.1.2.3', ip6: '2001:db8::10', arr: ['b', 'a', 'c'], bag: { k: 'v', n: 2 }, series: [1, 2, 3, 4], group: 'g1' },
  { _time: '2024-03-01T10:30:00Z', id: 2, text: '  padded text  ', n: -7, x: -0.5, flag: false, ip: '192.168.10.20', ip6: 'fd00::1', arr: [3, 1, 2], bag: { a: { b: 1 } }, series: [null, 5, null, 9], group: 'g1' },
  { _time: '2024-03-01T11:15:00Z', id: 3, text: 'über café', n: 0, x: 1000, flag: true, ip: '8.8.8.8', ip6: '::ffff:8.8.8.8', arr: [], bag: {}, series: [2, 4, 6, 8], group: 'g2' },
  { _time: '2024-03-01T12:45:00Z', id: 4, text: 'a1b22c333', n: 1024, x: 2.5, ip: '172.16.5.4', arr: [1, 'two', null], series: [10, 20, 30], group: 'g2' },
  { _time: '2024-03-02T08:00:00Z', id: 5, text: 'GET /api/v2/orders?id=17&x=a%20b', n: 5, x: 0.1, flag: false, ip: 'not an ip', arr: ['x'], bag: { k: 'w' }, series: [3, 1, 2], group: 'g2' },
  { _time: '2024-03-02T09:00:00Z', id: 6 },
];

export const byId = (id: number) => FX.find((e) => e.id === id)!;

let database: TestDatabase | undefined;

/** Opens the fixture database around the file's tests. */
export function useFixture(): () => TestDatabase {
  beforeAll(async () => {
    database = await createTestDatabase('2024-03-05T00:00:00Z');
    await addDataset(database, 'fx', FX_FIELDS, FX as never);
  });
  afterAll(() => database?.close());
  return () => database!;
}

/**
 * Floats rounded to 12 significant digits (and rounding noise below 1e-9 to zero), recursively,
 * so sums in another order compare equal.
 */
export function normalize(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isInteger(value)) return Math.abs(value) < 1e-9 ? 0 : Number(value.toPrecision(12));
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  return value;
}

/** `expression` evaluated on event 1 gives `expected`, one test per case. */
export function scalars(db: () => TestDatabase, cases: [string, unknown][]): void {
  for (const [expression, expected] of cases) {
    it(expression, () =>
      onClickHouse(async () => {
        const rows = await db().rows(`['fx'] | where id == 1 | project v = ${expression}`);
        expect(normalize(rows)).toEqual([{ v: normalize(expected) }]);
      }, expression),
    );
  }
}

/** `expression` evaluated on every event gives `compute(event)`. */
export function perEvent(db: () => TestDatabase, cases: [string, (e: FxEvent) => unknown][]): void {
  for (const [expression, compute] of cases) {
    it(`every event: ${expression}`, () =>
      onClickHouse(async () => {
        const rows = await db().rows(`['fx'] | project id, v = ${expression} | sort by id asc`);
        expect(normalize(rows)).toEqual(normalize(FX.map((e) => ({ id: e.id, v: compute(e) }))));
      }, expression),
    );
  }
}
