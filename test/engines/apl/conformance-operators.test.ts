// The conformance table of tabular operators and statements: each query over the shipment and
// carrier events, its answer computed independently by plain JS over the same events.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTerm, iso, ms, terms } from '../../helpers/apl/conformance-data';
import { check, failure, type Row, table } from '../../helpers/apl/conformance-helpers';
import { CARRIER_FIELDS, CARRIERS as C, SHIPMENT_FIELDS, SHIPMENTS as S, type Shipment } from '../../helpers/apl/conformance-operators-data';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';

let db: TestDatabase;
const getDb = () => db;

beforeAll(async () => {
  db = await createTestDatabase('2024-05-02T00:00:00Z');
  await addDataset(db, 'shipments', SHIPMENT_FIELDS, S as never);
  await addDataset(db, 'carriers', CARRIER_FIELDS, C as never);
});

afterAll(() => db.close());

const one = (values: Row) => () => [values];
const tracking = (rows: Shipment[]) => () => rows.map((x) => ({ tracking: x.tracking }));
const count = (n: number) => one({ count: n });
const t = (time: string) => `2024-05-01T${time}Z`;
const newestFirst = [...S].sort((a, b) => ms(b._time) - ms(a._time));
/** What `search` and `* has` look at: the string fields and the text of the dynamic ones. */
const searchable = (x: Shipment) =>
  [x.carrier, x.region, x.note, x.tracking, x.email, x.state, x.items === null ? null : JSON.stringify(x.items), x.attrs === null ? null : JSON.stringify(x.attrs)].filter(
    (v): v is string => v !== null,
  );
const counted = <T>(items: T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

describe('statements', () => {
  table(getDb, [
    { apl: "let heavy = (w:real, limit:real = 5.0) { w > limit }; ['shipments'] | where heavy(weight) | project tracking", expected: tracking(S.filter((x) => x.weight > 5)) },
    { apl: "let heavy = (w:real, limit:real = 5.0) { w > limit }; ['shipments'] | where heavy(weight, limit = 9.5) | project tracking", expected: tracking(S.filter((x) => x.weight > 9.5)) },
    {
      apl: "let price = (w:real) { let rate = 1.5; round(w * rate, 2) }; ['shipments'] | project tracking, p = price(weight)",
      expected: () => S.map((x) => ({ tracking: x.tracking, p: Math.round(x.weight * 1.5 * 100) / 100 })),
    },
    { apl: "let byCarrier = (c:string) { ['shipments'] | where carrier == c }; byCarrier('ups') | count", expected: count(S.filter((x) => x.carrier === 'ups').length) },
    {
      apl: "let eu = view () { ['shipments'] | where region == 'eu' }; eu | summarize n = count() by carrier",
      expected: () => [...counted(S.filter((x) => x.region === 'eu'), (x) => x.carrier)].map(([carrier, n]) => ({ carrier, n })),
    },
    {
      apl: "let heaviest = (T:(weight:real), n:long) { T | top n by weight | project weight }; ['shipments'] | invoke heaviest(3)",
      ordered: true,
      expected: () => S.map((x) => x.weight).sort((a, b) => b - a).slice(0, 3).map((weight) => ({ weight })),
    },
    { apl: "let threshold = 4; let light = ['shipments'] | where weight < threshold; light | project tracking", expected: tracking(S.filter((x) => x.weight < 4)) },
    { apl: "let ds = shipments; let same = ds; same | count", expected: count(S.length) },
    { apl: "set stricttypes; ['shipments'] | where weight >= 8 | count", expected: count(S.filter((x) => x.weight >= 8).length) },
    { apl: "set stricttypes = false; ['shipments'] | where weight >= '8' | count", expected: count(S.filter((x) => x.weight >= 8).length) },
  ]);

  it('refuses comparisons that need a conversion under set stricttypes', async () => {
    const error = await failure(db, "set stricttypes; ['shipments'] | where weight == '8'");
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/line 1, column 47: cannot compare a real with a string using == under set stricttypes/);
  });

  it('refuses unknown query options, recursion and wrong arguments with their position', async () => {
    expect((await failure(db, "set notruncation; ['shipments'] | count")).message).toMatch(/line 1, column 1: unknown query option "notruncation"; this server supports: stricttypes/);
    expect((await failure(db, 'let f = (x:long) { f(x) }; print f(1)')).message).toMatch(/unknown function "f"/);
    expect((await failure(db, "let f = (x:long) { x + 1 }; ['shipments'] | extend y = f(1, 2)")).message).toMatch(/f\(\) takes 1 argument, found 2/);
    expect((await failure(db, "let t = (n:long) { ['shipments'] | take n }; print t(1)")).message).toMatch(/t\(\) returns a table/);
  });
});

describe('sources', () => {
  table(getDb, [
    { apl: "print x = 1 + 2, s = strcat('a', 'b'), 'lone'", expected: one({ x: 3, s: 'ab', print_2: 'lone' }) },
    {
      apl: "datatable(id:long, name:string, at:datetime, tags:dynamic, ok:bool, v:real) [1, 'a', datetime(2024-01-02), dynamic(['x']), true, 1.5, 2, 'b', datetime(2024-01-03T04:05:06Z), dynamic(null), false, 2,]",
      ordered: true,
      expected: () => [
        { id: 1, name: 'a', at: '2024-01-02T00:00:00Z', tags: ['x'], ok: true, v: 1.5 },
        { id: 2, name: 'b', at: '2024-01-03T04:05:06Z', tags: null, ok: false, v: 2 },
      ],
    },
    {
      apl: "datatable(k:string, n:long) ['a', 1, 'b', 2, 'a', 3] | summarize total = sum(n) by k",
      expected: () => [
        { k: 'a', total: 4 },
        { k: 'b', total: 2 },
      ],
    },
    {
      apl: "datatable(a:long, b:string, c:dynamic) [1, 'x', dynamic({})] | getschema | project ColumnName, DataType",
      ordered: true,
      expected: () => [
        { ColumnName: 'a', DataType: 'integer' },
        { ColumnName: 'b', DataType: 'string' },
        { ColumnName: 'c', DataType: 'dynamic' },
      ],
    },
    {
      apl: 'union withsource=src shipments, carriers | summarize n = count() by src',
      expected: () => [
        { src: 'shipments', n: S.length },
        { src: 'carriers', n: C.length },
      ],
    },
    {
      apl: 'union kind=inner shipments, carriers | getschema | project ColumnName',
      ordered: true,
      expected: () => ['_time', '_sysTime', 'carrier'].map((ColumnName) => ({ ColumnName })),
    },
    { apl: 'union isfuzzy=true shipments, no_such_dataset | count', expected: count(S.length) },
    {
      apl: 'union withsource=ds ship*, carr* | summarize n = count() by ds',
      expected: () => [
        { ds: 'shipments', n: S.length },
        { ds: 'carriers', n: C.length },
      ],
    },
    { apl: 'union * | count', expected: count(S.length + C.length) },
    {
      apl: "['carriers'] | union withsource=origin (['shipments'] | where carrier == 'dhl') | summarize n = count() by origin",
      expected: () => [
        { origin: 'carriers', n: C.length },
        { origin: 'union_arg1', n: S.filter((x) => x.carrier === 'dhl').length },
      ],
    },
    {
      apl: 'search in (shipments, carriers) "ups" | project $table, _rowId',
      expected: () => [
        ...S.filter((x) => searchable(x).some((v) => hasTerm(v, 'ups'))).map((x) => ({ $table: 'shipments', _rowId: Number(x._rowId) })),
        ...C.filter((c) => hasTerm(c.carrier, 'ups') || hasTerm(c.country, 'ups')).map((c) => ({ $table: 'carriers', _rowId: Number(c._rowId) })),
      ],
    },
    {
      apl: 'search kind=case_sensitive in (shipments, carriers) "US" | project $table, carrier',
      expected: () => C.filter((c) => c.country === 'US').map((c) => ({ $table: 'carriers', carrier: c.carrier })),
    },
    { apl: 'search "postnl" | project $table, tracking', expected: () => S.filter((x) => x.carrier === 'postnl').map((x) => ({ $table: 'shipments', tracking: x.tracking })) },
    {
      apl: 'find in (shipments, carriers) where rating >= 4 or weight > 10 | project source_, carrier, rating, weight',
      expected: () => [
        ...S.filter((x) => x.weight > 10).map((x) => ({ source_: 'shipments', carrier: x.carrier, rating: null, weight: x.weight })),
        ...C.filter((c) => c.rating >= 4).map((c) => ({ source_: 'carriers', carrier: c.carrier, rating: c.rating, weight: null })),
      ],
    },
    {
      apl: "find in (shipments, carriers) where carrier == 'acme' or state == 'lost' | project-away pack_",
      expected: () => [
        ...C.filter((c) => c.carrier === 'acme').map((c) => ({ source_: 'carriers', carrier: c.carrier, state: null, _time: iso(ms(c._time)), _sysTime: iso(ms(c._time)) })),
        ...S.filter((x) => x.state === 'lost').map((x) => ({ source_: 'shipments', carrier: x.carrier, state: x.state, _time: iso(ms(x._time)), _sysTime: iso(ms(x._time)) })),
      ],
    },
    {
      apl: "find withsource=origin in (shipments, carriers) where carrier == 'fedex' project carrier, country, pack_all() | project origin, carrier, country, r = toint(pack_.rating), w = todouble(pack_.weight)",
      expected: () => [
        ...S.filter((x) => x.carrier === 'fedex').map((x) => ({ origin: 'shipments', carrier: 'fedex', country: null, r: null, w: x.weight })),
        ...C.filter((c) => c.carrier === 'fedex').map((c) => ({ origin: 'carriers', carrier: 'fedex', country: c.country, r: c.rating, w: null })),
      ],
    },
    { apl: "find where state == 'lost' | project source_, tracking", expected: () => S.filter((x) => x.state === 'lost').map((x) => ({ source_: 'shipments', tracking: x.tracking })) },
  ]);

  it('refuses externaldata: there is no outbound network', async () => {
    const error = await failure(db, "externaldata (id:string, name:string) ['https://example.com/people.csv'] with (format='csv', ignoreFirstRecord=true)");
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/line 1, column 1: externaldata .*no outbound network access/);
  });

  it('checks datatable values against its columns', async () => {
    expect((await failure(db, "datatable(a:long, b:string) [1, 'x', 2]")).message).toMatch(/values must come in groups of 2; found 3 values/);
    expect((await failure(db, "datatable(a:datetime) [true]")).message).toMatch(/the value of a must be a datetime, found a bool/);
  });
});

describe('filters, order and projections', () => {
  table(getDb, [
    { apl: "['shipments'] | where * has 'high' | project tracking", expected: tracking(S.filter((x) => searchable(x).some((v) => hasTerm(v, 'high')))) },
    { apl: "['shipments'] | where * !has 'high' | project tracking", expected: tracking(S.filter((x) => !searchable(x).some((v) => hasTerm(v, 'high')))) },
    { apl: "['shipments'] | where * contains 'EXAMPLE.NET' | project tracking", expected: tracking(S.filter((x) => searchable(x).some((v) => v.toLowerCase().includes('example.net')))) },
    { apl: "['shipments'] | where * in~ ('POSTNL', 'lost') | project tracking", expected: tracking(S.filter((x) => searchable(x).some((v) => ['postnl', 'lost'].includes(v.toLowerCase())))) },
    {
      apl: "['shipments'] | sort by email asc nulls last | project tracking",
      ordered: true,
      expected: () => [...S.filter((x) => x.email !== null).sort((a, b) => (a.email! < b.email! ? -1 : 1)), ...S.filter((x) => x.email === null)].map((x) => ({ tracking: x.tracking })),
    },
    {
      apl: "['shipments'] | order by email desc nulls first | take 3 | project tracking",
      ordered: true,
      expected: () =>
        [...S.filter((x) => x.email === null), ...S.filter((x) => x.email !== null).sort((a, b) => (a.email! < b.email! ? 1 : -1))].slice(0, 3).map((x) => ({ tracking: x.tracking })),
    },
    {
      apl: "['shipments'] | take 1 | project-reorder state, *, carrier | getschema | project ColumnName",
      ordered: true,
      expected: () => ['state', '_time', '_sysTime', 'region', 'weight', 'items', 'attrs', 'note', 'tracking', 'email', 'carrier'].map((ColumnName) => ({ ColumnName })),
    },
    {
      apl: "['shipments'] | take 1 | project-reorder t*, *, w* | getschema | project ColumnName",
      ordered: true,
      expected: () => ['tracking', '_time', '_sysTime', 'carrier', 'region', 'items', 'attrs', 'note', 'email', 'state', 'weight'].map((ColumnName) => ({ ColumnName })),
    },
    {
      apl: "['shipments'] | extend-valid w2 = weight * 2 | project tracking, w2",
      expected: () => S.map((x) => ({ tracking: x.tracking, w2: x.weight !== 0 ? x.weight * 2 : null })),
    },
    {
      apl: "['shipments'] | extend-valid carrier = iff(region == 'eu', '', toupper(carrier)) | project tracking, carrier",
      expected: () => S.map((x) => ({ tracking: x.tracking, carrier: x.region === 'eu' ? x.carrier : x.carrier.toUpperCase() })),
    },
    {
      apl: "['shipments'] | extend-valid first = items[0], bag = attrs | project tracking, first, bag",
      expected: () =>
        S.map((x) => ({ tracking: x.tracking, first: x.items?.[0] ?? null, bag: x.attrs !== null && Object.keys(x.attrs).length > 0 ? x.attrs : null })),
    },
  ]);
});

/** The elements mv-expand makes of a value: array items, one-property bags or [key, value] pairs, null as one. */
function elements(value: unknown, bags: 'bag' | 'array' = 'bag'): unknown[] {
  if (value === null || value === undefined) return [null];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') return Object.entries(value).map(([k, v]) => (bags === 'bag' ? { [k]: v } : [k, v]));
  return [value];
}

describe('mv-expand', () => {
  table(getDb, [
    {
      apl: "['shipments'] | mv-expand items | project tracking, items",
      expected: () => S.flatMap((x) => elements(x.items).map((item) => ({ tracking: x.tracking, items: item }))),
    },
    {
      apl: "['shipments'] | mv-expand with_itemindex=i items to typeof(string) | where i > 0 | project tracking, items, i",
      expected: () => S.flatMap((x) => elements(x.items).flatMap((item, i) => (i > 0 ? [{ tracking: x.tracking, items: item, i }] : []))),
    },
    {
      apl: "['shipments'] | mv-expand items limit 1 | project tracking, items",
      expected: () => S.flatMap((x) => elements(x.items).slice(0, 1).map((item) => ({ tracking: x.tracking, items: item }))),
    },
    {
      apl: "['shipments'] | mv-expand attrs | project tracking, attrs",
      expected: () => S.flatMap((x) => elements(x.attrs).map((attr) => ({ tracking: x.tracking, attrs: attr }))),
    },
    {
      apl: "['shipments'] | mv-expand kind=array attrs | project tracking, k = tostring(attrs[0]), v = attrs[1]",
      expected: () =>
        S.flatMap((x) => elements(x.attrs, 'array').map((pair) => ({ tracking: x.tracking, k: pair === null ? '' : (pair as unknown[])[0], v: pair === null ? null : (pair as unknown[])[1] }))),
    },
    {
      apl: "['shipments'] | mv-expand items, attrs | project tracking, items, attrs",
      expected: () =>
        S.flatMap((x) => {
          const a = elements(x.items);
          const b = elements(x.attrs);
          return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => ({ tracking: x.tracking, items: a[i] ?? null, attrs: b[i] ?? null }));
        }),
    },
    {
      apl: "['shipments'] | mv-expand tag = pack_array(carrier, region) to typeof(string) | project tracking, tag",
      expected: () => S.flatMap((x) => [x.carrier, x.region].map((tag) => ({ tracking: x.tracking, tag }))),
    },
    {
      apl: "['shipments'] | where carrier == 'fedex' | mv-expand items | project items",
      ordered: true,
      expected: () => newestFirst.filter((x) => x.carrier === 'fedex').flatMap((x) => elements(x.items).map((items) => ({ items }))),
    },
    {
      apl: "['shipments'] | mv-expand items | summarize n = count() by item = tostring(items) | where item != ''",
      expected: () => [...counted(S.flatMap((x) => x.items ?? []), (item) => item)].map(([item, n]) => ({ item, n })),
    },
  ]);
});

const HOUR = 3_600_000;

/** Bins of `rows` by `at` from `start` in steps of `step` ms (count `n`), each reduced by `reduce`, `fallback` where empty. */
function series<T>(rows: T[], at: (row: T) => number, start: number, step: number, n: number, reduce: (rows: T[]) => number | null, fallback: number): (number | null)[] {
  return Array.from({ length: n }, (_, i) => {
    const inBin = rows.filter((row) => at(row) >= start + i * step && at(row) < start + (i + 1) * step);
    return inBin.length ? reduce(inBin) : fallback;
  });
}
const axis = (start: number, step: number, n: number) => Array.from({ length: n }, (_, i) => iso(start + i * step));
const avg = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('make-series', () => {
  table(getDb, [
    {
      apl: "['shipments'] | make-series count() on _time from datetime(2024-05-01T00:00:00Z) to datetime(2024-05-01T06:00:00Z) step 1h",
      expected: () => {
        const start = ms(t('00:00:00'));
        return [{ count_: series(S, (x) => ms(x._time), start, HOUR, 6, (rows) => rows.length, 0), _time: axis(start, HOUR, 6) }];
      },
    },
    {
      apl: "['shipments'] | make-series avg(weight) default = -1 on _time from datetime(2024-05-01T00:00:00Z) to datetime(2024-05-01T04:00:00Z) step 2h by region",
      expected: () => {
        const start = ms(t('00:00:00'));
        const inRange = S.filter((x) => ms(x._time) < start + 4 * HOUR);
        return [...new Set(inRange.map((x) => x.region))].map((region) => ({
          region,
          avg_weight: series(inRange.filter((x) => x.region === region), (x) => ms(x._time), start, 2 * HOUR, 2, (rows) => avg(rows.map((x) => x.weight)), -1),
          _time: axis(start, 2 * HOUR, 2),
        }));
      },
    },
    {
      apl: "['shipments'] | make-series n = count() on _time from datetime(2024-05-01T00:30:00Z) to datetime(2024-05-01T02:30:00Z) step 1h",
      expected: () => {
        const start = ms(t('00:30:00'));
        return [{ n: series(S, (x) => ms(x._time), start, HOUR, 2, (rows) => rows.length, 0), _time: axis(start, HOUR, 2) }];
      },
    },
    {
      apl: "['shipments'] | make-series n = count(), total = sum(weight) on _time step 2h by carrier",
      expected: () =>
        [...new Set(S.map((x) => x.carrier))].map((carrier) => {
          const rows = S.filter((x) => x.carrier === carrier);
          const bins = rows.map((x) => Math.floor(ms(x._time) / (2 * HOUR)));
          const start = Math.min(...bins) * 2 * HOUR;
          const n = Math.max(...bins) - Math.min(...bins) + 1;
          return {
            carrier,
            n: series(rows, (x) => ms(x._time), start, 2 * HOUR, n, (r) => r.length, 0),
            total: series(rows, (x) => ms(x._time), start, 2 * HOUR, n, (r) => r.reduce((a, x) => a + x.weight, 0), 0),
            _time: axis(start, 2 * HOUR, n),
          };
        }),
    },
    {
      apl: "['shipments'] | make-series count() on _time in range(datetime(2024-05-01T00:00:00Z), datetime(2024-05-01T02:00:00Z), 1h)",
      expected: () => {
        const start = ms(t('00:00:00'));
        return [{ count_: series(S, (x) => ms(x._time), start, HOUR, 3, (rows) => rows.length, 0), _time: axis(start, HOUR, 3) }];
      },
    },
    {
      apl: "['shipments'] | make-series count() on weight from 0 to 15 step 5",
      expected: () => [{ count_: series(S, (x) => x.weight, 0, 5, 3, (rows) => rows.length, 0), weight: [0, 5, 10] }],
    },
    {
      apl: "['shipments'] | make-series n = count() on _time from datetime(2024-05-01T00:00:00Z) to datetime(2024-05-01T03:00:00Z) step 1h | mv-expand n to typeof(long), _time to typeof(datetime) | project _time, n",
      expected: () => {
        const start = ms(t('00:00:00'));
        const counts = series(S, (x) => ms(x._time), start, HOUR, 3, (rows) => rows.length, 0);
        return counts.map((n, i) => ({ _time: iso(start + i * HOUR), n }));
      },
    },
    { apl: "['shipments'] | where carrier == 'none' | make-series count() on _time from datetime(2024-05-01T00:00:00Z) to datetime(2024-05-01T02:00:00Z) step 1h", expected: () => [] },
    {
      apl: "['shipments'] | where carrier == 'none' | make-series kind=nonempty count() on _time from datetime(2024-05-01T00:00:00Z) to datetime(2024-05-01T02:00:00Z) step 1h",
      expected: () => [{ count_: [0, 0], _time: axis(ms(t('00:00:00')), HOUR, 2) }],
    },
  ]);

  it('refuses non-numeric series and non-constant ranges', async () => {
    expect((await failure(db, "['shipments'] | make-series make_set(carrier) on _time step 1h")).message).toMatch(/make-series needs aggregations with numeric results/);
    expect((await failure(db, "['shipments'] | make-series count() on _time from _time step 1h")).message).toMatch(/the start of make-series must be a constant datetime/);
    expect((await failure(db, "['shipments'] | make-series count() on _time step -1h")).message).toMatch(/the step of make-series must be positive/);
  });
});

const carrierRows = C.map((c) => ({ carrier: c.carrier, country: c.country, rating: c.rating }));

describe('join and lookup', () => {
  const right = "(['carriers'] | project carrier, country)";
  const matches = S.flatMap((x) => carrierRows.filter((c) => c.carrier === x.carrier).map((c) => ({ x, c })));
  table(getDb, [
    { apl: `['shipments'] | join kind=inner ${right} on carrier | project tracking, country`, expected: () => matches.map(({ x, c }) => ({ tracking: x.tracking, country: c.country })) },
    { apl: `['shipments'] | join ${right} on carrier | count`, expected: count(matches.length) },
    {
      apl: `['shipments'] | join kind=innerunique ${right} on carrier | project tracking`,
      expected: tracking(S.filter((x) => carrierRows.some((c) => c.carrier === x.carrier))),
    },
    {
      apl: `['shipments'] | join kind=leftouter ${right} on carrier | project tracking, country`,
      expected: () => [
        ...matches.map(({ x, c }) => ({ tracking: x.tracking, country: c.country })),
        ...S.filter((x) => !carrierRows.some((c) => c.carrier === x.carrier)).map((x) => ({ tracking: x.tracking, country: null })),
      ],
    },
    {
      apl: `['shipments'] | join kind=rightouter ${right} on carrier | project tracking, carrier, carrier1, country`,
      expected: () => [
        ...matches.map(({ x, c }) => ({ tracking: x.tracking, carrier: x.carrier, carrier1: c.carrier, country: c.country })),
        ...carrierRows.filter((c) => !S.some((x) => x.carrier === c.carrier)).map((c) => ({ tracking: null, carrier: null, carrier1: c.carrier, country: c.country })),
      ],
    },
    {
      apl: `['shipments'] | join kind=fullouter ${right} on carrier | project tracking, carrier1`,
      expected: () => [
        ...matches.map(({ x, c }) => ({ tracking: x.tracking, carrier1: c.carrier })),
        ...S.filter((x) => !carrierRows.some((c) => c.carrier === x.carrier)).map((x) => ({ tracking: x.tracking, carrier1: null })),
        ...carrierRows.filter((c) => !S.some((x) => x.carrier === c.carrier)).map((c) => ({ tracking: null, carrier1: c.carrier })),
      ],
    },
    { apl: `['shipments'] | join kind=leftanti ${right} on carrier | project tracking`, expected: tracking(S.filter((x) => !carrierRows.some((c) => c.carrier === x.carrier))) },
    { apl: `['shipments'] | join kind=anti ${right} on carrier | project tracking`, expected: tracking(S.filter((x) => !carrierRows.some((c) => c.carrier === x.carrier))) },
    {
      apl: `['shipments'] | join kind=rightanti ${right} on carrier`,
      expected: () => carrierRows.filter((c) => !S.some((x) => x.carrier === c.carrier)).map((c) => ({ carrier: c.carrier, country: c.country })),
    },
    {
      apl: `['shipments'] | join kind=leftsemi ${right} on carrier | project tracking, weight`,
      expected: () => S.filter((x) => carrierRows.some((c) => c.carrier === x.carrier)).map((x) => ({ tracking: x.tracking, weight: x.weight })),
    },
    {
      apl: `['shipments'] | join kind=rightsemi ${right} on carrier`,
      expected: () => carrierRows.filter((c) => S.some((x) => x.carrier === c.carrier)).map((c) => ({ carrier: c.carrier, country: c.country })),
    },
    {
      apl: "['shipments'] | join kind=inner (['carriers'] | project name = carrier, rating) on $left.carrier == $right.name | project tracking, name, rating",
      expected: () => matches.map(({ x, c }) => ({ tracking: x.tracking, name: c.carrier, rating: c.rating })),
    },
    {
      apl: "['shipments'] | join kind=inner (['carriers'] | extend zone = iff(country == 'US', 'us', 'eu') | project carrier, zone, rating) on carrier, $left.region == $right.zone | project tracking, rating",
      expected: () =>
        matches.filter(({ x, c }) => x.region === (c.country === 'US' ? 'us' : 'eu')).map(({ x, c }) => ({ tracking: x.tracking, rating: c.rating })),
    },
    {
      apl: "['shipments'] | lookup (['carriers'] | where _rowId != 405 | project carrier, country) on carrier | project tracking, carrier, country",
      expected: () =>
        S.map((x) => ({ tracking: x.tracking, carrier: x.carrier, country: C.find((c) => c.carrier === x.carrier && c._rowId !== 405n)?.country ?? null })),
    },
    {
      apl: "['shipments'] | lookup kind=inner (['carriers'] | project name = carrier, rating) on $left.carrier == $right.name | project tracking, rating",
      expected: () => matches.map(({ x, c }) => ({ tracking: x.tracking, rating: c.rating })),
    },
    {
      apl: "['shipments'] | lookup (['carriers'] | project name = carrier, carrier = country) on $left.carrier == $right.name | take 1 | getschema | project ColumnName",
      ordered: true,
      expected: () => ['_time', '_sysTime', 'carrier', 'region', 'weight', 'items', 'attrs', 'note', 'tracking', 'email', 'state', 'carrier1'].map((ColumnName) => ({ ColumnName })),
    },
  ]);
});

/** The value of `key` in `note` (pairs split by `;`, key and value by `=`). */
const noteValue = (note: string, key: string) => {
  const pair = note.split(';').find((p) => p.split('=')[0]!.trim() === key);
  return pair === undefined ? null : pair.slice(pair.indexOf('=') + 1).trim();
};

describe('parse-kv and parse-where', () => {
  table(getDb, [
    {
      apl: "['shipments'] | parse-kv note as (prio, zone, eta:long) with (pair_delimiter=';', kv_delimiter='=') | project tracking, prio, zone, eta",
      expected: () =>
        S.map((x) => {
          const eta = noteValue(x.note, 'eta');
          return { tracking: x.tracking, prio: noteValue(x.note, 'prio'), zone: noteValue(x.note, 'zone'), eta: eta === null ? null : Number(eta) };
        }),
    },
    {
      apl: "print s='name=Ann Lee city=New York zip=10001' | parse-kv s as (name, city, zip:long) with (pair_delimiter=' ', kv_delimiter='=', greedy=true) | project name, city, zip",
      expected: one({ name: 'Ann Lee', city: 'New York', zip: 10001 }),
    },
    {
      apl: "print s='name=Ann Lee city=New York' | parse-kv s as (name, city) with (pair_delimiter=' ', kv_delimiter='=') | project name, city",
      expected: one({ name: 'Ann', city: 'New' }),
    },
    {
      apl: "print s='id=7 msg=\"a \\\\\"quoted\\\\\" word\" level=warn' | parse-kv s as (msg, level, id:int) with (pair_delimiter=' ', kv_delimiter='=', quote='\"', escape='\\\\') | project msg, level, id",
      expected: one({ msg: 'a "quoted" word', level: 'warn', id: 7 }),
    },
    {
      apl: "print s='[12:00] user:ann, zone:B7; ok' | parse-kv s as (user, zone, missing) | project user, zone, missing",
      expected: one({ user: 'ann', zone: 'B7', missing: null }),
    },
    {
      apl: "print s='a: 1, bb: two, c:3' | parse-kv s as (a:long, bb, c:long) with (regex=@'(\\w+):\\s*(\\w+)') | project a, bb, c",
      expected: one({ a: 1, bb: 'two', c: 3 }),
    },
    {
      apl: "['shipments'] | parse-where email with user '@' domain '.' tld | project tracking, user, domain, tld",
      expected: () =>
        S.flatMap((x) => {
          const match = x.email === null ? null : /^(.*?)@(.*?)\.(.*)$/.exec(x.email);
          return match ? [{ tracking: x.tracking, user: match[1], domain: match[2], tld: match[3] }] : [];
        }),
    },
    {
      apl: "['shipments'] | parse-where tracking with 'TRK-' n:int | where n > 1007 | project n",
      expected: () => S.map((x) => Number(x.tracking.slice(4))).filter((n) => n > 1007).map((n) => ({ n })),
    },
    {
      apl: "['shipments'] | parse-where kind=regex note with @'eta=' eta:long | project tracking, eta",
      expected: () => S.flatMap((x) => (noteValue(x.note, 'eta') === null ? [] : [{ tracking: x.tracking, eta: Number(noteValue(x.note, 'eta')) }])),
    },
    { apl: "['shipments'] | parse-where note with 'prio=' p:int * | count", expected: count(S.filter((x) => /^prio=-?\d+/.test(x.note)).length) },
  ]);
});

const hash8 = (text: string) => createHash('sha256').update(text).digest('base64').slice(0, 8);

describe('redact', () => {
  table(getDb, [
    { apl: "['shipments'] | redact @'\\d' on tracking | project tracking", expected: () => S.map((x) => ({ tracking: x.tracking.replace(/\d/g, '*') })) },
    {
      apl: "['shipments'] | redact replaceToken='[email]' @'[a-z]+@[a-z.]+' on email | project tracking, email",
      expected: () => S.map((x) => ({ tracking: x.tracking, email: x.email === null ? null : x.email.replace(/[a-z]+@[a-z.]+/g, '[email]') })),
    },
    {
      apl: "['shipments'] | redact replaceToken='x' @'[aeiou]', @'\\d+' on note, tracking | project note, tracking",
      expected: () => S.map((x) => ({ note: x.note.replace(/[aeiou]/g, 'x').replace(/\d+/g, (m) => 'x'.repeat(m.length)), tracking: x.tracking.replace(/\d+/g, (m) => 'x'.repeat(m.length)) })),
    },
    {
      apl: "['shipments'] | where isnotempty(email) | redact replaceHash=true @'@.*' on email | project email",
      expected: () => S.filter((x) => x.email).map((x) => ({ email: x.email!.replace(/@.*/, (m) => hash8(m)) })),
    },
    {
      apl: "['shipments'] | redact replaceToken='#' redactGroups=true @'TRK-(\\d\\d)\\d\\d' on tracking | project tracking",
      expected: () => S.map((x) => ({ tracking: x.tracking.replace(/TRK-(\d\d)(\d\d)/, (_m, a: string, b: string) => `TRK-${'#'.repeat(a.length)}${b}`) })),
    },
    {
      apl: "['shipments'] | where _rowId == 301 | redact @'a' | project carrier, region, note, email, state",
      expected: () => S.filter((x) => x._rowId === 301n).map((x) => Object.fromEntries(['carrier', 'region', 'note', 'email', 'state'].map((k) => [k, String(x[k as keyof Shipment]).replace(/a/g, '*')]))),
    },
  ]);

  it('refuses replaceToken with replaceHash and redactGroups without groups', async () => {
    expect((await failure(db, "['shipments'] | redact replaceToken='x' replaceHash=true @'a'")).message).toMatch(/replaceToken or replaceHash, not both/);
    expect((await failure(db, "['shipments'] | redact redactGroups=true @'a+'")).message).toMatch(/redactGroups needs capturing groups/);
    expect((await failure(db, "['shipments'] | redact @'a' on weight")).message).toMatch(/redact works on string fields/);
  });
});

describe('top-nested, top-hitters and sample-distinct', () => {
  const sumOf = (rows: Shipment[]) => rows.reduce((a, x) => a + x.weight, 0);
  table(getDb, [
    {
      apl: "['shipments'] | top-nested 2 of region by n = count(), top-nested 1 of carrier by w = sum(weight)",
      expected: () => {
        const regions = [...counted(S, (x) => x.region)].sort((a, b) => b[1] - a[1]).slice(0, 2);
        return regions.map(([region, n]) => {
          const inRegion = S.filter((x) => x.region === region);
          const [carrier, w] = [...new Set(inRegion.map((x) => x.carrier))].map((c) => [c, sumOf(inRegion.filter((x) => x.carrier === c))] as const).sort((a, b) => b[1] - a[1])[0]!;
          return { region, n, carrier, w };
        });
      },
    },
    {
      apl: "['shipments'] | top-nested 1 of carrier with others = 'rest' by n = count()",
      expected: () => {
        const [top, n] = [...counted(S, (x) => x.carrier)].sort((a, b) => b[1] - a[1])[0]!;
        return [
          { carrier: top, n },
          { carrier: 'rest', n: S.length - n },
        ];
      },
    },
    {
      apl: "['shipments'] | top-nested 1 of region by w = sum(weight), top-nested 1 of carrier with others = 'other' by m = count()",
      expected: () => {
        const [region, w] = [...new Set(S.map((x) => x.region))].map((r) => [r, sumOf(S.filter((x) => x.region === r))] as const).sort((a, b) => b[1] - a[1])[0]!;
        const inRegion = S.filter((x) => x.region === region);
        const [carrier, m] = [...counted(inRegion, (x) => x.carrier)].sort((a, b) => b[1] - a[1])[0]!;
        return [
          { region, w, carrier, m },
          { region, w, carrier: 'other', m: inRegion.length - m },
        ];
      },
    },
    {
      apl: "['shipments'] | top-nested of state by n = count() asc",
      ordered: true,
      expected: () => [...counted(S, (x) => x.state)].sort((a, b) => a[1] - b[1]).map(([state, n]) => ({ state, n })),
    },
    {
      apl: "['shipments'] | top-nested 2 of carrier by sum(weight)",
      expected: () =>
        [...new Set(S.map((x) => x.carrier))]
          .map((carrier) => ({ carrier, aggregated_carrier: sumOf(S.filter((x) => x.carrier === carrier)) }))
          .sort((a, b) => b.aggregated_carrier - a.aggregated_carrier)
          .slice(0, 2),
    },
    {
      apl: "['shipments'] | top-hitters 2 of carrier",
      ordered: true,
      expected: () => [...counted(S, (x) => x.carrier)].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([carrier, n]) => ({ carrier, approximate_count_carrier: n })),
    },
    {
      apl: "['shipments'] | top-hitters 1 of region by weight",
      expected: () =>
        [...new Set(S.map((x) => x.region))]
          .map((region) => ({ region, approximate_sum_weight: sumOf(S.filter((x) => x.region === region)) }))
          .sort((a, b) => b.approximate_sum_weight - a.approximate_sum_weight)
          .slice(0, 1),
    },
    { apl: "['shipments'] | sample-distinct 2 of carrier | count", expected: count(2) },
    { apl: "['shipments'] | sample-distinct 10 of region", expected: () => [...new Set(S.map((x) => x.region))].map((region) => ({ region })) },
  ]);
});

describe('take after a time-binned summarize', () => {
  // The groups ranking highest over all buckets are kept, with each of their buckets.
  const binned = (rows: Shipment[]) => [...counted(rows, (x) => `${Math.floor(ms(x._time) / (2 * HOUR))}|${x.carrier}`)];
  table(getDb, [
    {
      apl: "['shipments'] | summarize n = count() by bin(_time, 2h), carrier | take 2",
      expected: () => {
        const top = [...counted(S, (x) => x.carrier)].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([carrier]) => carrier);
        return binned(S.filter((x) => top.includes(x.carrier))).map(([key, n]) => {
          const [bin, carrier] = key.split('|');
          return { _time: iso(Number(bin) * 2 * HOUR), carrier, n };
        });
      },
    },
    {
      apl: "['shipments'] | summarize w = sum(weight) by bin(_time, 2h), region | limit 1 | summarize buckets = count() by region",
      expected: () => {
        const [region] = [...new Set(S.map((x) => x.region))].map((r) => [r, S.filter((x) => x.region === r).reduce((a, x) => a + x.weight, 0)] as const).sort((a, b) => b[1] - a[1])[0]!;
        return [{ region, buckets: new Set(S.filter((x) => x.region === region).map((x) => Math.floor(ms(x._time) / (2 * HOUR)))).size }];
      },
    },
    { apl: "['shipments'] | summarize n = count() by carrier, bin(_time, 2h) | take 3 | count", expected: count(3) },
  ]);
});

describe('in over a subquery', () => {
  table(getDb, [
    {
      apl: "let heavy = ['shipments'] | where weight > 7 | project carrier; ['carriers'] | where carrier in (heavy) | project _rowId",
      expected: () => C.filter((c) => S.some((x) => x.weight > 7 && x.carrier === c.carrier)).map((c) => ({ _rowId: Number(c._rowId) })),
    },
    {
      apl: "['shipments'] | where carrier !in (['carriers'] | where country == 'US' | project carrier) | project tracking",
      expected: tracking(S.filter((x) => !C.some((c) => c.country === 'US' && c.carrier === x.carrier))),
    },
    { apl: "['shipments'] | where carrier in~ (datatable(c:string) ['DHL', 'PostNL']) | count", expected: count(S.filter((x) => ['dhl', 'postnl'].includes(x.carrier)).length) },
  ]);
});

it('every term of the searchable text is found by has', async () => {
  // A guard on the fixture: the independent term splitter agrees with a direct search.
  const term = terms(S[0]!.note)[0]!;
  await check(db, { apl: `['shipments'] | where note has '${term}' | project tracking`, expected: tracking(S.filter((x) => hasTerm(x.note, term))) });
});
