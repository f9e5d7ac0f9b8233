// The conformance table: APL queries over fixed events, each answer computed independently by
// plain JS over the same events (or written by hand), never by the engine.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceCase, type Row, table as conformanceTable } from '../../helpers/apl/conformance-helpers';
import { addDataset, createTestDatabase, type TestDatabase } from '../../helpers/apl/fixtures';
import {
  groupBy,
  hasTerm,
  HTTP_EVENTS as H,
  HTTP_FIELDS,
  type HttpEvent,
  iso,
  mean,
  ms,
  nearestRank,
  sampleVariance,
  sum,
  terms,
  USER_EVENTS as U,
  USER_FIELDS,
} from '../../helpers/apl/conformance-data';

type Case = ConformanceCase;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('2024-05-01T00:00:00Z');
  await addDataset(db, 'http', HTTP_FIELDS, H as never);
  await addDataset(db, 'users', USER_FIELDS, U as never);
});

afterAll(() => db.close());

/** Fixed-point text rounding exact ties to even, as C's printf and Go's strconv do. */
function halfEven(value: number, digits: number): string {
  const scaled = value * 10 ** digits;
  const floor = Math.floor(scaled);
  const rounded = scaled - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
  return (rounded / 10 ** digits).toFixed(digits);
}

function table(cases: Case[]) {
  conformanceTable(() => db, cases);
}

const pick = (e: HttpEvent, ...names: (keyof HttpEvent)[]) => Object.fromEntries(names.map((n) => [n, e[n] ?? null]));
const eventRow = (e: HttpEvent): Row => ({
  _time: iso(ms(e._time)),
  _sysTime: iso(ms(e._time)),
  ...Object.fromEntries(HTTP_FIELDS.map((f) => [f.name, (e as unknown as Row)[f.name] ?? null])),
});
/** The event's time as RFC 3339 with nanoseconds, trailing zeros trimmed. */
const exactTime = (e: HttpEvent) => e._time.replace(/(\.\d*?)0+Z$/, '$1Z').replace('.Z', 'Z');
const byTimeDesc = [...H].sort((a, b) => ms(b._time) - ms(a._time) || Number(b._rowId - a._rowId));
const one = (values: Row) => () => [values];

describe('sources and tabular operators', () => {
  table([
    {
      apl: "['http']",
      ordered: true,
      expected: () => byTimeDesc.map((e) => ({ ...eventRow(e), _time: exactTime(e), _sysTime: exactTime(e) })),
    },
    { apl: 'http | count', expected: one({ count: H.length }) },
    {
      apl: "['http'] | where _rowId == 103 | extend twice = _rowId * 2 | project-keep twice, uri | extend back = _rowId",
      expected: () => [{ twice: 206, uri: '/static/app.js', back: 103 }],
    },
    { apl: "['http'] | where status >= 500 | project uri, status", expected: () => H.filter((e) => e.status! >= 500).map((e) => pick(e, 'uri', 'status')) },
    { apl: "['http'] | filter method == 'POST' | project _rowId", expected: () => H.filter((e) => e.method === 'POST').map((e) => ({ _rowId: Number(e._rowId) })) },
    {
      apl: "['http'] | project u = uri, twice = duration * 2, ['geo.city']",
      expected: () => H.map((e) => ({ u: e.uri, twice: e.duration === undefined ? null : e.duration * 2, 'geo.city': e['geo.city'] ?? null })),
    },
    {
      apl: "['http'] | take 1 | project-away geo.*, meta, tags, message, Status, _sysTime, _time, status, method, uri | getschema | project ColumnName",
      ordered: true,
      expected: () => ['duration', 'user', 'is_tls', 'resp_bytes'].map((n) => ({ ColumnName: n })),
    },
    {
      apl: "['http'] | where _rowId == 101 | project-keep u*, geo.*",
      expected: () => [pick(H[0]!, 'uri', 'user', 'geo.city', 'geo.country')],
    },
    {
      apl: "['http'] | where _rowId == 101 | project-keep method, uri | project-rename path = uri, verb = method",
      expected: () => [{ path: H[0]!.uri, verb: H[0]!.method }],
    },
    {
      apl: "['http'] | where _rowId == 101 | project-keep method, uri, status | project-reorder uri, status",
      expected: () => [{ uri: H[0]!.uri, status: H[0]!.status, method: H[0]!.method }],
    },
    {
      apl: "['http'] | where _rowId == 101 | project method, uri, status | project-reorder * desc | getschema | project ColumnName",
      ordered: true,
      expected: () => ['uri', 'status', 'method'].map((n) => ({ ColumnName: n })),
    },
    {
      apl: "['http'] | extend len = strlen(uri), status = status + 1 | project _rowId, len, status",
      expected: () => H.map((e) => ({ _rowId: Number(e._rowId), len: e.uri!.length, status: e.status! + 1 })),
    },
    {
      apl: "['http'] | where isnotnull(duration) | sort by duration desc | take 3 | project duration",
      ordered: true,
      expected: () =>
        H.filter((e) => e.duration !== undefined)
          .sort((a, b) => b.duration! - a.duration!)
          .slice(0, 3)
          .map((e) => ({ duration: e.duration })),
    },
    {
      apl: "['http'] | order by duration asc nulls first, _rowId asc | project _rowId",
      ordered: true,
      expected: () =>
        [...H]
          .sort((a, b) => (a.duration ?? -Infinity) - (b.duration ?? -Infinity) || Number(a._rowId - b._rowId))
          .map((e) => ({ _rowId: Number(e._rowId) })),
    },
    {
      apl: "['http'] | sort by duration desc nulls first | take 2 | project _rowId",
      ordered: true,
      expected: () => [{ _rowId: 111 }, { _rowId: Number([...H].filter((e) => e.duration !== undefined).sort((a, b) => b.duration! - a.duration!)[0]!._rowId) }],
    },
    {
      apl: "['http'] | sort by _time asc | limit 4 | project _rowId",
      ordered: true,
      expected: () => [...H].sort((a, b) => ms(a._time) - ms(b._time)).slice(0, 4).map((e) => ({ _rowId: Number(e._rowId) })),
    },
    {
      apl: "['http'] | top 3 by resp_bytes | project resp_bytes, uri",
      ordered: true,
      expected: () => [...H].sort((a, b) => b.resp_bytes! - a.resp_bytes!).slice(0, 3).map((e) => pick(e, 'resp_bytes', 'uri')),
    },
    {
      apl: "['http'] | top 2 by duration asc | project duration",
      ordered: true,
      expected: () => H.map((e) => e.duration).filter((d): d is number => d !== undefined).sort((a, b) => a - b).slice(0, 2).map((duration) => ({ duration })),
    },
    { apl: "['http'] | distinct method", expected: () => [...new Set(H.map((e) => e.method))].map((method) => ({ method })) },
    {
      apl: "['http'] | distinct method, ['geo.country']",
      expected: () => [...groupBy(H, (e) => [e.method, e['geo.country'] ?? null]).values()].map((g) => pick(g[0]!, 'method', 'geo.country')),
    },
    {
      apl: "['http'] | search \"berlin\" | project _rowId",
      expected: () => H.filter((e) => Object.values(e).some((v) => typeof v === 'string' && hasTerm(v, 'berlin'))).map((e) => ({ _rowId: Number(e._rowId) })),
    },
    {
      apl: "['http'] | search kind=case_sensitive \"Berlin\" | project _rowId",
      expected: () => H.filter((e) => e['geo.city'] === 'Berlin').map((e) => ({ _rowId: Number(e._rowId) })),
    },
    {
      apl: "['http'] | search method:\"post\" and \"bob\" | project _rowId",
      expected: () => H.filter((e) => e.method === 'POST' && Object.values(e).some((v) => typeof v === 'string' && hasTerm(v, 'bob'))).map((e) => ({ _rowId: Number(e._rowId) })),
    },
    {
      apl: "['http'] | search \"*rder*\" | project _rowId",
      expected: () =>
        H.filter((e) => Object.values(e).some((v) => (typeof v === 'string' && v.toLowerCase().includes('rder')) || (typeof v === 'object' && JSON.stringify(v).toLowerCase().includes('rder')))).map((e) => ({
          _rowId: Number(e._rowId),
        })),
    },
    {
      apl: "['http'] | search \"Intern*\" | project _rowId",
      // Dynamic fields are searched too: ["internal"] has a term starting with "intern".
      expected: () =>
        H.filter((e) => Object.values(e).some((v) => (typeof v === 'string' ? terms(v) : typeof v === 'object' ? terms(JSON.stringify(v)) : []).some((t) => t.toLowerCase().startsWith('intern')))).map(
          (e) => ({ _rowId: Number(e._rowId) }),
        ),
    },
    { apl: "['http'] | search * | count", expected: one({ count: H.length }) },
    {
      apl: "['http'] | where uri startswith '/api/' | parse uri with '/api/' version '/' resource | project version, resource",
      expected: () =>
        H.filter((e) => e.uri!.startsWith('/api/')).map((e) => {
          const [, version, ...rest] = e.uri!.split('/').slice(1);
          return { version, resource: rest.join('/') };
        }),
    },
    {
      apl: "['http'] | parse uri with * '/users/' id:int | where isnotnull(id) | project id",
      expected: () => H.filter((e) => /\/users\/\d+$/.test(e.uri!)).map((e) => ({ id: Number(e.uri!.split('/').pop()) })),
    },
    {
      apl: "['http'] | parse message with 'created user ' name | project name",
      expected: () => H.map((e) => ({ name: e.message!.startsWith('created user ') ? e.message!.slice('created user '.length) : null })),
    },
    {
      apl: "['http'] | parse kind=regex uri with @'/api/v' major:int @'/(\\w+)' | where isnotnull(major) | project major",
      expected: () => H.filter((e) => /\/api\/v\d+\/\w+/.test(e.uri!)).map((e) => ({ major: Number(/\/api\/v(\d+)/.exec(e.uri!)![1]) })),
    },
    {
      apl: "['http'] | parse kind=relaxed message with word ' ' rest:int | project word, rest",
      expected: () =>
        H.map((e) => {
          const space = e.message!.indexOf(' ');
          const rest = e.message!.slice(space + 1);
          return { word: space >= 0 ? e.message!.slice(0, space) : null, rest: space >= 0 && /^[+-]?\d+$/.test(rest) ? Number(rest) : null };
        }),
    },
    {
      apl: "['http'] | getschema",
      ordered: true,
      expected: () =>
        [
          ['_time', 'datetime'],
          ['_sysTime', 'datetime'],
          ...HTTP_FIELDS.map((f) => [f.name, f.type]),
        ].map(([name, type], i) => ({ ColumnName: name, ColumnOrdinal: i, DataType: type, ColumnType: type })),
    },
    {
      apl: "['http'] | extend d = duration * 2 | getschema | where ColumnName == 'd' | project ColumnType",
      expected: one({ ColumnType: 'float' }),
    },
    {
      apl: "['http'] | where isnotempty(user) | join kind=inner (['users'] | project user, team) on user | project _rowId, team",
      expected: () =>
        H.flatMap((e) => U.filter((u) => u.user === e.user).map((u) => ({ _rowId: Number(e._rowId), team: u.team }))),
    },
    {
      apl: "['http'] | join kind=leftouter (['users'] | project user, team) on user | project _rowId, team",
      expected: () =>
        H.flatMap((e): Row[] => {
          const matches = U.filter((u) => u.user !== undefined && u.user === e.user);
          return matches.length ? matches.map((u) => ({ _rowId: Number(e._rowId), team: u.team })) : [{ _rowId: Number(e._rowId), team: null }];
        }),
    },
    {
      apl: "['http'] | join kind=innerunique (['users'] | project user, level) on user | project _rowId, user",
      expected: () => H.filter((e) => U.some((u) => u.user === e.user)).map((e) => pick(e, '_rowId', 'user')).map((r) => ({ ...r, _rowId: Number(r._rowId) })),
    },
    {
      apl: "['http'] | join (['users']) on $left.user == $right.user | project user, user1, team",
      expected: () => H.flatMap((e) => U.filter((u) => u.user === e.user).map((u) => ({ user: e.user, user1: u.user, team: u.team }))),
    },
    {
      apl: "union ['http'], ['users'] | summarize count() by isnull(team)",
      expected: () => [
        { Column1: true, count_: H.length },
        { Column1: false, count_: U.length },
      ],
    },
    {
      apl: "['users'] | union (['http'] | where status == 404) | project user, team",
      expected: () => [...U.map((u) => ({ user: u.user, team: u.team })), { user: 'carol', team: null }],
    },
    {
      apl: "let slow = 100.0;\nlet errors = ['http'] | where status >= 500;\nerrors | where duration > slow | count",
      expected: one({ count: H.filter((e) => e.status! >= 500 && e.duration! > 100).length }),
    },
    {
      apl: "let ds = http; ds | where method == 'PUT' | project _rowId",
      expected: () => H.filter((e) => e.method === 'PUT').map((e) => ({ _rowId: Number(e._rowId) })),
    },
  ]);

  it('sample N returns N distinct events, sample f a subset', async () => {
    const rows = await db.rows("['http'] | sample 5 | project _rowId");
    expect(rows).toHaveLength(5);
    const ids = rows.map((r) => r._rowId);
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(H.map((e) => Number(e._rowId))).toContain(id);
    const fraction = await db.rows("['http'] | sample 0.5 | project _rowId");
    expect(fraction.length).toBeLessThanOrEqual(H.length);
    for (const row of fraction) expect(H.map((e) => Number(e._rowId))).toContain(row._rowId);
  });
});

const withDuration = H.filter((e) => e.duration !== undefined);
const hourOf = (e: HttpEvent) => iso(Math.floor(ms(e._time) / 3_600_000) * 3_600_000);

describe('summarize and aggregations', () => {
  table([
    {
      apl: "['http'] | summarize count() by bin(_time, 1h)",
      ordered: true,
      expected: () => [...groupBy(H, hourOf)].map(([k, g]) => ({ _time: JSON.parse(k), count_: g.length })).sort((a, b) => ms(a._time) - ms(b._time)),
    },
    {
      apl: "['http'] | summarize n = count() by t = bin_auto(_time)",
      request: { startTime: '2024-04-30T00:00:00Z', endTime: '2024-05-01T00:00:00Z' },
      ordered: true,
      // 24 hours / 100 bins = 14.4 minutes, rounded up to the 15-minute step.
      expected: () =>
        [...groupBy(H, (e) => iso(Math.floor(ms(e._time) / 900_000) * 900_000))].map(([k, g]) => ({ t: JSON.parse(k), n: g.length })).sort((a, b) => ms(a.t) - ms(b.t)),
    },
    {
      apl: "['http'] | summarize countif(status >= 400), dcount(user), dcountif(user, is_tls) by method",
      expected: () =>
        [...groupBy(H, (e) => e.method)].map(([k, g]) => ({
          method: JSON.parse(k),
          countif_: g.filter((e) => e.status! >= 400).length,
          dcount_user: new Set(g.filter((e) => e.user !== undefined).map((e) => e.user)).size,
          dcountif_user: new Set(g.filter((e) => e.user !== undefined && e.is_tls).map((e) => e.user)).size,
        })),
    },
    {
      apl: "['http'] | summarize sum(resp_bytes), sumif(resp_bytes, method == 'GET'), avg(duration), avgif(duration, status < 300)",
      expected: one({
        sum_resp_bytes: sum(H.map((e) => e.resp_bytes!)),
        sumif_resp_bytes: sum(H.filter((e) => e.method === 'GET').map((e) => e.resp_bytes!)),
        avg_duration: mean(withDuration.map((e) => e.duration!)),
        avgif_duration: mean(withDuration.filter((e) => e.status! < 300).map((e) => e.duration!)),
      }),
    },
    {
      apl: "['http'] | summarize min(duration), max(duration), minif(duration, method == 'GET'), maxif(duration, method == 'GET'), min(_time), max(uri)",
      expected: one({
        min_duration: Math.min(...withDuration.map((e) => e.duration!)),
        max_duration: Math.max(...withDuration.map((e) => e.duration!)),
        minif_duration: Math.min(...withDuration.filter((e) => e.method === 'GET').map((e) => e.duration!)),
        maxif_duration: Math.max(...withDuration.filter((e) => e.method === 'GET').map((e) => e.duration!)),
        min__time: iso(Math.min(...H.map((e) => ms(e._time)))),
        max_uri: [...H.map((e) => e.uri!)].sort().pop(),
      }),
    },
    {
      apl: "['http'] | summarize percentile(duration, 50), percentile(duration, 95), percentiles_array(duration, 25, 99)",
      expected: one({
        percentile_duration_50: nearestRank(withDuration.map((e) => e.duration!), 50),
        percentile_duration_95: nearestRank(withDuration.map((e) => e.duration!), 95),
        percentiles_duration: [25, 99].map((p) => nearestRank(withDuration.map((e) => e.duration!), p)),
      }),
    },
    {
      apl: "['http'] | summarize users = make_list(user), cities = make_set(['geo.city']) by ['geo.country']",
      unorderedLists: true,
      expected: () =>
        [...groupBy(H, (e) => e['geo.country'] ?? null)].map(([k, g]) => ({
          'geo.country': JSON.parse(k),
          users: g.filter((e) => e.user !== undefined).map((e) => e.user),
          cities: [...new Set(g.filter((e) => e['geo.city'] !== undefined).map((e) => e['geo.city']))],
        })),
    },
    {
      apl: "['http'] | summarize arg_max(duration, uri, user), arg_min(resp_bytes, who = user) by method | where method in ('GET', 'POST')",
      expected: () =>
        ['GET', 'POST'].map((method) => {
          const group = H.filter((e) => e.method === method);
          const slowest = group.filter((e) => e.duration !== undefined).sort((a, b) => b.duration! - a.duration!)[0]!;
          const smallest = [...group].sort((a, b) => a.resp_bytes! - b.resp_bytes! || Number(a._rowId - b._rowId))[0]!;
          return { method, duration: slowest.duration, uri: slowest.uri, user: slowest.user, resp_bytes: smallest.resp_bytes, who: smallest.user };
        }),
    },
    {
      apl: "['http'] | summarize topk(['geo.country'], 2)",
      expected: one({ 'topk_geo.country': [{ key: 'DE', count: 6 }, { key: 'FR', count: 3 }] }),
    },
    {
      apl: "['http'] | summarize stdev(duration), variance(duration), stdevif(duration, method == 'GET')",
      expected: one({
        stdev_duration: Math.sqrt(sampleVariance(withDuration.map((e) => e.duration!))),
        variance_duration: sampleVariance(withDuration.map((e) => e.duration!)),
        stdevif_duration: Math.sqrt(sampleVariance(withDuration.filter((e) => e.method === 'GET').map((e) => e.duration!))),
      }),
    },
    {
      apl: "['http'] | summarize rate(resp_bytes) by bin(_time, 1h)",
      ordered: true,
      expected: () =>
        [...groupBy(H, hourOf)].map(([k, g]) => ({ _time: JSON.parse(k), rate_resp_bytes: sum(g.map((e) => e.resp_bytes!)) / 3600 })).sort((a, b) => ms(a._time) - ms(b._time)),
    },
    {
      apl: "['http'] | summarize rate(resp_bytes)",
      request: { startTime: '2024-04-30T00:00:00Z', endTime: '2024-04-30T12:00:00Z' },
      expected: one({ rate_resp_bytes: sum(H.map((e) => e.resp_bytes!)) / (12 * 3600) }),
    },
    {
      apl: "['http'] | summarize histogram(duration, 100)",
      expected: one({
        histogram_duration: [...groupBy(withDuration, (e) => Math.floor(e.duration! / 100) * 100)]
          .map(([k, g]) => ({ value: JSON.parse(k), count: g.length }))
          .sort((a, b) => a.value - b.value),
      }),
    },
    {
      apl: "['http'] | summarize errors = countif(status >= 500), total = count() by method | extend ratio = todouble(errors) / total | where errors > 0 | project method, ratio",
      expected: () =>
        [...groupBy(H, (e) => e.method)]
          .map(([k, g]) => ({ method: JSON.parse(k), errors: g.filter((e) => e.status! >= 500).length, total: g.length }))
          .filter((r) => r.errors > 0)
          .map((r) => ({ method: r.method, ratio: r.errors / r.total })),
    },
    {
      apl: "['http'] | summarize avg_kb = avg(resp_bytes) / 1024 by is_tls",
      expected: () => [...groupBy(H, (e) => e.is_tls)].map(([k, g]) => ({ is_tls: JSON.parse(k), avg_kb: mean(g.map((e) => e.resp_bytes!)) / 1024 })),
    },
    {
      apl: "['http'] | summarize count() by status | top 2 by count_",
      ordered: true,
      expected: () => [{ status: 200, count_: H.filter((e) => e.status === 200).length }, { status: 500, count_: 2 }],
    },
    {
      apl: "['http'] | summarize by method, is_tls | count",
      expected: one({ count: groupBy(H, (e) => [e.method, e.is_tls]).size }),
    },
    {
      apl: "['http'] | where status >= 500 | summarize count() by uri | top 10 by count_",
      expected: () => [...groupBy(H.filter((e) => e.status! >= 500), (e) => e.uri)].map(([k, g]) => ({ uri: JSON.parse(k), count_: g.length })),
    },
    {
      apl: "['http'] | summarize dcount(user), percentile(duration, 99) by method",
      expected: () =>
        [...groupBy(H, (e) => e.method)].map(([k, g]) => {
          const durations = g.filter((e) => e.duration !== undefined).map((e) => e.duration!);
          return {
            method: JSON.parse(k),
            dcount_user: new Set(g.filter((e) => e.user !== undefined).map((e) => e.user)).size,
            percentile_duration_99: durations.length ? nearestRank(durations, 99) : null,
          };
        }),
    },
  ]);
});

const row101 = "['http'] | where _rowId == 101 | project ";
const constant = (expr: string) => `${row101}v = ${expr}`;
const value = (v: unknown) => one({ v });
const ids = (predicate: (e: HttpEvent) => boolean) => () => H.filter(predicate).map((e) => ({ _rowId: Number(e._rowId) }));
const where = (condition: string) => `['http'] | where ${condition} | project _rowId`;

describe('scalar operators', () => {
  table([
    { apl: where("method == 'GET'"), expected: ids((e) => e.method === 'GET') },
    { apl: where("method != 'GET'"), expected: ids((e) => e.method !== 'GET') },
    { apl: where("user =~ 'ALICE'"), expected: ids((e) => e.user?.toLowerCase() === 'alice') },
    { apl: where("user !~ 'ALICE'"), expected: ids((e) => e.user?.toLowerCase() !== 'alice') },
    { apl: where('status < 300'), expected: ids((e) => e.status! < 300) },
    { apl: where('status <= 302'), expected: ids((e) => e.status! <= 302) },
    { apl: where('duration > 100'), expected: ids((e) => e.duration !== undefined && e.duration > 100) },
    { apl: where('duration >= 48.25'), expected: ids((e) => e.duration !== undefined && e.duration >= 48.25) },
    { apl: where("method in ('PUT', 'DELETE')"), expected: ids((e) => ['PUT', 'DELETE'].includes(e.method!)) },
    { apl: where("method !in ('GET', 'POST')"), expected: ids((e) => !['GET', 'POST'].includes(e.method!)) },
    { apl: where("user in~ ('ALICE', 'Bob')"), expected: ids((e) => ['alice', 'bob'].includes(e.user?.toLowerCase() ?? '')) },
    { apl: where("user !in~ ('ALICE', 'Bob')"), expected: ids((e) => !['alice', 'bob'].includes(e.user?.toLowerCase() ?? '')) },
    { apl: where('status in (dynamic([404, 401]))'), expected: ids((e) => [404, 401].includes(e.status!)) },
    { apl: where("uri contains 'USERS'"), expected: ids((e) => e.uri!.toLowerCase().includes('users')) },
    { apl: where("uri !contains 'USERS'"), expected: ids((e) => !e.uri!.toLowerCase().includes('users')) },
    { apl: where("uri contains_cs 'Users'"), expected: ids((e) => e.uri!.includes('Users')) },
    { apl: where("uri startswith '/API/V2'"), expected: ids((e) => e.uri!.toLowerCase().startsWith('/api/v2')) },
    { apl: where("uri endswith '.JS'"), expected: ids((e) => e.uri!.toLowerCase().endsWith('.js')) },
    { apl: where("message has 'error'"), expected: ids((e) => hasTerm(e.message, 'error')) },
    { apl: where("message !has 'error'"), expected: ids((e) => !hasTerm(e.message, 'error')) },
    { apl: where("message has_cs 'Internal'"), expected: ids((e) => hasTerm(e.message, 'Internal', true)) },
    { apl: where("message has 'user'"), expected: ids((e) => hasTerm(e.message, 'user')) },
    { apl: where("message hasprefix 'unauth'"), expected: ids((e) => terms(e.message!).some((t) => t.toLowerCase().startsWith('unauth'))) },
    { apl: where("message hassuffix 'found'"), expected: ids((e) => terms(e.message!).some((t) => t.toLowerCase().endsWith('found'))) },
    { apl: where("message has_any ('timeout', 'password')"), expected: ids((e) => hasTerm(e.message, 'timeout') || hasTerm(e.message, 'password')) },
    { apl: where("uri matches regex @'^/api/v\\d/users/\\d+$'"), expected: ids((e) => /^\/api\/v\d\/users\/\d+$/.test(e.uri!)) },
    { apl: where('duration between (10 .. 48.25)'), expected: ids((e) => e.duration !== undefined && e.duration >= 10 && e.duration <= 48.25) },
    { apl: where('duration !between (10 .. 48.25)'), expected: ids((e) => e.duration !== undefined && !(e.duration >= 10 && e.duration <= 48.25)) },
    { apl: where("_time between (datetime(2024-04-30T02:00:00Z) .. datetime(2024-04-30T04:00:00Z))"), expected: ids((e) => ms(e._time) >= ms('2024-04-30T02:00:00Z') && ms(e._time) <= ms('2024-04-30T04:00:00Z')) },
    { apl: where("method == 'GET' and (status >= 400 or duration < 5)"), expected: ids((e) => e.method === 'GET' && (e.status! >= 400 || (e.duration !== undefined && e.duration < 5))) },
    { apl: where("not(method == 'GET') and is_tls"), expected: ids((e) => e.method !== 'GET' && e.is_tls === true) },
    { apl: where('is_tls == false'), expected: ids((e) => e.is_tls === false) },
    { apl: where("_time > datetime(2024-04-30T05:00:00Z)"), expected: ids((e) => ms(e._time) > ms('2024-04-30T05:00:00Z')) },
    { apl: where('_time > ago(20h)'), expected: ids((e) => ms(e._time) > ms('2024-05-01T00:00:00Z') - 20 * 3_600_000) },
    { apl: where("Status == 'ok'"), expected: ids((e) => e.Status === 'ok') },
    { apl: where('status == 200 and Status =~ "OK"'), expected: ids((e) => e.status === 200 && e.Status?.toLowerCase() === 'ok') },
    { apl: constant('7 / 2'), expected: value(3) },
    { apl: constant('7.0 / 2'), expected: value(3.5) },
    { apl: constant('-7 % 3'), expected: value(-1) },
    { apl: constant('2 + 3 * 4 - 1'), expected: value(13) },
    { apl: constant('1h / 1m'), expected: value(60) },
    { apl: constant('_time - datetime(2024-04-30)'), expected: value('5m0s') },
    { apl: constant('_time + 90m'), expected: value('2024-04-30T01:35:00Z') },
    { apl: constant('2 * 1.5h'), expected: value('3h0m0s') },
  ]);
});

describe('string functions', () => {
  const each = (expr: string, compute: (e: HttpEvent) => unknown) => ({
    apl: `['http'] | project _rowId, v = ${expr}`,
    expected: () => H.map((e) => ({ _rowId: Number(e._rowId), v: compute(e) })),
  });
  table([
    each('strlen(uri)', (e) => e.uri!.length),
    each('tolower(method)', (e) => e.method!.toLowerCase()),
    each('toupper(user)', (e) => e.user?.toUpperCase() ?? null),
    each('substring(uri, 1, 3)', (e) => e.uri!.slice(1, 4)),
    each('substring(uri, 5)', (e) => e.uri!.slice(5)),
    each("strcat(method, ' ', uri)", (e) => `${e.method} ${e.uri}`),
    each("strcat_delim('|', method, user)", (e) => `${e.method}|${e.user ?? ''}`),
    each("split(uri, '/')", (e) => e.uri!.split('/')),
    each("split(uri, '/', 1)", (e) => [e.uri!.split('/')[1]]),
    each("replace_string('/api/', '/API/', uri)", (e) => e.uri!.replaceAll('/api/', '/API/')),
    each("replace_regex(@'v(\\d)', 'version$1', uri)", (e) => e.uri!.replace(/v(\d)/g, 'version$1')),
    each("extract(@'/v(\\d+)/', 1, uri)", (e) => /\/v(\d+)\//.exec(e.uri!)?.[1] ?? null),
    each("extract(@'/v(\\d+)/', 1, uri, typeof(long))", (e) => {
      const m = /\/v(\d+)\//.exec(e.uri!);
      return m ? Number(m[1]) : null;
    }),
    each("extract_all(@'(\\d+)', uri)", (e) => [...e.uri!.matchAll(/(\d+)/g)].map((m) => m[1])),
    each("indexof(uri, 'v')", (e) => e.uri!.indexOf('v')),
    each("indexof(uri, '/', 2)", (e) => e.uri!.indexOf('/', 2)),
    each("trim('/', uri)", (e) => e.uri!.replace(/^\/+/, '').replace(/\/+$/, '')),
    each("trim_start_regex(@'/[a-z]+', uri)", (e) => e.uri!.replace(/^(?:\/[a-z]+)+/, '')),
    each("trim_end_regex(@'\\d', uri)", (e) => e.uri!.replace(/\d+$/, '')),
    each('reverse(method)', (e) => [...e.method!].reverse().join('')),
    each("strrep(method, 2, '-')", (e) => `${e.method}-${e.method}`),
    each("countof('/', uri)", (e) => e.uri!.split('/').length - 1),
    each("format_datetime(_time, 'yyyy-MM-dd HH:mm:ss.fff')", (e) => {
      const d = new Date(ms(e._time));
      const p = (n: number, w = 2) => String(n).padStart(w, '0');
      return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
    }),
    each("format_datetime(_time, 'M/d/yy h:mm tt')", (e) => {
      const d = new Date(ms(e._time));
      const h = d.getUTCHours();
      return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${String(d.getUTCFullYear() % 100).padStart(2, '0')} ${((h + 11) % 12) + 1}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
    }),
    each("format_timespan(_time - startofday(_time), 'hh:mm:ss')", (e) => {
      const s = Math.floor((ms(e._time) % 86_400_000) / 1000);
      return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
    }),
    each('format_bytes(resp_bytes)', (e) => {
      const b = e.resp_bytes!;
      return b < 1024 ? `${b} Bytes` : b < 1024 ** 2 ? `${Math.round(b / 1024)} KB` : `${Math.round(b / 1024 ** 2)} MB`;
    }),
    each("format_bytes(resp_bytes, 2, 'KB')", (e) => `${halfEven(e.resp_bytes! / 1024, 2)} KB`),
  ]);
  table([
    {
      apl: constant("parse_url('https://user:pw@example.com:8080/path/x?a=1&b=two%20words#frag')"),
      expected: value({
        scheme: 'https',
        host: 'example.com',
        port: '8080',
        path: '/path/x',
        username: 'user',
        password: 'pw',
        query: 'a=1&b=two%20words',
        fragment: 'frag',
      }),
    },
    { apl: constant("parse_url('https://example.com/a').host"), expected: value('example.com') },
    { apl: constant("parse_urlquery('a=1&b=2').b"), expected: value('2') },
    { apl: constant('format_url(dynamic({"scheme": "https", "host": "example.com", "port": 8443, "path": "/x", "fragment": "top"}))'), expected: value('https://example.com:8443/x#top') },
    { apl: constant("url_encode('a b/c')"), expected: value(encodeURIComponent('a b/c')) },
    { apl: constant("url_decode('a%20b%2Fc')"), expected: value('a b/c') },
    { apl: constant("base64_encode_tostring('hello')"), expected: value(Buffer.from('hello').toString('base64')) },
    { apl: constant("base64_decode_tostring('aGVsbG8=')"), expected: value('hello') },
    { apl: constant("strcmp('a', 'b')"), expected: value(-1) },
    { apl: constant("trim_space('  padded  ')"), expected: value('padded') },
    { apl: constant("countof_regex(@'\\d+', 'a1b22c333')"), expected: value(3) },
  ]);
});

describe('math functions', () => {
  table([
    { apl: constant('abs(-4.5)'), expected: value(4.5) },
    { apl: constant('abs(-3)'), expected: value(3) },
    { apl: constant('round(2.567, 2)'), expected: value(2.57) },
    { apl: constant('round(2.5)'), expected: value(3) },
    { apl: constant('floor(2.7)'), expected: value(2) },
    { apl: constant('floor(27, 10)'), expected: value(20) },
    { apl: constant('ceiling(2.1)'), expected: value(3) },
    { apl: constant('log(exp(2))'), expected: value(2) },
    { apl: constant('log10(1000)'), expected: value(3) },
    { apl: constant('log2(8)'), expected: value(3) },
    { apl: constant('log(-1)'), expected: value(null) },
    { apl: constant('pow(2, 10)'), expected: value(1024) },
    { apl: constant('sqrt(16)'), expected: value(4) },
    { apl: constant('sqrt(-1)'), expected: value(null) },
    { apl: constant('exp(0)'), expected: value(1) },
    { apl: constant('bin(17, 5)'), expected: value(15) },
    { apl: constant('bin(-3, 5)'), expected: value(-5) },
    { apl: constant('bin(4.7, 0.5)'), expected: value(4.5) },
    { apl: constant('sign(-2)'), expected: value(-1) },
    { apl: constant('max_of(3, 9, 4)'), expected: value(9) },
    {
      apl: "['http'] | project _rowId, v = round(duration / 3, 1)",
      expected: () => H.map((e) => ({ _rowId: Number(e._rowId), v: e.duration === undefined ? null : Math.round((e.duration / 3) * 10) / 10 })),
    },
  ]);
});

describe('datetime functions', () => {
  const at = "datetime(2024-04-30T13:45:30.1234567Z)";
  table([
    { apl: constant('now()'), expected: value('2024-05-01T00:00:00Z') },
    { apl: constant('now(-1d)'), expected: value('2024-04-30T00:00:00Z') },
    { apl: constant('ago(90m)'), expected: value('2024-04-30T22:30:00Z') },
    { apl: constant(`bin(${at}, 1h)`), expected: value('2024-04-30T13:00:00Z') },
    { apl: constant(`bin(${at}, 7d)`), expected: value(iso(Math.floor(ms('2024-04-30T13:45:30Z') / (7 * 86_400_000)) * 7 * 86_400_000)) },
    { apl: constant(`startofday(${at})`), expected: value('2024-04-30T00:00:00Z') },
    { apl: constant(`startofweek(${at})`), expected: value('2024-04-28T00:00:00Z') },
    { apl: constant(`startofmonth(${at})`), expected: value('2024-04-01T00:00:00Z') },
    { apl: constant(`startofyear(${at})`), expected: value('2024-01-01T00:00:00Z') },
    { apl: constant(`startofmonth(${at}, 1)`), expected: value('2024-05-01T00:00:00Z') },
    { apl: constant(`endofday(${at})`), expected: value('2024-04-30T23:59:59.9999999Z') },
    { apl: constant(`endofweek(${at})`), expected: value('2024-05-04T23:59:59.9999999Z') },
    { apl: constant(`endofmonth(${at})`), expected: value('2024-04-30T23:59:59.9999999Z') },
    { apl: constant(`endofyear(${at})`), expected: value('2024-12-31T23:59:59.9999999Z') },
    { apl: constant(`datetime_part('year', ${at})`), expected: value(2024) },
    { apl: constant(`datetime_part('quarter', ${at})`), expected: value(2) },
    { apl: constant(`datetime_part('month', ${at})`), expected: value(4) },
    { apl: constant(`datetime_part('week_of_year', ${at})`), expected: value(18) },
    { apl: constant(`datetime_part('day', ${at})`), expected: value(30) },
    { apl: constant(`datetime_part('dayOfYear', ${at})`), expected: value(121) },
    { apl: constant(`datetime_part('hour', ${at})`), expected: value(13) },
    { apl: constant(`datetime_part('minute', ${at})`), expected: value(45) },
    { apl: constant(`datetime_part('second', ${at})`), expected: value(30) },
    { apl: constant(`datetime_part('millisecond', ${at})`), expected: value(123) },
    { apl: constant(`datetime_part('microsecond', ${at})`), expected: value(123456) },
    { apl: constant(`datetime_part('nanosecond', ${at})`), expected: value(123456700) },
    { apl: constant(`dayofweek(${at})`), expected: value(2) },
    { apl: constant(`hourofday(${at})`), expected: value(13) },
    { apl: constant(`getyear(${at})`), expected: value(2024) },
    { apl: constant(`monthofyear(${at})`), expected: value(4) },
    { apl: constant(`dayofyear(${at})`), expected: value(121) },
    { apl: constant(`week_of_year(${at})`), expected: value(18) },
    { apl: constant(`datetime_add('day', 2, ${at})`), expected: value('2024-05-02T13:45:30.1234567Z') },
    { apl: constant(`datetime_add('month', 1, datetime(2024-01-31))`), expected: value('2024-02-29T00:00:00Z') },
    { apl: constant(`datetime_add('hour', -3, ${at})`), expected: value('2024-04-30T10:45:30.1234567Z') },
    { apl: constant(`datetime_diff('hour', ${at}, datetime(2024-04-30T10:59:00Z))`), expected: value(3) },
    { apl: constant(`datetime_diff('day', datetime(2024-05-02T00:00:01Z), ${at})`), expected: value(2) },
    { apl: constant(`datetime_diff('month', datetime(2024-06-01), ${at})`), expected: value(2) },
    { apl: constant(`datetime_diff('year', datetime(2026-01-01), ${at})`), expected: value(2) },
    { apl: constant(`format_datetime(${at}, 'yyyy-MM-ddTHH:mm:ss.fffffff')`), expected: value('2024-04-30T13:45:30.1234567') },
    { apl: constant('unixtime_seconds_todatetime(1714435200)'), expected: value('2024-04-30T00:00:00Z') },
    { apl: constant('unixtime_milliseconds_todatetime(1714435200123)'), expected: value('2024-04-30T00:00:00.123Z') },
    { apl: constant('unixtime_microseconds_todatetime(1714435200123456)'), expected: value('2024-04-30T00:00:00.123456Z') },
    { apl: constant('unixtime_nanoseconds_todatetime(1714435200123456789)'), expected: value('2024-04-30T00:00:00.123456789Z') },
    {
      apl: "['http'] | summarize count() by day = startofday(_time)",
      expected: one({ day: '2024-04-30T00:00:00Z', count_: H.length }),
    },
  ]);
});

describe('conversions', () => {
  table([
    { apl: constant('tostring(status)'), expected: value('200') },
    { apl: constant('tostring(duration)'), expected: value('12.5') },
    { apl: constant('tostring(2.0)'), expected: value('2') },
    { apl: constant('tostring(is_tls)'), expected: value('true') },
    { apl: constant('tostring(_time)'), expected: value('2024-04-30T00:05:00Z') },
    { apl: constant('tostring(80s)'), expected: value('1m20s') },
    { apl: constant('tostring(int(null))'), expected: value('') },
    { apl: constant("toint('42')"), expected: value(42) },
    { apl: constant("toint('-7')"), expected: value(-7) },
    { apl: constant("toint('4.2')"), expected: value(null) },
    { apl: constant('toint(12.9)'), expected: value(12) },
    { apl: constant('toint(true)'), expected: value(1) },
    // Integers beyond 2^53 travel as decimal strings so no digit is lost.
    { apl: constant('tolong(_time)'), expected: value((BigInt(ms('2024-04-30T00:05:00Z')) * 1_000_000n).toString()) },
    { apl: constant('tolong(1ms)'), expected: value(1_000_000) },
    { apl: constant("toreal('1.5')"), expected: value(1.5) },
    { apl: constant("todouble('abc')"), expected: value(null) },
    { apl: constant('toreal(status)'), expected: value(200) },
    { apl: constant("tobool('true')"), expected: value(true) },
    { apl: constant("toboolean('FALSE')"), expected: value(false) },
    { apl: constant('tobool(0)'), expected: value(false) },
    { apl: constant("todatetime('2024-04-30T01:02:03Z')"), expected: value('2024-04-30T01:02:03Z') },
    { apl: constant("todatetime('not a date')"), expected: value(null) },
    { apl: constant("totimespan('1h30m')"), expected: value('1h30m0s') },
    { apl: constant("totimespan('00:00:05')"), expected: value('5s') },
    { apl: constant("todynamic('{\"a\": {\"b\": [1, 2]}}').a.b[1]"), expected: value(2) },
    { apl: constant("parse_json('[10, 20]')[0]"), expected: value(10) },
    { apl: constant("parse_json('not json')"), expected: value('not json') },
    {
      apl: "['http'] | project _rowId, v = toint(substring(uri, 8, 2))",
      expected: () => H.map((e) => ({ _rowId: Number(e._rowId), v: /^[+-]?\d+$/.test(e.uri!.slice(8, 10)) ? Number(e.uri!.slice(8, 10)) : null })),
    },
  ]);
});

describe('conditionals and nulls', () => {
  const each = (expr: string, compute: (e: HttpEvent) => unknown) => ({
    apl: `['http'] | project _rowId, v = ${expr}`,
    expected: () => H.map((e) => ({ _rowId: Number(e._rowId), v: compute(e) })),
  });
  table([
    each("iff(status >= 400, 'error', 'ok')", (e) => (e.status! >= 400 ? 'error' : 'ok')),
    each('iif(is_tls, resp_bytes, 0)', (e) => (e.is_tls ? e.resp_bytes : 0)),
    each("case(status >= 500, 'server', status >= 400, 'client', 'fine')", (e) => (e.status! >= 500 ? 'server' : e.status! >= 400 ? 'client' : 'fine')),
    each("coalesce(['geo.city'], user, 'unknown')", (e) => e['geo.city'] ?? e.user ?? 'unknown'),
    each('coalesce(duration, 0.0)', (e) => e.duration ?? 0),
    each('isnull(duration)', (e) => e.duration === undefined),
    each('isnotnull(duration)', (e) => e.duration !== undefined),
    each('isempty(user)', (e) => e.user === undefined || e.user === ''),
    each('isnotempty(Status)', (e) => e.Status !== undefined && e.Status !== ''),
    each('isempty(tags)', (e) => e.tags === undefined || (Array.isArray(e.tags) && e.tags.length === 0)),
    each('isnull(meta)', (e) => e.meta === undefined),
  ]);
});

describe('dynamic access', () => {
  const each = (expr: string, compute: (e: HttpEvent) => unknown) => ({
    apl: `['http'] | project _rowId, v = ${expr}`,
    expected: () => H.map((e) => ({ _rowId: Number(e._rowId), v: compute(e) })),
  });
  table([
    each('meta.region', (e) => e.meta?.region ?? null),
    each("meta['user-agent']", (e) => e.meta?.['user-agent'] ?? null),
    each('meta["n"] * 10', (e) => (e.meta?.n === undefined ? null : (e.meta.n as number) * 10)),
    each('tags[0]', (e) => (e.tags as string[] | undefined)?.[0] ?? null),
    each('tags[1]', (e) => (e.tags as string[] | undefined)?.[1] ?? null),
    each("['geo.city']", (e) => e['geo.city'] ?? null),
    each('geo.country', (e) => e['geo.country'] ?? null),
    each('array_length(tags)', (e) => (Array.isArray(e.tags) ? e.tags.length : null)),
    each('gettype(tags)', (e) => (e.tags === undefined ? 'null' : 'array')),
    {
      apl: "['http'] | where meta.region == 'eu' and tags[0] == 'web' | project _rowId",
      expected: ids((e) => e.meta?.region === 'eu' && (e.tags as string[] | undefined)?.[0] === 'web'),
    },
    {
      apl: "['http'] | where tostring(tags) contains 'prod' | summarize count() by tostring(meta.region)",
      expected: () =>
        [...groupBy(H.filter((e) => JSON.stringify(e.tags ?? '').includes('prod')), (e) => e.meta?.region)].map(([k, g]) => ({ Column1: JSON.parse(k), count_: g.length })),
    },
    { apl: constant('pack_array(status, method)'), expected: value([200, 'GET']) },
    { apl: constant("bag_pack('m', method, 's', status)"), expected: value({ m: 'GET', s: 200 }) },
  ]);
});

describe('hash functions', () => {
  const digest = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex');
  const each = (expr: string, compute: (e: HttpEvent) => unknown) => ({
    apl: `['http'] | project _rowId, v = ${expr}`,
    expected: () => H.map((e) => ({ _rowId: Number(e._rowId), v: compute(e) })),
  });
  table([
    each('hash_md5(uri)', (e) => digest('md5', e.uri!)),
    each('hash_sha1(uri)', (e) => digest('sha1', e.uri!)),
    each('hash_sha256(uri)', (e) => digest('sha256', e.uri!)),
    each('hash_sha512(uri)', (e) => digest('sha512', e.uri!)),
  ]);

  it('hash() is a deterministic signed integer that separates values and salts', async () => {
    const perUser = await db.rows("['http'] | where isnotempty(user) | summarize hashes = dcount(hash(user)) by user | summarize max(hashes), users = count()");
    expect(perUser).toEqual([{ max_hashes: 1, users: new Set(H.filter((e) => e.user).map((e) => e.user)).size }]);
    const distinct = await db.rows("['http'] | where isnotempty(user) | summarize dcount(hash(user))");
    expect(distinct).toEqual([{ dcount_: new Set(H.filter((e) => e.user).map((e) => e.user)).size }]);
    const [row] = await db.rows(`${row101}a = hash('abc'), b = hash('abc'), c = hash('abd'), d = hash('abc', 1)`);
    expect(Number.isInteger(Number(row!.a))).toBe(true);
    expect(row!.a).toEqual(row!.b);
    expect(row!.a).not.toEqual(row!.c);
    expect(row!.a).not.toEqual(row!.d);
  });
});

describe('literals', () => {
  table([
    { apl: constant('"tab\\there"'), expected: value('tab\there') },
    { apl: constant("'it\\'s'"), expected: value("it's") },
    { apl: constant("@'C:\\temp\\x'"), expected: value('C:\\temp\\x') },
    { apl: constant('@"say ""hi"""'), expected: value('say "hi"') },
    { apl: constant('1e3'), expected: value(1000) },
    { apl: constant('0x1F'), expected: value(31) },
    { apl: constant('-2.5'), expected: value(-2.5) },
    { apl: constant('9007199254740993'), expected: value('9007199254740993') },
    { apl: constant('true'), expected: value(true) },
    { apl: constant('false'), expected: value(false) },
    { apl: constant('100ms'), expected: value('100ms') },
    { apl: constant('5m'), expected: value('5m0s') },
    { apl: constant('1h'), expected: value('1h0m0s') },
    { apl: constant('2d'), expected: value('48h0m0s') },
    { apl: constant('1.5s'), expected: value('1.5s') },
    { apl: constant('timespan(1.02:03:04)'), expected: value('26h3m4s') },
    { apl: constant('datetime(2024-02-29 12:00)'), expected: value('2024-02-29T12:00:00Z') },
    { apl: constant('datetime(2024-02-29T12:00:00+02:00)'), expected: value('2024-02-29T10:00:00Z') },
    { apl: constant('dynamic([1, "two", {"three": 3.5}, null, true])'), expected: value([1, 'two', { three: 3.5 }, null, true]) },
    { apl: constant('dynamic({"k": "v"}).k'), expected: value('v') },
    { apl: constant('null'), expected: value(null) },
    { apl: constant('datetime(null)'), expected: value(null) },
  ]);
});

describe('request time range and limits', () => {
  it('restricts events to [startTime, endTime] with both ends included', async () => {
    const rows = await db.rows("['http'] | project _rowId", { startTime: '2024-04-30T02:00:00Z', endTime: '2024-04-30T05:00:00Z' });
    const expected = H.filter((e) => ms(e._time) >= ms('2024-04-30T02:00:00Z') && ms(e._time) <= ms('2024-04-30T05:00:00Z')).map((e) => Number(e._rowId));
    expect(rows.map((r) => r._rowId).sort()).toEqual(expected.sort());
  });

  it('accepts relative times', async () => {
    const rows = await db.rows("['http'] | count", { startTime: 'now-20h', endTime: 'now' });
    expect(rows).toEqual([{ count: H.filter((e) => ms(e._time) >= ms('2024-05-01T00:00:00Z') - 20 * 3_600_000).length }]);
  });

  it('takes the lowest of the query limit and the request limit, and flags cut results', async () => {
    const byRequest = await db.query("['http']", { limit: 4 });
    expect(byRequest.table.columns[0]).toHaveLength(4);
    expect(byRequest.status.isPartial).toBe(true);
    const byQuery = await db.query("['http'] | take 3", { limit: 10 });
    expect(byQuery.table.columns[0]).toHaveLength(3);
    expect(byQuery.status.isPartial).toBe(false);
    const both = await db.query("['http'] | take 6", { limit: 2 });
    expect(both.table.columns[0]).toHaveLength(2);
  });
});
