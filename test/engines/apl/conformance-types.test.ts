// Conformance of APL over the stored field types beyond the plain scalars (timespan fields, map
// fields, mixed-type fields), over virtual fields and over views.
// Each expected answer is computed by plain JS over the fixture events (or written by hand),
// never by the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';

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

interface MixedEvent {
  _time: string;
  _rowId: bigint;
  id: number;
  /** A field whose values have several types, each kept as its own. */
  v?: unknown;
}

const MIXED: MixedEvent[] = [
  { _time: '2024-05-01T00:00:00Z', _rowId: 21n, id: 1, v: 'a' },
  { _time: '2024-05-01T00:01:00Z', _rowId: 22n, id: 2, v: 1 },
  { _time: '2024-05-01T00:02:00Z', _rowId: 23n, id: 3, v: true },
  { _time: '2024-05-01T00:03:00Z', _rowId: 24n, id: 4, v: 2.5 },
  { _time: '2024-05-01T00:04:00Z', _rowId: 25n, id: 5, v: ['x', 2] },
  { _time: '2024-05-01T00:05:00Z', _rowId: 26n, id: 6, v: 'true' },
  { _time: '2024-05-01T00:06:00Z', _rowId: 27n, id: 7 },
  { _time: '2024-05-01T00:07:00Z', _rowId: 28n, id: 8, v: false },
];

/** Kusto's type names, by plain JS inspection of the fixture value. */
function kustoType(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'long' : 'real';
  return 'string';
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
  // Virtual fields over the spans: in order, each may use those before; `service` replaces the
  // stored field of that name; `broken` reads a field that does not exist.
  const spans = db.datasets.get('spans')!;
  db.datasets.set('spans_virtual', {
    ...spans,
    name: 'spans_virtual',
    virtualFields: [
      { name: 'ms', expression: 'latency / 1ms' },
      { name: 'slow', expression: 'ms > 100' },
      { name: 'label', expression: "strcat(service, iff(slow, '!', ''))" },
      { name: 'broken', expression: 'nosuchfield + 1' },
      { name: 'service', expression: 'toupper(service)' },
    ],
  });
  // Views: named queries used as sources.
  db.views.set('slow_spans', "['spans'] | where latency > 100ms | extend ms = latency / 1ms");
  db.views.set('per_service', "let floor = 10ms; ['spans'] | where latency >= floor | summarize n = count(), worst = max(latency) by service");
  db.views.set('on_view', "['slow_spans'] | count");
  // The same mixed-type events kept in a JSON column (the default) and in a VARIANT.
  for (const [name, storedAs] of [['mixed', undefined], ['mixed_variant', 'VARIANT']] as const) {
    await addDataset(
      db,
      name,
      [
        { name: 'id', type: 'integer' },
        { name: 'v', type: 'string|integer|float|boolean|array', ...(storedAs ? { storedAs } : {}) },
      ],
      MIXED.map((e) => ({ ...e, _rowId: e._rowId + (storedAs ? 100n : 0n) })) as never,
    );
  }
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

describe('virtual fields', () => {
  const ms = (s: Span) => Number(s.latency) / 1e6;
  const label = (s: Span) => `${s.service}${ms(s) > 100 ? '!' : ''}`;
  cases([
    {
      apl: "['spans_virtual'] | where slow | project label, ms",
      expected: () => SPANS.filter((s) => ms(s) > 100).map((s) => ({ label: label(s), ms: ms(s) })),
    },
    {
      apl: "['spans_virtual'] | summarize n = count(), total = sum(ms) by slow",
      expected: () =>
        [true, false].flatMap((slow) => {
          const mine = SPANS.filter((s) => ms(s) > 100 === slow);
          return mine.length ? [{ slow, n: mine.length, total: mine.reduce((sum, s) => sum + ms(s), 0) }] : [];
        }),
    },
    {
      apl: "['spans_virtual'] | top 2 by ms | project service, label",
      expected: () =>
        [...SPANS]
          .sort((a, b) => ms(b) - ms(a))
          .slice(0, 2)
          .map((s) => ({ service: s.service.toUpperCase(), label: label(s) })),
    },
    {
      apl: "['spans_virtual'] | where _rowId == 1",
      expected: () => {
        const s = SPANS[0]!;
        return [{ _time: s._time, _sysTime: s._time, service: s.service.toUpperCase(), latency: millisText(s.latency), ms: ms(s), slow: ms(s) > 100, label: label(s) }];
      },
    },
    {
      apl: "['spans_virtual'] | getschema | project ColumnName, DataType",
      expected: () =>
        [
          ['_time', 'datetime'],
          ['_sysTime', 'datetime'],
          ['latency', 'timespan'],
          ['ms', 'float'],
          ['slow', 'boolean'],
          ['label', 'string'],
          ['service', 'string'],
        ].map(([ColumnName, DataType]) => ({ ColumnName, DataType })),
    },
    {
      apl: "['spans_virtual'] | extend twice = ms * 2 | where label endswith '!' | project twice",
      expected: () => SPANS.filter((s) => ms(s) > 100).map((s) => ({ twice: ms(s) * 2 })),
    },
  ]);

  it('refers a query that names a virtual field that cannot be evaluated to its cause', async () => {
    await expect(db.rows("['spans_virtual'] | project broken")).rejects.toThrow(/virtual field "broken" cannot be evaluated: .*unknown field "nosuchfield"/);
  });
});

describe('views', () => {
  const slow = () => SPANS.filter((s) => s.latency > 100n * MS);
  cases([
    {
      apl: "['slow_spans'] | project service, ms",
      expected: () => slow().map((s) => ({ service: s.service, ms: Number(s.latency) / 1e6 })),
    },
    {
      apl: "['slow_spans'] | summarize total = sum(ms) by service",
      expected: () =>
        [...new Set(slow().map((s) => s.service))].map((service) => ({
          service,
          total: slow()
            .filter((s) => s.service === service)
            .reduce((sum, s) => sum + Number(s.latency) / 1e6, 0),
        })),
    },
    {
      apl: "['per_service'] | where n > 1 | project service, worst",
      expected: () => {
        const kept = SPANS.filter((s) => s.latency >= 10n * MS);
        return [...new Set(kept.map((s) => s.service))].flatMap((service) => {
          const mine = kept.filter((s) => s.service === service);
          const worst = mine.reduce((max, s) => (s.latency > max ? s.latency : max), 0n);
          return mine.length > 1 ? [{ service, worst: millisText(worst) }] : [];
        });
      },
    },
    {
      apl: "union ['slow_spans'], ['spans'] | summarize n = count()",
      expected: () => [{ n: slow().length + SPANS.length }],
    },
    {
      apl: "['spans'] | join kind=inner (['per_service'] | project service, n) on service | project service, latency, n",
      expected: () => {
        const counts = new Map<string, number>();
        for (const s of SPANS.filter((x) => x.latency >= 10n * MS)) counts.set(s.service, (counts.get(s.service) ?? 0) + 1);
        return SPANS.filter((s) => counts.has(s.service)).map((s) => ({ service: s.service, latency: millisText(s.latency), n: counts.get(s.service)! }));
      },
    },
  ]);

  it('applies the request time range to the scans inside a view', async () => {
    const rows = await db.rows("['slow_spans'] | project service", { startTime: '2024-05-01T00:02:00Z', endTime: '2024-05-01T00:02:30Z' });
    expect(rows).toEqual(slow().filter((s) => s._time === '2024-05-01T00:02:00Z').map((s) => ({ service: s.service })));
  });

  it('does not let a view read another view', async () => {
    await expect(db.rows("['on_view']")).rejects.toThrow(/view "on_view": .*unknown dataset "slow_spans"/);
  });
});

const MIXED_CASES: { apl: string; expected: () => Row[] }[] = [
  {
    apl: "['mixed'] | project id, v",
    expected: () => MIXED.map((e) => ({ id: e.id, v: e.v ?? null })),
  },
  {
    apl: "['mixed'] | project id, t = gettype(v)",
    expected: () => MIXED.map((e) => ({ id: e.id, t: kustoType(e.v) })),
  },
  {
    apl: "['mixed'] | project id, s = tostring(v)",
    expected: () => MIXED.map((e) => ({ id: e.id, s: e.v === undefined ? '' : typeof e.v === 'string' ? e.v : JSON.stringify(e.v) })),
  },
  {
    apl: "['mixed'] | where v == 'a' | project id",
    expected: () => MIXED.filter((e) => e.v === 'a').map((e) => ({ id: e.id })),
  },
  {
    apl: "['mixed'] | where gettype(v) == 'bool' and v == false | project id",
    expected: () => MIXED.filter((e) => e.v === false).map((e) => ({ id: e.id })),
  },
  {
    apl: "['mixed'] | where v > 2 | project id",
    expected: () => MIXED.filter((e) => typeof e.v === 'number' && e.v > 2).map((e) => ({ id: e.id })),
  },
  {
    apl: "['mixed'] | where isnull(v) | project id",
    expected: () => MIXED.filter((e) => e.v === undefined).map((e) => ({ id: e.id })),
  },
  {
    // The boolean true and the string "true" are two values, in two groups.
    apl: "['mixed'] | summarize n = count() by v",
    expected: () => {
      const groups = new Map<string, { v: unknown; n: number }>();
      for (const e of MIXED) {
        const key = JSON.stringify(e.v ?? null);
        groups.set(key, { v: e.v ?? null, n: (groups.get(key)?.n ?? 0) + 1 });
      }
      return [...groups.values()];
    },
  },
  {
    apl: "['mixed'] | summarize n = count() by t = gettype(v)",
    expected: () => {
      const counts = new Map<string, number>();
      for (const e of MIXED) counts.set(kustoType(e.v), (counts.get(kustoType(e.v)) ?? 0) + 1);
      return [...counts].map(([t, n]) => ({ t, n }));
    },
  },
  {
    apl: "['mixed'] | summarize distinct = dcount(v), present = countif(isnotnull(v))",
    expected: () => [
      {
        distinct: new Set(MIXED.filter((e) => e.v !== undefined).map((e) => JSON.stringify(e.v))).size,
        present: MIXED.filter((e) => e.v !== undefined).length,
      },
    ],
  },
  {
    apl: "['mixed'] | where gettype(v) in ('long', 'real') | project id, next = todouble(v) + 1",
    expected: () => MIXED.filter((e) => typeof e.v === 'number').map((e) => ({ id: e.id, next: (e.v as number) + 1 })),
  },
  {
    apl: "['mixed'] | where v contains 'x' | project id",
    expected: () => MIXED.filter((e) => e.v !== undefined && JSON.stringify(e.v).includes('x')).map((e) => ({ id: e.id })),
  },
  {
    apl: "['mixed'] | getschema | where ColumnName == 'v' | project DataType",
    expected: () => [{ DataType: 'string|integer|float|boolean|array' }],
  },
];

describe.each(['mixed', 'mixed_variant'])('mixed-type fields (%s)', (dataset) => {
  cases(MIXED_CASES.map((c) => ({ ...c, apl: c.apl.replace("['mixed']", `['${dataset}']`) })));
});
