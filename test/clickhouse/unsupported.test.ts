// What the ClickHouse dialect cannot run answers as the caller's error naming the function, on
// a server with events in ClickHouse (chdb here), and the list of such functions the tests keep
// (test/apl/unsupported-on-clickhouse.ts) is exactly what the dialect lacks beside DuckDB's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_AGGREGATE_RULES } from '../../src/apl/dialect/clickhouse/aggregates';
import { CLICKHOUSE_RULES } from '../../src/apl/dialect/clickhouse/functions';
import { AGGREGATE_RULES } from '../../src/apl/dialect/duckdb/aggregates';
import { DUCKDB_RULES } from '../../src/apl/dialect/duckdb/functions';
import { UNSUPPORTED_ON_CLICKHOUSE } from '../apl/unsupported-on-clickhouse';
import { startTestServer, type TestServer } from '../helpers/server';

/** A query using each listed function, and the internal call it compiles to (several may share one). */
const USES: Record<string, { apl: string; call: string; says?: string }> = {
  dynamic_to_json: { apl: "['u'] | project v = dynamic_to_json(dynamic({'b': 1, 'a': 2}))", call: 'json_canonical' },
  geo_info_from_ip_address: { apl: "['u'] | project v = geo_info_from_ip_address('81.2.69.142')", call: 'geo_info' },
  parse_sql: { apl: "['u'] | project v = parse_sql('select a from t')", call: 'parse_sql' },
  format_sql: { apl: "['u'] | project v = format_sql(dynamic({'statement': 'select'}))", call: 'format_sql' },
  genai_estimate_tokens: { apl: "['u'] | project v = genai_estimate_tokens('hello there')", call: 'genai_estimate_tokens' },
};

let server: TestServer;
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  server = await startTestServer({ EVENT_STORE: 'chdb' });
  expect((await server.request('/v2/datasets', json({ name: 'u' }))).status).toBe(200);
  expect((await server.request('/v1/datasets/u/ingest', json([{ n: 1 }]))).status).toBe(200);
});
afterAll(() => server.close());

describe('functions the ClickHouse dialect cannot run yet', () => {
  it('are exactly the internal calls it lacks beside the DuckDB dialect', () => {
    const lacking = Object.keys(DUCKDB_RULES).filter((call) => !(call in CLICKHOUSE_RULES));
    expect(lacking.sort()).toEqual([...new Set(Object.values(USES).map((use) => use.call))].sort());
    expect(Object.keys(USES).sort()).toEqual(Object.keys(UNSUPPORTED_ON_CLICKHOUSE).sort());
    // Every aggregation is written.
    expect(Object.keys(AGGREGATE_RULES).filter((fn) => !(fn in CLICKHOUSE_AGGREGATE_RULES))).toEqual([]);
  });

  it.each(Object.entries(USES))('%s answers 400 naming it, in Axiom’s error shape', async (name, { apl, says }) => {
    const response = await server.request('/v1/datasets/_apl?format=tabular', json({ apl }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string; code: number };
    expect(body.code).toBe(400);
    expect(body.message).toContain(says ?? `${name}() is not supported yet with events in ClickHouse`);
    expect(body.message).toContain('with events in ClickHouse');
    // The server keeps answering.
    expect((await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['u'] | count" }))).status).toBe(200);
  });
});
