// Unit tests of the price history a sync writes and of model name resolution, with hand-written
// records and expectations.
import { describe, expect, it } from 'vitest';
import { buildNameIndex, nameRanges, normalizeModelName, splitDateStamp } from '../../../src/catalog/model-names';
import { planPriceChanges, type StoredPricePeriod } from '../../../src/catalog/price-history';
import type { ModelRecord } from '../../../src/catalog/record';

const record = (model_id: string, provider_id: string, input: number, output: number) =>
  ({ model_id, provider_id, input_cost_per_token: input, output_cost_per_token: output, cache_read_cost_per_token: null, cache_write_cost_per_token: null }) as ModelRecord;

const open = (id: number, modelId: string, input: number, output: number, validFrom: Date | null = null): StoredPricePeriod => ({
  id,
  modelId,
  providerId: 'openai',
  validFrom,
  validTo: null,
  inputCostPerToken: input,
  outputCostPerToken: output,
  cacheReadCostPerToken: null,
  cacheWriteCostPerToken: null,
});

describe('price history', () => {
  const at = new Date('2025-01-01T00:00:00Z');

  it('opens a period from the beginning for a model seen for the first time', () => {
    const plan = planPriceChanges([], new Set(), [record('m1', 'openai', 1e-6, 2e-6)], at);
    expect(plan.close).toEqual([]);
    expect(plan.open).toEqual([expect.objectContaining({ modelId: 'm1', validFrom: null, validTo: null, inputCostPerToken: 1e-6 })]);
  });

  it('leaves unchanged prices alone, and closes and reopens changed ones at the sync time', () => {
    const periods = [open(1, 'same', 1e-6, 2e-6), open(2, 'cut', 4e-6, 8e-6)];
    const plan = planPriceChanges(periods, new Set(['same', 'cut']), [record('same', 'openai', 1e-6, 2e-6), record('cut', 'openai', 2e-6, 8e-6)], at);
    expect(plan.close).toEqual([2]);
    expect(plan.open).toEqual([expect.objectContaining({ modelId: 'cut', validFrom: at, inputCostPerToken: 2e-6, outputCostPerToken: 8e-6 })]);
  });

  it('closes the period of a model the source no longer lists, and reopens it from the sync when it returns', () => {
    expect(planPriceChanges([open(3, 'gone', 1e-6, 1e-6)], new Set(['gone']), [], at)).toEqual({ close: [3], open: [] });
    const back = planPriceChanges([], new Set(['gone']), [record('gone', 'openai', 1e-6, 1e-6)], at);
    expect(back.open).toEqual([expect.objectContaining({ modelId: 'gone', validFrom: at })]);
  });
});

describe('model names', () => {
  it('normalizes case, spaces, Bedrock ARNs and Gemini resource names', () => {
    expect(normalizeModelName('  GPT-4o ')).toBe('gpt-4o');
    expect(normalizeModelName('arn:aws:bedrock:eu-west-1:123:inference-profile/eu.anthropic.claude-x-v1:0')).toBe('bedrock/eu.anthropic.claude-x-v1:0');
    expect(normalizeModelName('models/gemini-2.5-pro')).toBe('gemini-2.5-pro');
  });

  it('splits date stamps in both spellings, keeping a Bedrock version in the key', () => {
    expect(splitDateStamp('gpt-4o-2024-08-06')).toEqual({ base: 'gpt-4o', date: 20240806, key: 'gpt-4o-' });
    expect(splitDateStamp('claude-x-20240806-v1:0')).toEqual({ base: 'claude-x', date: 20240806, key: 'claude-x--v1:0' });
    expect(splitDateStamp('claude-x@20240806')).toEqual({ base: 'claude-x', date: 20240806, key: 'claude-x@' });
    expect(splitDateStamp('gpt-4o')).toEqual({ base: 'gpt-4o', date: 0, key: 'gpt-4o' });
  });

  it('resolves qualified names to the qualifying provider first', () => {
    const index = buildNameIndex([
      { modelId: 'openai/gpt-4o', providerId: 'replicate', current: true },
      { modelId: 'gpt-4o', providerId: 'openai', current: true },
      { modelId: 'azure/gpt-35-turbo', providerId: 'azure', current: true },
    ]);
    expect(index.get('openai/gpt-4o')?.modelId).toBe('gpt-4o');
    expect(index.get('gpt-4o')?.modelId).toBe('gpt-4o');
    expect(index.get('az.ai.openai/gpt-35-turbo')?.modelId).toBe('azure/gpt-35-turbo');
    expect(index.get('gpt-35-turbo')?.modelId).toBe('azure/gpt-35-turbo');
  });

  it('falls back from an unknown date to the undated model of the same provider only', () => {
    const index = buildNameIndex([
      { modelId: 'gpt-4o', providerId: 'openai', current: true },
      { modelId: 'gpt-4o-2024-08-06', providerId: 'openai', current: true },
      { modelId: 'claude-q', providerId: 'vertex', current: true },
      { modelId: 'claude-q-20250101', providerId: 'anthropic', current: true },
    ]);
    const ranges = nameRanges(index);
    const find = (name: string) => {
      const { key, date } = splitDateStamp(name);
      return ranges.filter((r) => r.key === key && r.dateFrom <= date && date < r.dateTo).map((r) => r.model.modelId);
    };
    expect(find('gpt-4o-2024-08-06')).toEqual(['gpt-4o-2024-08-06']);
    expect(find('gpt-4o-20240806')).toEqual(['gpt-4o-2024-08-06']);
    expect(find('gpt-4o-2030-01-01')).toEqual(['gpt-4o']);
    expect(find('gpt-4o-2024-08-07')).toEqual(['gpt-4o']);
    expect(find('claude-q-20250101')).toEqual(['claude-q-20250101']);
    expect(find('claude-q-20990101')).toEqual([]);
  });
});
