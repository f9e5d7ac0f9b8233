// Conformance of APL over the stored field types beyond the plain scalars: timespan fields and
// map fields.
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

interface OtelSpan {
  _time: string;
  _rowId: bigint;
  id: string;
  /** A map field: the object kept whole. */
  'attributes.custom'?: Record<string, unknown>;
  /** A flattened field of the same path, ingested before the map field was declared. */
  'attributes.custom.tier'?: string;
}

const OTEL: OtelSpan[] = [
  { _time: '2024-05-01T00:00:00Z', _rowId: 11n, id: 's1', 'attributes.custom.tier': 'old' },
  { _time: '2024-05-01T00:01:00Z', _rowId: 12n, id: 's2', 'attributes.custom': { 'http.protocol': 'HTTP/1.1', tier: 'gold', 'http.method': 'GET' } },
  { _time: '2024-05-01T00:02:00Z', _rowId: 13n, id: 's3', 'attributes.custom': { 'http.protocol': 'HTTP/2', tier: 'gold', retries: 2 } },
  { _time: '2024-05-01T00:03:00Z', _rowId: 14n, id: 's4', 'attributes.custom': { 'http.protocol': 'HTTP/1.1', tier: 'free', http: { method: 'POST' } } },
];
const custom = (span: OtelSpan, key: string) => span['attributes.custom']?.[key];

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
  await addDataset(
    db,
    'otel',
    [
      { name: 'id', type: 'string' },
      { name: 'attributes.custom.tier', type: 'string' },
      { name: 'attributes.custom', type: 'map' },
    ],
    OTEL as never,
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

describe('map fields', () => {
  cases([
    {
      apl: "['otel'] | where ['attributes.custom']['http.protocol'] == 'HTTP/1.1' | project id",
      expected: () => OTEL.filter((s) => custom(s, 'http.protocol') === 'HTTP/1.1').map((s) => ({ id: s.id })),
    },
    {
      apl: "['otel'] | project id, tier = tostring(['attributes.custom'].tier), flat = ['attributes.custom.tier']",
      expected: () => OTEL.map((s) => ({ id: s.id, tier: (custom(s, 'tier') as string | undefined) ?? '', flat: s['attributes.custom.tier'] ?? null })),
    },
    {
      // A dotted path finds a nested key, or else the key holding the dots.
      apl: "['otel'] | where isnotnull(attributes.custom.http.method) | project id, method = tostring(attributes.custom.http.method)",
      expected: () =>
        OTEL.flatMap((s) => {
          const method = (s['attributes.custom']?.http as { method?: string } | undefined)?.method ?? custom(s, 'http.method');
          return method === undefined ? [] : [{ id: s.id, method }];
        }),
    },
    {
      apl: "['otel'] | where isnotnull(['attributes.custom']) | summarize n = count() by tier = tostring(attributes.custom.tier)",
      expected: () => {
        const counts = new Map<string, number>();
        for (const s of OTEL) if (s['attributes.custom']) counts.set(custom(s, 'tier') as string, (counts.get(custom(s, 'tier') as string) ?? 0) + 1);
        return [...counts].map(([tier, n]) => ({ tier, n }));
      },
    },
    {
      apl: "['otel'] | extend retries = toint(['attributes.custom']['retries']) | where retries > 1 | project id, retries",
      expected: () => OTEL.filter((s) => Number(custom(s, 'retries') ?? 0) > 1).map((s) => ({ id: s.id, retries: custom(s, 'retries') })),
    },
    {
      apl: "['otel'] | where id == 's3' | project ['attributes.custom']",
      expected: () => [{ 'attributes.custom': OTEL[2]!['attributes.custom'] }],
    },
  ]);
});
