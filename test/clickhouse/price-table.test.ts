// The model prices in ClickHouse, through the production executor against ClickHouse's HTTP
// interface (test/helpers/clickhouse-http.ts): the table is created once, each catalog snapshot
// replaces it whole, a snapshot it holds already (or an older one) leaves it alone, installs that
// meet (instances sharing the server) leave one table of the newest snapshot, what an install
// stopped midway left is dropped at the next start once a newer snapshot is in; then two servers
// sharing one ClickHouse, both installing their catalog at start, price calls from it. Expected prices are the rows given here,
// or the catalog file's own per-token prices.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureClickHousePriceTable, installClickHousePriceTable } from '../../src/engines/clickhouse/price-table';
import type { PriceTableRow } from '../../src/engines/price-rows';
import { HttpExecutor } from '../../src/engines/clickhouse/http-executor';
import { type ClickHouseHttp, startClickHouseHttp } from '../helpers/clickhouse-http';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../helpers/server';

let endpoint: ClickHouseHttp;
let executor: HttpExecutor;

beforeAll(async () => {
  endpoint = await startClickHouseHttp();
  executor = HttpExecutor.open(endpoint.url, { join_use_nulls: 1 });
});
afterAll(async () => {
  await executor.close();
  await endpoint.close();
});

const row = (key: string, input: number, extra: Partial<PriceTableRow> = {}): PriceTableRow => ({
  key,
  dateFrom: 0,
  dateTo: 100_000_000,
  validFrom: null,
  validTo: null,
  modelId: key,
  providerId: 'acme',
  inputCostPerToken: input,
  outputCostPerToken: 2 * input,
  cacheReadCostPerToken: null,
  cacheWriteCostPerToken: null,
  ...extra,
});

/** The price tables in the database, by name, with the snapshot their comment names. */
async function tables(): Promise<string[][]> {
  const { rows } = await executor.query(`SELECT name, comment FROM system.tables WHERE database = currentDatabase() AND name LIKE 'genai\\_prices%' ORDER BY name`);
  return rows as string[][];
}

/** Input price and model of each key, looked up by the key's cityHash64 as queries do. */
async function prices(keys: string[]): Promise<unknown[][]> {
  const { rows } = await executor.query(
    `SELECT k, genai_input, genai_model_id FROM (SELECT arrayJoin([${keys.map((k) => `'${k}'`).join(', ')}]) AS k) AS t LEFT JOIN genai_prices AS p ON p.genai_key = cityHash64(t.k) ORDER BY k`,
  );
  return rows;
}

describe('the price table in ClickHouse', () => {
  it('is created empty, once', async () => {
    await ensureClickHousePriceTable(executor);
    await ensureClickHousePriceTable(executor);
    expect(await tables()).toEqual([['genai_prices', 'no catalog snapshot']]);
    expect((await executor.query('SELECT count() FROM genai_prices')).rows).toEqual([['0']]);
  });

  it('is replaced whole by a snapshot, keyed by the hash of the lookup key', async () => {
    expect(await installClickHousePriceTable(executor, [row('a-', 1e-6), row('b', 3e-6, { validTo: Date.parse('2024-01-01T00:00:00Z') })], 5)).toBe(true);
    expect(await prices(['a-', 'b', 'c'])).toEqual([
      ['a-', '0.000001', 'a-'],
      ['b', '0.000003', 'b'],
      ['c', null, null],
    ]);
    // Open periods reach past any event; only a row still valid is the latest.
    const { rows } = await executor.query("SELECT genai_valid_from, genai_valid_to, genai_latest FROM genai_prices WHERE genai_model_id = 'b'");
    expect(rows).toEqual([['-9223372036854775808', String(BigInt(Date.parse('2024-01-01T00:00:00Z')) * 1_000_000n), 'false']]);
    expect(await tables()).toEqual([['genai_prices', 'catalog snapshot 5']]);
  });

  it('is left alone by the snapshot it holds and by older ones', async () => {
    const before = endpoint.statements.length;
    expect(await installClickHousePriceTable(executor, [row('z', 9e-6)], 5)).toBe(false);
    expect(await installClickHousePriceTable(executor, [row('z', 9e-6)], 4)).toBe(false);
    expect(endpoint.statements.slice(before).some((statement) => /^(CREATE TABLE `genai_prices_|EXCHANGE)/.test(statement))).toBe(false);
    expect(await prices(['a-', 'z'])).toEqual([
      ['a-', '0.000001', 'a-'],
      ['z', null, null],
    ]);
  });

  it('ends with one table of the newest snapshot when installs meet', async () => {
    const seven = [row('a-', 7e-6), row('seven', 7e-6)];
    // Two instances installing the same snapshot, and one installing an older one.
    const results = await Promise.all([
      installClickHousePriceTable(executor, seven, 7),
      installClickHousePriceTable(executor, [row('six', 6e-6)], 6),
      installClickHousePriceTable(executor, seven, 7),
    ]);
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(await tables()).toEqual([['genai_prices', 'catalog snapshot 7']]);
    expect(await prices(['a-', 'seven', 'six'])).toEqual([
      ['a-', '0.000007', 'a-'],
      ['seven', '0.000007', 'seven'],
      ['six', null, null],
    ]);
    // The newer of two meeting installs stays whichever swaps last.
    await Promise.all([installClickHousePriceTable(executor, [row('nine', 9e-6)], 9), installClickHousePriceTable(executor, [row('eight', 8e-6)], 8)]);
    expect(await tables()).toEqual([['genai_prices', 'catalog snapshot 9']]);
    expect(await prices(['eight', 'nine'])).toEqual([
      ['eight', null, null],
      ['nine', '0.000009', 'nine'],
    ]);
  });
});

describe('at start', () => {
  it('drops what installs of older snapshots left behind, and nothing else', async () => {
    for (const name of ['genai_prices_8_0a1b', 'genai_prices_10_2c3d']) await executor.command(`CREATE TABLE ${name} (n Int64) ENGINE = MergeTree ORDER BY n`);
    await ensureClickHousePriceTable(executor);
    expect(await tables()).toEqual([
      ['genai_prices', 'catalog snapshot 9'],
      ['genai_prices_10_2c3d', ''],
    ]);
    await executor.command('DROP TABLE genai_prices_10_2c3d');
  });
});

describe('servers sharing one ClickHouse', () => {
  const litellm = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, { input_cost_per_token: number; output_cost_per_token: number }>;
  const servers: TestServer[] = [];
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    await executor.command('DROP TABLE IF EXISTS genai_prices');
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: endpoint.url }));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('each price their calls from the one table both installed', async () => {
    const calls = [
      { _time: '2024-09-02T10:00:00Z', model: 'claude-3-opus-20240229', input: 1000, output: 200 },
      { _time: '2024-09-02T10:01:00Z', model: 'openai/gpt-4o-mini', input: 500, output: 50 },
      { _time: '2024-09-02T10:02:00Z', model: 'acme-internal-7b', input: 10, output: 1 },
    ];
    const price = (key: string, input: number, output: number) => input * litellm[key]!.input_cost_per_token + output * litellm[key]!.output_cost_per_token;
    for (const server of servers) {
      expect((await server.request('/v2/datasets', json({ name: 'llm' }))).status).toBe(200);
      expect((await server.request('/v1/datasets/llm/ingest', json(calls))).status).toBe(200);
      const response = await server.request(
        '/v1/datasets/_apl?format=tabular',
        json({ apl: "['llm'] | order by _time asc | project model, cost = genai_cost(model, input, output)", startTime: '2024-09-01T00:00:00Z', endTime: '2024-09-03T00:00:00Z' }),
      );
      expect(response.status).toBe(200);
      const [models, costs] = ((await response.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!.columns as [string[], (number | null)[]];
      expect(models).toEqual(calls.map((call) => call.model));
      expect(costs[0]).toBeCloseTo(price('claude-3-opus-20240229', 1000, 200), 12);
      expect(costs[1]).toBeCloseTo(price('openai/gpt-4o-mini', 500, 50), 12);
      expect(costs[2]).toBeNull();
    }
    // Both installed the same snapshot into one table.
    const names = (await tables()).map(([name]) => name);
    expect(names).toEqual(['genai_prices']);
  });
});
