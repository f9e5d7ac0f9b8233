// The same APL answers the same on both event stores: the functions ClickHouse has no SQL for
// (canonical JSON, GeoIP, the SQL grammar, the token estimate) are evaluated by the server with
// the very code DuckDB runs as functions inside its engine, wherever the query uses them (a
// projection, a filter, a grouping key, an aggregation's argument, a sort key, a subquery).
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_AGGREGATE_RULES } from '../../src/apl/dialect/clickhouse/aggregates';
import { CLICKHOUSE_RULES } from '../../src/apl/dialect/clickhouse/functions';
import { AGGREGATE_RULES } from '../../src/apl/dialect/duckdb/aggregates';
import { DUCKDB_RULES } from '../../src/apl/dialect/duckdb/functions';
import { createDuckDBRunner, executeApl, parseQuery, prepareQuery } from '../../src/apl';
import { installPriceTable } from '../../src/engines/duckdb/price-table';
import { normalize } from '../helpers/apl/conformance-helpers';
import { addDataset, createTestDatabase, tableRows, type TestDatabase, type TestEvent } from '../helpers/apl/fixtures';

/** A DuckDB database beside the chdb one the project's fixtures give, with the same engine settings. */
async function duckdbBeside(chdb: TestDatabase): Promise<TestDatabase> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const datasets = new Map(chdb.datasets);
  const deps = { ...chdb.deps, runner: createDuckDBRunner(instance), resolveDatasets: async (names: string[]) => names.flatMap((name) => (datasets.has(name) ? [datasets.get(name)!] : [])) };
  delete (deps as { dialect?: unknown }).dialect;
  const query = (apl: string) => executeApl({ apl }, deps);
  return {
    instance,
    connection,
    datasets,
    views: new Map(),
    deps,
    query,
    rows: async (apl) => tableRows(await query(apl)),
    execute: async (sql) => void (await connection.run(sql)),
    scalar: async (sql) => (await connection.runAndReadAll(sql)).getRows()[0]?.[0],
    quote: (name) => `"${name}"`,
    installPrices: (rows) => installPriceTable(connection, rows),
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

const EVENTS: TestEvent[] = [
  {
    _time: '2024-04-30T10:00:00Z',
    ip: '81.2.69.142',
    obj: { b: 1, a: { d: [{ z: 1, y: 2 }], c: null }, 'x.y': 'dotted' },
    q: 'select a, b from t where x = 1',
    text: 'hello there, general Kenobi',
    bytes: [192, 168, 0, 1],
  },
  {
    _time: '2024-04-30T10:01:00Z',
    ip: '2001:4860:4860::8888',
    obj: { k: 'v', a: [3, { n: 2.5, m: true }] },
    q: 'SELECT count(*) AS n FROM logs WHERE status >= 500 GROUP BY host ORDER BY n DESC LIMIT 10',
    text: 'Tokens: 🙂 ünïcödé and code `x = y + 1`',
    bytes: [300],
  },
  { _time: '2024-04-30T10:02:00Z', ip: '10.0.0.1', obj: {}, q: 'not sql at all', text: '', bytes: [] },
  { _time: '2024-04-30T10:03:00Z', ip: 'not an address', text: 'The quick brown fox' },
  { _time: '2024-04-30T10:04:00Z', ip: '81.2.69.142', obj: { b: 1, a: 2 }, q: 'select a, b from t where x = 1', text: 'hello there, general Kenobi', bytes: [104, 105] },
];

let chdb: TestDatabase;
let duckdb: TestDatabase;

beforeAll(async () => {
  chdb = await createTestDatabase();
  const fields = [
    { name: 'ip', type: 'string' as const },
    { name: 'obj', type: 'map' as const },
    { name: 'q', type: 'string' as const },
    { name: 'text', type: 'string' as const },
    { name: 'bytes', type: 'array' as const },
  ];
  await addDataset(chdb, 'p', fields, EVENTS);
  duckdb = await duckdbBeside(chdb);
  await addDataset(duckdb, 'p', fields, EVENTS);
  // Many distinct values: their answers make a statement longer than ClickHouse reads by default.
  const many = Array.from({ length: 3000 }, (_, i) => ({ _time: '2024-04-30T11:00:00Z', obj: { z: i, a: `${'x'.repeat(100)}${i}` } }));
  await addDataset(chdb, 'many', [{ name: 'obj', type: 'map' }], many);
  await addDataset(duckdb, 'many', [{ name: 'obj', type: 'map' }], many);
}, 120_000);

afterAll(async () => {
  await chdb?.close();
  await duckdb?.close();
});

/** Runs a query on both stores: the answers must be equal (and the DuckDB one is returned). */
async function same(apl: string): Promise<Record<string, unknown>[]> {
  const expected = (await duckdb.rows(apl)).map((row) => normalize(row));
  const actual = (await chdb.rows(apl)).map((row) => normalize(row));
  expect(actual).toEqual(expected);
  return expected as Record<string, unknown>[];
}

describe('every function the DuckDB store runs, ClickHouse runs', () => {
  it('the ClickHouse dialect writes every call and aggregation the DuckDB dialect writes', () => {
    expect(Object.keys(DUCKDB_RULES).filter((call) => !(call in CLICKHOUSE_RULES))).toEqual([]);
    expect(Object.keys(AGGREGATE_RULES).filter((fn) => !(fn in CLICKHOUSE_AGGREGATE_RULES))).toEqual([]);
  });
});

describe('functions evaluated by the server give the answers of the DuckDB store', () => {
  const order = "| sort by _time asc";

  it('dynamic_to_json sorts keys at every depth', async () => {
    const rows = await same(`['p'] ${order} | project v = dynamic_to_json(obj), w = dynamic_to_json(dynamic({'b': [{'d': 1, 'c': 2}], 'a': null}))`);
    expect(rows[0]!.v).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1,"x.y":"dotted"}');
    expect(rows[0]!.w).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
    expect(rows[3]!.v).toBeNull();
  });

  it('geo_info_from_ip_address looks addresses up in the MMDB file', async () => {
    const rows = await same(`['p'] ${order} | project ip, g = geo_info_from_ip_address(ip), country = tostring(geo_info_from_ip_address(ip).country)`);
    expect(rows[0]!.country).toBe('United Kingdom');
    expect(rows[2]!.g).toBeNull();
    expect(rows[3]!.g).toBeNull();
  });

  it('parse_sql and format_sql read and print SQL, nested in one another', async () => {
    const rows = await same(`['p'] ${order} | project m = parse_sql(q), f = format_sql(parse_sql(q)), c = format_sql(dynamic({'statement': 'select'}))`);
    expect(rows[0]!.m).toBeTruthy();
    expect(typeof rows[0]!.f).toBe('string');
  });

  it('genai_estimate_tokens counts tokens', async () => {
    const rows = await same(`['p'] ${order} | project t = genai_estimate_tokens(text), l = genai_estimate_tokens('hello there')`);
    expect(rows[0]!.t).toBeGreaterThan(3);
    expect(rows[2]!.t).toBe(0);
  });

  it('base64_encode_fromarray and unicode_codepoints_to_string read an array column', async () => {
    const rows = await same(`['p'] ${order} | project b = base64_encode_fromarray(bytes), c = unicode_codepoints_to_string(bytes)`);
    expect(rows[0]!.b).toBe(Buffer.from([192, 168, 0, 1]).toString('base64'));
  });
});

describe('where only the result reads a value, the server answers the rows returned', () => {
  /** The statement the ClickHouse store is given for a query. */
  const statementOf = async (apl: string) => (await prepareQuery(parseQuery(apl), {}, chdb.deps)).statement;

  it('without reading every argument first', async () => {
    const apl = "['p'] | extend t = genai_estimate_tokens(text), g = geo_info_from_ip_address(ip) | sort by _time asc | take 2 | project text, t, g";
    const statement = await statementOf(apl);
    expect(statement.pending).toBeUndefined();
    expect(statement.serverColumns?.map((column) => column.fn).sort()).toEqual(['genai_estimate_tokens', 'geo_info']);
    const rows = await same(apl);
    expect(rows).toHaveLength(2);
    await same("['p'] | project j = dynamic_to_json(obj), f = format_sql(parse_sql(q)) | where isnotnull(f)");
  });

  it('and looks it up where an operator reads it too', async () => {
    const apl = "['p'] | extend j = dynamic_to_json(obj) | where isnotempty(j) | project j, n = strlen(j)";
    expect((await statementOf(apl)).pending?.lookups.map((lookup) => lookup.fn)).toEqual(['json_canonical']);
    await same(apl);
  });
});

describe('a later operator may use what the server evaluates', () => {
  it('in a filter', async () => {
    const rows = await same("['p'] | where genai_estimate_tokens(text) > 4 | project text | sort by text asc");
    expect(rows.length).toBe(3);
  });

  it('as a grouping key and inside aggregations', async () => {
    await same("['p'] | summarize n = count(), t = sum(genai_estimate_tokens(text)) by country = tostring(geo_info_from_ip_address(ip).country) | sort by country asc");
    await same("['p'] | extend j = dynamic_to_json(obj) | summarize n = dcount(j), longest = max(strlen(j))");
  });

  it('as a sort key, after a take, and in a subquery', async () => {
    await same("['p'] | extend t = genai_estimate_tokens(text) | sort by t desc, _time asc | take 3 | project text, t");
    await same("['p'] | where text in (['p'] | where genai_estimate_tokens(text) > 4 | project text) | count");
    await same("['p'] | extend f = format_sql(parse_sql(q)) | where isnotempty(f) | summarize count() by f | sort by f asc");
  });

  it('over many distinct values, within the result budget', async () => {
    const apl = "['many'] | summarize n = dcount(dynamic_to_json(obj)), longest = max(strlen(dynamic_to_json(obj)))";
    expect(await same(apl)).toEqual([{ n: 3000, longest: 121 }]);
    // The answers are written into the statement, so they count against the result budget.
    const failure = await executeApl({ apl }, { ...chdb.deps, maxResultBytes: 100_000 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'limit_exceeded' });
  });

  it('over literal rows and joined tables', async () => {
    await same("print j = dynamic_to_json(dynamic({'z': 1, 'a': [2, {'y': 1, 'b': 0}]})), t = genai_estimate_tokens('one two three')");
    await same(
      "['p'] | project k = genai_estimate_tokens(text), ip | join kind=inner (['p'] | project k = genai_estimate_tokens(text), q) on k | project ip, q, k | sort by ip asc, q asc",
    );
  });
});
