// The pure parts of the LLM costs and Models pages: the catalog browser's own filters and sorts,
// the bin width chosen for a range, the APL the costs page writes, and the price changes it marks
// on the time axis.
import { describe, expect, it } from 'vitest';
import type { ModelListItem } from '../../../console/src/api/models';
import type { Usage } from '../../../console/src/api/llm';
import { conversationApl, prelude, topConversationsApl, whatIfApl } from '../../../console/src/pages/llm-costs/genai-apl';
import { intervalFor } from '../../../console/src/pages/llm-costs/interval';
import { costSeries, priceChangeMarks } from '../../../console/src/pages/llm-costs/usage-series';
import { OTEL_FIELDS } from '../../../console/src/pages/llm-costs/url-state';
import { listStateFrom, refine, sortModels } from '../../../console/src/pages/models/model-list';

const model = (id: string, input: number | null, output: number | null, context: number | null): ModelListItem => ({
  model_id: id,
  model_name: id,
  provider_id: 'p',
  provider_name: 'P',
  model_type: 'chat',
  max_input_tokens: context,
  max_output_tokens: null,
  input_cost_per_million: input,
  output_cost_per_million: output,
  cache_read_cost_per_million: null,
  supports_function_calling: false,
  supports_vision: false,
  supports_json_mode: false,
  supports_parallel_functions: false,
  deprecation_date: null,
});

describe('the catalog browser', () => {
  const models = [model('a', 3, 10, 8_000), model('b', 0.5, 2, 200_000), model('c', null, null, null), model('d', 1, 4, 128_000)];

  it('filters by context window, prices and text, leaving out unknown figures', () => {
    const ids = (search: string) => refine(models, listStateFrom(new URLSearchParams(search))).map((one) => one.model_id);
    expect(ids('minContext=100000')).toEqual(['b', 'd']);
    expect(ids('maxInput=1')).toEqual(['b', 'd']);
    expect(ids('maxOutput=3')).toEqual(['b']);
    expect(ids('q=C')).toEqual(['c']);
  });

  it('sorts by price ascending and context descending, unknown values last', () => {
    expect(sortModels(models, 'input-price').map((one) => one.model_id)).toEqual(['b', 'd', 'a', 'c']);
    expect(sortModels(models, 'context').map((one) => one.model_id)).toEqual(['b', 'd', 'a', 'c']);
    expect(sortModels(models, 'provider')).toBe(models);
  });
});

describe('the LLM costs page', () => {
  it('bins a range into about forty readable widths', () => {
    expect(intervalFor('now-1h', 'now')).toBe('5m');
    expect(intervalFor('now-24h', 'now')).toBe('1h');
    expect(intervalFor('2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z')).toBe('1d');
  });

  it('writes APL with quoted names, the model filter, and no conversation query without its field', () => {
    const scope = { dataset: "o'brien", fields: OTEL_FIELDS, modelId: 'gpt-4o' };
    expect(prelude(scope)).toContain("['o\\'brien']");
    expect(prelude(scope)).toContain("where tostring(genai_get_pricing(__model)['model_id']) == 'gpt-4o'");
    expect(whatIfApl(scope, 'claude-3', '1h')).toContain("repriced = sum(genai_cost('claude-3', __in, __out))");
    expect(conversationApl(scope, 'c-1')).toContain("== 'c-1'");
    expect(topConversationsApl({ ...scope, fields: { ...OTEL_FIELDS, conversation: '' } })).toBeUndefined();
  });

  const usage: Usage = {
    interval: '1h',
    calls: 3,
    inputTokens: 30,
    outputTokens: 3,
    cost: 3,
    series: [
      {
        modelName: 'cheap',
        model: null,
        provider: null,
        service: null,
        calls: 1,
        inputTokens: 10,
        outputTokens: 1,
        cost: 1,
        points: [{ time: '2026-01-01T01:00:00Z', calls: 1, inputTokens: 10, outputTokens: 1, cost: 1, unpricedCalls: 0 }],
      },
      {
        modelName: 'dear',
        model: {
          modelId: 'dear-1',
          providerId: 'x',
          priceHistory: [
            { validFrom: null, validTo: '2026-01-01T01:30:00Z', inputCostPerMillion: 2, outputCostPerMillion: 4, cacheReadCostPerMillion: null, cacheWriteCostPerMillion: null },
            { validFrom: '2026-01-01T01:30:00Z', validTo: null, inputCostPerMillion: 1, outputCostPerMillion: 3, cacheReadCostPerMillion: null, cacheWriteCostPerMillion: null },
          ],
        },
        provider: 'x',
        service: null,
        calls: 2,
        inputTokens: 20,
        outputTokens: 2,
        cost: 2,
        points: [
          { time: '2026-01-01T00:00:00Z', calls: 1, inputTokens: 10, outputTokens: 1, cost: 1.5, unpricedCalls: 0 },
          { time: '2026-01-01T02:00:00Z', calls: 1, inputTokens: 10, outputTokens: 1, cost: 0.5, unpricedCalls: 0 },
        ],
      },
    ],
  };

  it('lines groups up on one time axis, the costliest first, zero where a group had no call', () => {
    const data = costSeries(usage, 'MODEL');
    expect(data.times).toEqual([0, 1, 2].map((hour) => Date.parse(`2026-01-01T0${hour}:00:00Z`) / 1000));
    expect(data.binSeconds).toBe(3600);
    expect(data.series.map((one) => [one.label, one.values])).toEqual([
      ['dear', [1.5, 0, 0.5]],
      ['cheap', [0, 1, 0]],
    ]);
  });

  it('marks the price changes inside the range only', () => {
    const at = Date.parse('2026-01-01T01:30:00Z') / 1000;
    const marks = priceChangeMarks(usage, at - 60, at + 60);
    expect(marks.map((mark) => [mark.title, mark.start])).toEqual([['Price change: dear-1', at]]);
    expect(marks[0]!.description).toContain('$2.00 → $1.00');
    expect(priceChangeMarks(usage, at + 60, at + 120)).toEqual([]);
  });
});
