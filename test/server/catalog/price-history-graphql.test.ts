// Model.priceHistory over GraphQL, without a token: one open period for a model whose prices never
// changed, and after a sync that changes a model's prices, the old period closed at the sync's time
// and the new one open from then, oldest first.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
const SYNCED_AT = new Date('2026-03-01T12:00:00Z');
const HISTORY = `query($id: String!) { model(id: $id) { modelId priceHistory {
  validFrom validTo inputCostPerToken inputCostPerMillion outputCostPerMillion cacheReadCostPerMillion cacheWriteCostPerMillion } } }`;

beforeAll(async () => {
  server = await startTestServer();
  const catalog = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, Record<string, unknown>>;
  catalog['claude-3-opus-20240229'] = { ...catalog['claude-3-opus-20240229'], input_cost_per_token: 0.00001 };
  const source = path.join(server.dataDir, 'changed.json');
  writeFileSync(source, JSON.stringify(catalog));
  await server.app.services.catalog.sync({ kind: 'litellm', source }, { now: () => SYNCED_AT });
});
afterAll(() => server?.close());

const history = async (id: string) => {
  const result = await server.graphql(HISTORY, { id }, false);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data.model.priceHistory as Record<string, unknown>[];
};

describe('Model.priceHistory', () => {
  it('has one open period for a model whose prices never changed', async () => {
    const litellm = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, { input_cost_per_token: number; output_cost_per_token: number }>;
    const periods = await history('gpt-4o-mini');
    expect(periods).toHaveLength(1);
    expect(periods[0]).toMatchObject({ validFrom: null, validTo: null, inputCostPerToken: litellm['openai/gpt-4o-mini']!.input_cost_per_token });
    expect(periods[0]!.outputCostPerMillion).toBeCloseTo(litellm['openai/gpt-4o-mini']!.output_cost_per_token * 1e6, 9);
  });

  it('closes the old period at the sync that changed the prices and opens the new one', async () => {
    const periods = await history('claude-3-opus-20240229');
    expect(periods.map((period) => [period.validFrom, period.validTo])).toEqual([
      [null, SYNCED_AT.toISOString()],
      [SYNCED_AT.toISOString(), null],
    ]);
    expect(periods[0]!.inputCostPerMillion).toBeCloseTo(15, 9);
    expect(periods[1]!.inputCostPerMillion).toBeCloseTo(10, 9);
    expect(periods[1]!.outputCostPerMillion).toBeCloseTo(75, 9);
    expect(periods[1]!.cacheReadCostPerMillion).toBeCloseTo(1.5, 9);
  });

  it('is null for an unknown model', async () => {
    const result = await server.graphql(HISTORY, { id: 'no-such-model' }, false);
    expect(result.errors).toBeUndefined();
    expect(result.data.model).toBeNull();
  });
});
