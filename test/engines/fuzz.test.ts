// A seeded, bounded fuzz of the whole server through HTTP: a few thousand generated inputs
// across ingest (JSON, NDJSON, CSV, encodings, parameters), the shippers' doors (OTLP, Elasticsearch
// bulk, Loki, HEC, logplex), APL, legacy queries and GraphQL, sent by a token that can write only
// the fuzz dataset. No answer may be a 5xx (nor a GraphQL
// INTERNAL_SERVER_ERROR), and afterwards the server must be alive with a canary dataset's
// events exactly as they were. The seed is fixed, so a failure names an input that replays.
import zlib from 'node:zlib';
import { zstdReady } from '../helpers/zstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATE_FUNCTIONS } from '../../src/apl/semantic/aggregates';
import { SCALAR_FUNCTIONS } from '../../src/apl/semantic/functions';
import { shipperCase } from '../helpers/fuzz-shippers';
import { startTestServer, type TestServer } from '../helpers/server';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const ROUNDS = { ingest: 900, shippers: 500, apl: 900, legacy: 500, graphql: 700 };

/** mulberry32: small, fast, and the same sequence everywhere. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(SEED);
const int = (max: number) => Math.floor(next() * max);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
const chance = (p: number) => next() < p;

const STRINGS = ['', 'a', 'GET', 'x'.repeat(300), 'ünïcödé ☃', '\u0000nul', '"quoted"', "it's", '\\', '1e309', 'NaN', '-0', '2024-01-01T00:00:00Z', 'now-1h', '{"a":1}', '[', 'null', ' spaced '];
const NUMBERS = [0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e-308, 9007199254740993, 123456789];
const KEYS = ['a', 'b', 'status', '_time', '_sysTime', '_rowId', 'a.b', '', ' ', 'x'.repeat(250), 'Status', 'STATUS', 'req', 'labels', 'events', '__proto__', 'constructor', 'ünï'];

function value(depth: number): unknown {
  const roll = next();
  if (depth > 0 && roll < 0.12) return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(KEYS), value(depth - 1)]));
  if (depth > 0 && roll < 0.2) return Array.from({ length: int(4) }, () => value(depth - 1));
  if (roll < 0.45) return pick(STRINGS);
  if (roll < 0.7) return pick(NUMBERS);
  if (roll < 0.8) return chance(0.5);
  if (roll < 0.85) return null;
  return int(1000);
}

/** Deep nesting written as text (JSON.stringify could not write it). */
function deepText(levels: number): string {
  return chance(0.5) ? `${'{"d":'.repeat(levels)}1${'}'.repeat(levels)}` : `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

function ingestCase(): { path: string; headers: Record<string, string>; body: Buffer } {
  const format = pick(['json', 'ndjson', 'csv', 'json-text', 'garbage']);
  const events = Array.from({ length: 1 + int(6) }, () => value(3));
  let text: string;
  let contentType: string;
  switch (format) {
    case 'json':
      text = JSON.stringify(chance(0.2) ? [{ labels: value(2), events }] : chance(0.1) ? events[0] : events);
      if (chance(0.2)) text = `[${text.slice(1, -1)}${text.length > 2 ? ',' : ''}${deepText(50 + int(300))}]`;
      contentType = 'application/json';
      break;
    case 'ndjson':
      text = events.map((event) => (chance(0.1) ? deepText(int(200)) : chance(0.1) ? '' : JSON.stringify(event))).join(pick(['\n', '\r\n', '\n\n']));
      contentType = 'application/x-ndjson';
      break;
    case 'csv': {
      const columns = Array.from({ length: 1 + int(4) }, () => pick(KEYS));
      const rows = Array.from({ length: int(5) }, () => columns.map(() => String(pick([...STRINGS, ...NUMBERS]))).join(','));
      text = [columns.join(','), ...rows].join('\n');
      contentType = pick(['text/csv', 'text/csv; charset=utf-8']);
      break;
    }
    case 'json-text':
      text = JSON.stringify(events).slice(0, int(200));
      contentType = 'application/json';
      break;
    default:
      text = Array.from({ length: int(200) }, () => String.fromCharCode(int(128))).join('');
      contentType = pick(['application/json', 'application/x-ndjson', 'text/csv', 'text/plain', 'application/xml']);
  }
  let body = Buffer.from(text);
  const headers: Record<string, string> = { 'content-type': contentType };
  const encoding = pick(['', '', '', 'gzip', 'deflate', 'br', 'gzip, gzip']);
  if (encoding === 'gzip') body = zlib.gzipSync(body);
  else if (encoding === 'deflate') body = chance(0.5) ? zlib.deflateSync(body) : zlib.deflateRawSync(body);
  else if (encoding === 'gzip, gzip') body = zlib.gzipSync(zlib.gzipSync(body));
  if (encoding) headers['content-encoding'] = chance(0.1) ? 'gzip' : encoding;
  // Header values are bytes: anything outside Latin-1 is sent escaped, as clients must.
  if (chance(0.1)) headers['x-axiom-event-labels'] = pick(['{"env":"fuzz"}', '[1]', '{', JSON.stringify(value(2)).replace(/[^\x20-\x7e]/g, '?')]);
  if (chance(0.05)) headers['x-axiom-csv-fields'] = pick(['a,b', ',,', 'x'.repeat(300)]);
  const params = new URLSearchParams();
  if (chance(0.15)) params.set('timestamp-field', pick(['a', 'a.b', 'ts', 'x.'.repeat(200), '_time']));
  if (chance(0.15)) params.set('timestamp-format', pick(['RFC3339', '2006-01-02', 'Jan _2 15:04:05', '%Y', '', '0000', 'x'.repeat(500)]));
  if (chance(0.1)) params.set('csv-delimiter', pick([';', '\\t', '""', 'abcdefghij', '\n']));
  const query = params.toString();
  return { path: `/v1/datasets/fuzz/ingest${query ? `?${query}` : ''}`, headers, body };
}

const BASE_APL = [
  "['fuzz'] | where status >= 500 | project a, status",
  "['fuzz'] | summarize count(), avg(status), dcount(a) by bin(_time, 1h), a",
  "['fuzz'] | extend s = strcat(a, '-', tostring(status)) | top 3 by s",
  "['fuzz'] | parse a with * 'x' n:int | take 5",
  "['fuzz'] | search \"GET\" | project-away b",
  "let m = 10; ['fuzz'] | where status > m | sort by _time asc | take m",
  "['fuzz'] | extend d = todynamic(a) | where d.b == 1 or isnull(d) | count",
  "['fuzz'] | join kind=leftouter (['fuzz'] | project a, k = status) on a | summarize count() by k",
  "union withsource=t ['fuzz'], (['fuzz'] | extend z = 1) | summarize count() by t",
  "['fuzz'] | make-series c = count() default=0 on _time from ago(1d) to now() step 1h by a",
  "['fuzz'] | extend d = pack_array(status, a) | mv-expand with_itemindex=i d to typeof(string) | take 5",
  "let f = (x:long, y:string) { strcat(tostring(x * 2), y) }; ['fuzz'] | extend s = f(status, a) | take 3",
  "let T = view () { ['fuzz'] | where status > 0 }; T | top-nested 2 of a by count() | take 4",
  "datatable(k:string, v:long) ['GET x1', 1, 'POST', 2] | lookup kind=leftouter (['fuzz'] | project k = a, status) on k",
  "['fuzz'] | parse-kv a as (x:string, y:long) with (pair_delimiter=' ', kv_delimiter='=') | redact 'x' | take 2",
  "['fuzz'] | where a in (['fuzz'] | where status > 100 | project a) | summarize arg_max(status, *) by a",
  "print x = 1, y = strcat('a', 'b') | extend z = x + 1",
  "search in (['fuzz']) \"GET\" | count",
];
const PIECES = ['|', '(', ')', ',', '"', "'", 'by', 'where', '==', 'summarize', 'count()', '1h', 'null', '[', ']', '.', 'dynamic([1,{"a":[]}])', '*', '-', 'not(', 'strcat(', 'extract("(a)", 9223372036854775807, a)', 'strrep(a, 100000)', '9223372036854775808', '1e400', 'datetime(2024-13-45)', 'let x = ', ';', 'take 0', 'ago(99999999999999d)', 'range(', '!in~', '@"\\d"'];
const FUNCTIONS = [...Object.keys(SCALAR_FUNCTIONS), ...Object.keys(AGGREGATE_FUNCTIONS)];

/** A function body defining a function that defines a function..., `levels` deep. */
function nestedFunctions(levels: number): string {
  let body = 'x + 1';
  for (let i = 1; i < levels; i++) body = `let g = (x:long) { ${body} }; g(x)`;
  return body;
}

function aplCase(): string {
  const roll = next();
  if (roll < 0.15) {
    // A call of any function with arbitrary arguments.
    const args = Array.from({ length: int(4) }, () => pick(['a', 'status', '_time', '1', '-1', '0.5', '"x"', 'null', 'dynamic([1])', '1h', '9223372036854775807', 'b']));
    const fn = pick(FUNCTIONS);
    return AGGREGATE_FUNCTIONS[fn] ? `['fuzz'] | summarize ${fn}(${args.join(', ')})` : `['fuzz'] | extend x = ${fn}(${args.join(', ')}) | take 3`;
  }
  if (roll < 0.22) {
    // Nesting and chains around and beyond the limits.
    const depth = pick([10, 60, 99, 101, 150, 2000]);
    return pick([
      `['fuzz'] | where ${'not('.repeat(depth)}status > 1${')'.repeat(depth)}`,
      `['fuzz'] | extend x = ${Array(depth).fill('status').join(' + ')}`,
      `['fuzz'] | where ${Array.from({ length: depth }, (_, i) => `status == ${i}`).join(' or ')}`,
      `['fuzz']${' | where status >= 0'.repeat(Math.min(depth, 400))}`,
      `let a0 = 'ab'; ${Array.from({ length: Math.min(depth, 40) }, (_, i) => `let a${i + 1} = strcat(a${i}, a${i});`).join(' ')} ['fuzz'] | extend x = strlen(a${Math.min(depth, 40)})`,
      // Functions calling the one before twice, and function bodies defining functions.
      `let f0 = (x:string) { strcat(x, x) }; ${Array.from({ length: Math.min(depth, 30) }, (_, i) => `let f${i + 1} = (x:string) { f${i}(f${i}(x)) };`).join(' ')} ['fuzz'] | extend x = f${Math.min(depth, 30)}(a)`,
      `let g = (x:long) { ${nestedFunctions(Math.min(depth, 300))} }; ['fuzz'] | extend y = g(status)`,
      `['fuzz'] | where a in (${"['fuzz'] | where a in (".repeat(Math.min(depth, 200))}['fuzz'] | project a${') | project a'.repeat(Math.min(depth, 200))})`,
    ]);
  }
  let apl = pick(BASE_APL);
  for (let k = 1 + int(3); k > 0; k--) {
    const at = int(apl.length + 1);
    const choice = next();
    if (choice < 0.45) apl = `${apl.slice(0, at)} ${pick(PIECES)} ${apl.slice(at)}`;
    else if (choice < 0.75) apl = apl.slice(0, at) + apl.slice(at + 1 + int(6));
    else {
      const from = int(apl.length);
      apl = apl.slice(0, at) + apl.slice(from, from + 8) + apl.slice(at);
    }
  }
  return apl;
}

function filter(depth: number): unknown {
  const op = pick(['and', 'or', 'not', '==', '!=', '>', 'starts-with', 'not-contains', 'regexp', 'exists', 'bogus', 'eq']);
  if ((op === 'and' || op === 'or' || op === 'not') && depth > 0) {
    return { op, children: Array.from({ length: op === 'not' ? pick([1, 1, 0, 2]) : int(4) }, () => filter(depth - 1)) };
  }
  return { op, field: chance(0.9) ? pick(['a', 'status', 'b', 'nope', '_time', '']) : undefined, value: value(1), caseSensitive: chance(0.3) ? chance(0.5) : undefined };
}

function legacyCase(): unknown {
  const request: Record<string, unknown> = {
    startTime: pick(['now-1d', 'now-1h', '2024-01-01T00:00:00Z', 'yesterday', 'now-99999999999999999h', '']),
    endTime: pick(['now', 'now+1h', '1999-01-01T00:00:00Z']),
    resolution: pick(['auto', '1m', '60', '0', '-5s', '99999999999999999999h', 'fast']),
  };
  if (chance(0.6)) request.filter = filter(3);
  if (chance(0.5)) {
    request.aggregations = Array.from({ length: int(4) }, () => ({
      op: pick(['count', 'sum', 'avg', 'distinct', 'percentiles', 'topk', 'histogram', 'argmax', 'countif', 'makeset', 'bogus']),
      field: pick(['a', 'status', '*', 'nope', undefined]),
      alias: chance(0.3) ? pick(['c', '', 'count']) : undefined,
      argument: chance(0.3) ? pick([5, -1, 1e30, 'a', [50, 200], filter(1)]) : undefined,
    }));
  }
  if (chance(0.3)) request.groupBy = Array.from({ length: int(3) }, () => pick(['a', 'status', 'nope', '']));
  if (chance(0.3)) request.order = chance(0.8) ? [{ field: pick(['a', 'status', 'count', 'x']), desc: chance(0.5) }] : pick(['x', 5, [{}]]);
  if (chance(0.2)) request.limit = pick([0, 1, 50_000, 50_001, -1, 2.5]);
  if (chance(0.2)) request.project = [{ field: pick(['a', 'b', 'nope']), alias: chance(0.5) ? 'p' : undefined }];
  if (chance(0.15)) request.virtualFields = [{ alias: 'v', expr: pick(['status * 2', 'strcat(a, "x")', 'not(', 'x'.repeat(40)]) }];
  if (chance(0.1)) request.cursor = pick(['', 'abc', '0-0-0']);
  return request;
}

const BASE_GRAPHQL = [
  '{ models(first: 3, filter: { providers: ["openai"] }) { totalCount edges { cursor node { id modelId inputCostPerMillion provider { providerId } } } pageInfo { endCursor } } }',
  '{ providers(first: 2) { edges { node { providerId models(first: 2) { edges { node { modelId } } } } } } }',
  '{ catalogMetadata { modelCount providers { name count } } }',
  '{ events(dataset: "fuzz", first: 5, filter: "status > 1") { edges { cursor node { rowId data } } } }',
  '{ apl(query: "[\'fuzz\'] | count") { status { rowsMatched } result } }',
  '{ node(id: "TW9kZWw6Z3B0LTRv") { id ... on Model { modelId } } }',
  'mutation { ingest(dataset: "fuzz", events: [{a: 1}, {b: [1, 2]}]) { ingested failed } }',
];

function graphqlCase(): { query: string; variables?: Record<string, unknown> } {
  if (chance(0.15)) {
    return {
      query: 'query($ids: [ID!]!, $first: Int, $after: String) { nodes(ids: $ids) { id } models(first: $first, after: $after) { totalCount } }',
      variables: { ids: [pick(['x', '', 'TW9kZWw6Z3B0LTRv', Buffer.from(pick(['Model:', ':x', 'Nope:1', 'Provider:openai'])).toString('base64')])], first: pick([0, 1, -1, 10_001, 2 ** 31]), after: pick(['', 'x', 'WyJtb2RlbCIsWyJhIiwiYiJdXQ']) },
    };
  }
  if (chance(0.1)) {
    return { query: 'mutation($events: [JSON!]!) { ingest(dataset: "fuzz", events: $events) { ingested failed } }', variables: { events: [value(3), value(2)] } };
  }
  let query = pick(BASE_GRAPHQL);
  for (let k = 1 + int(3); k > 0; k--) {
    const at = int(query.length + 1);
    const choice = next();
    if (choice < 0.5) query = `${query.slice(0, at)} ${pick(['{', '}', '(', ')', '[', ']', '...', 'first: 100000', '@skip(if: true)', '$x', '"', 'fragment', 'models', '__typename', '#', ':'])} ${query.slice(at)}`;
    else query = query.slice(0, at) + query.slice(at + 1 + int(5));
  }
  return { query };
}

let server: TestServer;
let fuzzToken: string;
const CANARY = Array.from({ length: 50 }, (_, i) => ({ n: i, label: `canary ${i}`, nested: { v: i * 2 } }));

const json = (body: unknown, auth?: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(auth ? { auth } : {}) });

async function canarySummary() {
  const response = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['canary'] | summarize count(), sum(n), sum(['nested.v']), dcount(label)" }));
  expect(response.status).toBe(200);
  return ((await response.json()) as any).tables[0].columns.map((column: unknown[]) => column[0]);
}

beforeAll(async () => {
  await zstdReady();
  server = await startTestServer();
  for (const name of ['canary', 'fuzz']) expect((await server.request('/v2/datasets', json({ name }))).status).toBe(200);
  expect((await server.request('/v1/datasets/canary/ingest', json(CANARY))).status).toBe(200);
  expect((await server.request('/v1/datasets/fuzz/ingest', json([{ a: 'GET x1', status: 200 }, { a: 'POST', status: 503, b: { c: 1 } }]))).status).toBe(200);
  const created = await server.request('/v2/tokens', json({ name: 'fuzzer', datasetCapabilities: { fuzz: { ingest: ['create'], query: ['read'] } } }));
  fuzzToken = ((await created.json()) as { token: string }).token;
});
afterAll(() => server.close());

describe(`fuzz (seed ${SEED})`, () => {
  it('answers every generated input without a server error and keeps its data intact', async () => {
    const failures: string[] = [];
    const cases: (() => Promise<void>)[] = [];
    const record = (kind: string, input: unknown, status: number, body: string) => {
      if (status >= 500 || body.includes('INTERNAL_SERVER_ERROR')) failures.push(`${kind} ${status}: ${JSON.stringify(input).slice(0, 300)} -> ${body.slice(0, 200)}`);
    };
    for (let i = 0; i < ROUNDS.ingest; i++) {
      const input = ingestCase();
      cases.push(async () => {
        const response = await server.request(input.path, { method: 'POST', headers: input.headers, body: input.body as BodyInit, auth: fuzzToken });
        record('ingest', { ...input, body: input.body.toString('latin1').slice(0, 200) }, response.status, await response.text());
      });
    }
    for (let i = 0; i < ROUNDS.shippers; i++) {
      const input = shipperCase({ next, int, pick, chance });
      cases.push(async () => {
        const { scheme, ...request } = input;
        const headers = { ...request.headers, ...(scheme === 'splunk' ? { authorization: `Splunk ${fuzzToken}` } : {}) };
        const response = await server.request(request.path, { method: 'POST', headers, body: request.body as BodyInit, auth: scheme === 'splunk' ? false : fuzzToken });
        record(input.kind, { ...request, body: request.body.toString('latin1').slice(0, 200) }, response.status, await response.text());
      });
    }
    for (let i = 0; i < ROUNDS.apl; i++) {
      const apl = aplCase();
      const extra = chance(0.2) ? { startTime: pick(['now-1d', 'x', '2024-02-30T00:00:00Z']), endTime: pick(['now', 'now-2d']) } : {};
      cases.push(async () => {
        const response = await server.request(`/v1/datasets/_apl?format=${pick(['tabular', 'legacy'])}`, json({ apl, ...extra }, fuzzToken));
        record('apl', apl, response.status, await response.text());
      });
    }
    for (let i = 0; i < ROUNDS.legacy; i++) {
      const body = legacyCase();
      cases.push(async () => {
        const response = await server.request('/v1/datasets/fuzz/query', json(body, fuzzToken));
        record('legacy', body, response.status, await response.text());
      });
    }
    for (let i = 0; i < ROUNDS.graphql; i++) {
      const body = graphqlCase();
      const anonymous = chance(0.3);
      cases.push(async () => {
        const response = await server.request('/graphql', { ...json(body), auth: anonymous ? false : fuzzToken });
        record('graphql', body, response.status, await response.text());
      });
    }
    // Shuffled with the same generator, sent four at a time.
    for (let i = cases.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [cases[i], cases[j]] = [cases[j]!, cases[i]!];
    }
    let position = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (position < cases.length) {
          const index = position++;
          await cases[index]!().catch((error: Error) => failures.push(`case ${index} could not be sent: ${error.message}`));
        }
      }),
    );

    expect(failures.slice(0, 10), `${failures.length} server errors`).toEqual([]);
    expect((await server.request('/healthz')).status).toBe(200);
    expect(await canarySummary()).toEqual([50, CANARY.reduce((sum, event) => sum + event.n, 0), CANARY.reduce((sum, event) => sum + event.nested.v, 0), 50]);
  }, 600_000);
});
