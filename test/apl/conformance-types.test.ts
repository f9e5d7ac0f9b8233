// Conformance of APL over the stored field types beyond the plain scalars: timespan fields.
// Each expected answer is computed by plain JS over the fixture events (or written by hand),
// never by the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDataset, createTestDatabase, type TestDatabase } from './fixtures';

type Row = Record<string, unknown>;

interface Span {
  _time: string;
  _rowId: bigint;
  service: string;
  /** Nanoseconds. */
  latency: bigint;
}

const MS = 1_000_000n;
const SPANS: Span[] = [
  { _time: '2024-05-01T00:00:00Z', _rowId: 1n, service: 'cart', latency: 40n * MS },
  { _time: '2024-05-01T00:01:00Z', _rowId: 2n, service: 'cart', latency: 160n * MS },
  { _time: '2024-05-01T00:02:00Z', _rowId: 3n, service: 'pay', latency: 1_200n * MS },
  { _time: '2024-05-01T00:03:00Z', _rowId: 4n, service: 'pay', latency: 800n * MS },
  { _time: '2024-05-01T00:04:00Z', _rowId: 5n, service: 'auth', latency: 5n * MS },
];

/** Go's duration text for whole milliseconds below a minute: enough for these fixtures. */
function millisText(nanos: bigint): string {
  const ms = Number(nanos / MS);
  return ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('2024-05-02T00:00:00Z');
  await addDataset(
    db,
    'spans',
    [
      { name: 'service', type: 'string' },
      { name: 'latency', type: 'timespan' },
    ],
    SPANS as never,
  );
});
afterAll(() => db.close());

const sortRows = (rows: Row[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

function cases(list: { apl: string; expected: () => Row[] }[]) {
  for (const c of list) it(c.apl, async () => expect(sortRows(await db.rows(c.apl))).toEqual(sortRows(c.expected())));
}

describe('timespan fields', () => {
  cases([
    {
      apl: "['spans'] | where latency > 100ms | project service, latency",
      expected: () => SPANS.filter((s) => s.latency > 100n * MS).map((s) => ({ service: s.service, latency: millisText(s.latency) })),
    },
    {
      apl: "['spans'] | where latency <= totimespan('40ms') | project service",
      expected: () => SPANS.filter((s) => s.latency <= 40n * MS).map((s) => ({ service: s.service })),
    },
    {
      apl: "['spans'] | extend ms = latency / 1ms | project service, ms",
      expected: () => SPANS.map((s) => ({ service: s.service, ms: Number(s.latency) / 1e6 })),
    },
    {
      apl: "['spans'] | summarize total = sum(latency), slowest = max(latency), n = count() by service",
      expected: () =>
        [...new Set(SPANS.map((s) => s.service))].map((service) => {
          const mine = SPANS.filter((s) => s.service === service);
          const total = mine.reduce((sum, s) => sum + s.latency, 0n);
          const slowest = mine.reduce((max, s) => (s.latency > max ? s.latency : max), 0n);
          return { service, total: millisText(total), slowest: millisText(slowest), n: mine.length };
        }),
    },
    {
      apl: "['spans'] | summarize mean = avg(latency)",
      expected: () => [{ mean: millisText(SPANS.reduce((sum, s) => sum + s.latency, 0n) / BigInt(SPANS.length)) }],
    },
    {
      apl: "['spans'] | summarize seconds = sum(latency) / 1s",
      expected: () => [{ seconds: Number(SPANS.reduce((sum, s) => sum + s.latency, 0n)) / 1e9 }],
    },
    {
      apl: "['spans'] | top 2 by latency desc | project service, latency",
      expected: () =>
        [...SPANS]
          .sort((a, b) => Number(b.latency - a.latency))
          .slice(0, 2)
          .map((s) => ({ service: s.service, latency: millisText(s.latency) })),
    },
    {
      apl: "['spans'] | getschema | where ColumnName == 'latency' | project DataType",
      expected: () => [{ DataType: 'timespan' }],
    },
  ]);
});
