// Conformance of the GenAI pricing functions in the engine (genai_cost, genai_input_cost,
// genai_output_cost, genai_get_pricing) on the store's price table, installed as the store
// installs it: costs from a hand-written price history (expected figures computed by hand from
// the per-token prices below), name resolution, and sums of costs priced per price era.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EngineDeps, executeApl, priceBoundaries } from '../../../src/apl';
import { buildPriceRows } from '../../../src/catalog/price-book';
import type { PricePeriod } from '../../../src/catalog/price-history';
import type { ModelRecord } from '../../../src/catalog/record';
import { addDataset, createTestDatabase, tableRows, type TestDatabase } from '../../helpers/apl/fixtures';

const CUT = new Date('2024-06-01T00:00:00Z');

/** model, provider, input, output, cache read, cache write per token; gpt-4o halves at CUT. */
const MODELS: [string, string, number, number, number | null, number | null][] = [
  ['gpt-4o', 'openai', 2e-6, 8e-6, 1e-6, null],
  ['gpt-4o-2024-08-06', 'openai', 3e-6, 9e-6, null, null],
  ['azure/gpt-4o', 'azure', 4e-6, 1e-5, null, null],
  ['anthropic.claude-z-20240620-v1:0', 'bedrock', 5e-6, 2e-5, 5e-7, 6e-6],
  ['claude-q-20250101', 'anthropic', 7e-6, 3e-5, null, null],
  ['claude-q', 'vertex', 1e-6, 1e-6, null, null],
];

function periods(): PricePeriod[] {
  return MODELS.flatMap(([modelId, providerId, input, output, cacheRead, cacheWrite]): PricePeriod[] => {
    const prices = { inputCostPerToken: input, outputCostPerToken: output, cacheReadCostPerToken: cacheRead, cacheWriteCostPerToken: cacheWrite };
    if (modelId !== 'gpt-4o') return [{ modelId, providerId, validFrom: null, validTo: null, ...prices }];
    return [
      { modelId, providerId, validFrom: null, validTo: CUT, ...prices, inputCostPerToken: 2 * input, outputCostPerToken: 2 * output },
      { modelId, providerId, validFrom: CUT, validTo: null, ...prices },
    ];
  });
}

let db: TestDatabase;
let boundaries: bigint[];

beforeAll(async () => {
  db = await createTestDatabase();
  const records = MODELS.map(([model_id, provider_id]) => ({ model_id, provider_id }) as ModelRecord);
  const rows = buildPriceRows(records, periods());
  boundaries = priceBoundaries(rows);
  await db.installPrices(rows);
  await addDataset(
    db,
    'calls',
    [
      { name: 'model', type: 'string' },
      { name: 'in', type: 'integer' },
      { name: 'out', type: 'integer' },
      { name: 'cached', type: 'integer' },
    ],
    [
      { _time: '2024-05-01T00:00:00Z', model: 'gpt-4o', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:00:00Z', model: 'gpt-4o', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:01:00Z', model: 'openai/gpt-4o-2024-08-06', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:02:00Z', model: 'gpt-4o-2030-01-01', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:03:00Z', model: 'az.ai.openai/gpt-4o', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:04:00Z', model: 'bedrock/anthropic.claude-z-20240620-v1:0', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:05:00Z', model: 'claude-q-20251231', in: 1000, out: 100, cached: 400 },
      { _time: '2024-07-01T00:06:00Z', model: 'nobody-knows', in: 1000, out: 100, cached: 400 },
    ],
  );
  await addDataset(
    db,
    'gaps',
    [
      { name: 'model', type: 'string' },
      { name: 'in', type: 'integer' },
      { name: 'out', type: 'integer' },
    ],
    [
      { _time: '2024-05-31T23:00:00Z', model: 'gpt-4o', in: 1000, out: 100 },
      { _time: '2024-06-01T01:00:00Z', model: 'gpt-4o', in: 1000, out: 100 },
      { _time: '2024-06-01T02:00:00Z', model: 'gpt-4o', in: 1000 },
      { _time: '2024-06-01T03:00:00Z', model: 'azure/gpt-4o', in: 10, out: 1 },
      { _time: '2024-06-01T04:00:00Z', model: 'mystery', in: 10, out: 1 },
    ],
  );
});
afterAll(() => db?.close());

const rowsOf = (apl: string) => db.rows(apl);
const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

describe('genai_cost and friends', () => {
  it('price each call at its time by the resolved model', async () => {
    const rows = await rowsOf("['calls'] | order by _time asc | project model, c = genai_cost(model, in, out), i = genai_input_cost(model, in), o = genai_output_cost(model, out)");
    // By hand: input tokens × input price + output tokens × output price.
    const expected = [
      1000 * 4e-6 + 100 * 16e-6, // gpt-4o before the cut: double prices
      1000 * 2e-6 + 100 * 8e-6, // after the cut
      1000 * 3e-6 + 100 * 9e-6, // the dated model itself
      1000 * 2e-6 + 100 * 8e-6, // an unknown date falls back to gpt-4o
      1000 * 4e-6 + 100 * 1e-5, // an OpenTelemetry spelling of Azure
      1000 * 5e-6 + 100 * 2e-5, // Bedrock, provider-qualified
      null, // the undated claude-q is another provider's: no fallback
      null,
    ];
    expect(rows.map((row) => row.c)).toEqual(expected.map((value) => (value === null ? null : expect.closeTo(value, 15))));
    expect(rows[0]!.i).toBeCloseTo(1000 * 4e-6, 15);
    expect(rows[0]!.o).toBeCloseTo(100 * 16e-6, 15);
    expect(rows[7]).toMatchObject({ i: null, o: null });
  });

  it('bill cached tokens at their prices, and at the input price where the catalog has none', async () => {
    const rows = await rowsOf("['calls'] | where _time > datetime(2024-06-30) | order by _time asc | project c = genai_cost(model, in, out, cached, 100)");
    expect(rows[0]!.c).toBeCloseTo(500 * 2e-6 + 400 * 1e-6 + 100 * 2e-6 + 100 * 8e-6, 15);
    expect(rows[1]!.c).toBeCloseTo(1000 * 3e-6 + 100 * 9e-6, 15);
    expect(rows[4]!.c).toBeCloseTo(500 * 5e-6 + 400 * 5e-7 + 100 * 6e-6 + 100 * 2e-5, 15);
  });

  it('answer the pricing object', async () => {
    const rows = await rowsOf("['calls'] | take 8 | order by _time asc | project p = genai_get_pricing(model)");
    expect(parsed(rows[0]!.p)).toEqual({ input_price_per_million: 4, output_price_per_million: 16, cache_read_price_per_million: 1, cache_write_price_per_million: null, provider: 'openai', model_id: 'gpt-4o' });
    expect(parsed(rows[5]!.p)).toMatchObject({ input_price_per_million: 5, cache_write_price_per_million: 6, provider: 'bedrock', model_id: 'anthropic.claude-z-20240620-v1:0' });
    expect(rows[7]!.p).toBeNull();
    const [today] = await rowsOf("print p = genai_get_pricing('GPT-4o'), c = genai_cost('gpt-4o', 10, 1)");
    expect(parsed(today!.p)).toMatchObject({ input_price_per_million: 2, model_id: 'gpt-4o' });
    expect(today!.c).toBeCloseTo(10 * 2e-6 + 8e-6, 15);
  });
});

describe('sums of costs priced per era', () => {
  // The same queries with and without the price table's boundaries: with them, calls are summed
  // per (group, model, era) and the sums priced; the answers must not change.
  const run = async (apl: string, withBoundaries: boolean) => {
    const sql: string[] = [];
    const runner = db.deps.runner;
    const deps: EngineDeps = {
      ...db.deps,
      runner: { ...runner, run: (statement, options) => (sql.push(statement.sql), runner.run(statement, options)) },
      ...(withBoundaries ? { priceBoundaries: () => boundaries } : {}),
    };
    return { rows: tableRows(await executeApl({ apl }, deps)), sql: sql.join('\n') };
  };
  // By hand: before the cut gpt-4o costs 4e-6 / 16e-6, after it 2e-6 / 8e-6; azure/gpt-4o 4e-6 / 1e-5.
  const before = 1000 * 4e-6 + 100 * 16e-6;
  const after = 1000 * 2e-6 + 100 * 8e-6;
  const azure = 10 * 4e-6 + 1 * 1e-5;

  for (const withBoundaries of [false, true]) {
    it(`${withBoundaries ? 'per era' : 'row by row'}: one group across a price change, null tokens and unknown models left out`, async () => {
      const { rows, sql } = await run("['gaps'] | summarize c = sum(genai_cost(model, in, out)), n = count(), i = sum(genai_input_cost(model, in))", withBoundaries);
      expect(sql.includes('__r_era')).toBe(withBoundaries);
      expect(rows).toEqual([{ c: expect.closeTo(before + after + azure, 15), n: 5, i: expect.closeTo(1000 * 4e-6 + 2000 * 2e-6 + 10 * 4e-6, 15) }]);
    });

    it(`${withBoundaries ? 'per era' : 'row by row'}: by model and day, and differences of costs`, async () => {
      const { rows } = await run(
        "['gaps'] | summarize c = sum(genai_cost(model, in, out)), out_only = sum(genai_cost(model, in, out) - genai_input_cost(model, in)) by model, bin(_time, 1d) | order by model asc, _time asc",
        withBoundaries,
      );
      expect(rows).toEqual([
        { model: 'azure/gpt-4o', _time: '2024-06-01T00:00:00Z', c: expect.closeTo(azure, 15), out_only: expect.closeTo(1e-5, 15) },
        { model: 'gpt-4o', _time: '2024-05-31T00:00:00Z', c: expect.closeTo(before, 15), out_only: expect.closeTo(100 * 16e-6, 15) },
        { model: 'gpt-4o', _time: '2024-06-01T00:00:00Z', c: expect.closeTo(after, 15), out_only: expect.closeTo(100 * 8e-6, 15) },
        { model: 'mystery', _time: '2024-06-01T00:00:00Z', c: null, out_only: null },
      ]);
    });

    it(`${withBoundaries ? 'per era' : 'row by row'}: calls all without tokens, and no calls at all, sum to null`, async () => {
      const { rows: untokened } = await run("['gaps'] | where isnull(out) | summarize c = sum(genai_cost(model, in, out)), i = sum(genai_input_cost(model, in)), n = count() by model", withBoundaries);
      expect(untokened).toEqual([{ model: 'gpt-4o', c: null, i: expect.closeTo(1000 * 2e-6, 15), n: 1 }]);
      const { rows: none } = await run("['gaps'] | where model == 'nobody' | summarize c = sum(genai_cost(model, in, out)), n = count()", withBoundaries);
      expect(none).toEqual([{ c: null, n: 0 }]);
    });
  }

  it('keeps the row-by-row lookup for aggregations it cannot split', async () => {
    const { rows, sql } = await run("['gaps'] | summarize a = avg(genai_cost(model, in, out)) by model | where model == 'gpt-4o'", true);
    expect(sql.includes('__r_era')).toBe(false);
    expect(rows[0]!.a).toBeCloseTo((before + after) / 2, 15);
  });
});
