// Beyond what Axiom's server offers: the model catalog (models, prices per million tokens,
// context windows, price history), cost estimates priced exactly as `genai_cost` prices events,
// and the LLM usage of a dataset of GenAI calls (calls, tokens and cost per model, ...).
import { z } from 'zod';
import type { ModelRecord } from '../../catalog/record';
import { invalidInput } from '../../errors';
import { OTEL_USAGE_FIELDS, type UsageGroup } from '../../queries/llm-usage';
import { csvRow } from '../../rest/shared/csv';
import { defineTool, type ToolContext } from '../tool-kit';
import { instantOf, windowOf } from '../times';

const PER_MILLION = 1_000_000;
const perMillion = (perToken: number | null) => (perToken === null ? null : Math.round(perToken * PER_MILLION * 1e9) / 1e9);

const modelName = z.string().min(1).max(300).regex(/^[^\n\r]*$/, 'must be one line');
const at = z.string().max(100).optional().describe('Price at this time (RFC 3339 or now-30d); default: now');

/** An APL string literal. */
const aplString = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** One row priced at `when` through the engine, so the figures are those genai_* functions give. */
async function priceRow(context: ToolContext, expressions: string, when: Date): Promise<Record<string, unknown>> {
  const apl = `datatable (_time: datetime) [datetime(${when.toISOString()})]\n| extend ${expressions}`;
  const answer = await context.services.queries.apl(context.principal, { apl }, { signal: context.signal });
  const row: Record<string, unknown> = {};
  answer.table.fields.forEach((field, index) => (row[field.name] = answer.table.columns[index]?.[0] ?? null));
  return row;
}

const modelSummary = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  type: z.string(),
  inputPerMillion: z.number(),
  outputPerMillion: z.number(),
  cacheReadPerMillion: z.number().nullable(),
  cacheWritePerMillion: z.number().nullable(),
  contextWindow: z.number().nullable().describe('Most input tokens'),
  maxOutputTokens: z.number().nullable(),
  deprecationDate: z.string().nullable(),
});

function summaryOf(model: ModelRecord): z.infer<typeof modelSummary> {
  return {
    id: model.model_id,
    name: model.model_name,
    provider: model.provider_id,
    type: model.model_type,
    inputPerMillion: model.input_cost_per_million,
    outputPerMillion: model.output_cost_per_million,
    cacheReadPerMillion: model.cache_read_cost_per_million,
    cacheWritePerMillion: model.cache_write_cost_per_million,
    contextWindow: model.max_input_tokens,
    maxOutputTokens: model.max_output_tokens,
    deprecationDate: model.deprecation_date,
  };
}

export const searchModels = defineTool({
  name: 'searchModels',
  title: 'Search the model catalog',
  description:
    'Searches the LLM model catalog (LiteLLM data): models with prices in USD per million tokens (input, output, cache read, cache write), context window and deprecation date. ' +
    'Filter by words in the id or name, provider (openai, anthropic, bedrock, ...) and capability (function_calling, vision, json_mode, parallel_functions, reasoning, ...).',
  input: {
    query: z.string().max(200).optional().describe('Words found in the model id or name, e.g. "claude sonnet"'),
    provider: z.string().max(100).optional().describe('A provider id'),
    capability: z.string().max(100).optional().describe('A capability every result has'),
    limit: z.number().int().min(1).max(100).default(20).describe('Most models to return'),
    cursor: z.string().max(20).optional().describe('nextCursor of the previous page'),
  },
  output: { models: z.array(modelSummary), total: z.number(), nextCursor: z.string().nullable() },
  async run({ query, provider, capability, limit, cursor }, context) {
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(offset) || offset < 0) throw invalidInput('cursor must be the nextCursor of a previous answer');
    const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const found = context.services.catalog
      .listModels({ ...(provider ? { providers: [provider] } : {}), ...(capability ? { capabilities: [capability] } : {}) })
      .filter((model) => {
        const text = `${model.model_id} ${model.model_name}`.toLowerCase();
        return words.every((word) => text.includes(word));
      });
    const models = found.slice(offset, offset + limit).map(summaryOf);
    const next = offset + models.length < found.length ? String(offset + models.length) : null;
    const text = [
      csvRow(['id', 'provider', 'inputPerMillion', 'outputPerMillion', 'cacheReadPerMillion', 'contextWindow']),
      ...models.map((m) => csvRow([m.id, m.provider, m.inputPerMillion, m.outputPerMillion, m.cacheReadPerMillion, m.contextWindow])),
    ].join('\n');
    return { structured: { models, total: found.length, nextCursor: next }, text };
  },
});

const periodSchema = z.object({
  validFrom: z.string().nullable(),
  validTo: z.string().nullable().describe('null while the price holds'),
  inputPerMillion: z.number(),
  outputPerMillion: z.number(),
  cacheReadPerMillion: z.number().nullable(),
  cacheWritePerMillion: z.number().nullable(),
});

export const getModelPrice = defineTool({
  name: 'getModelPrice',
  title: 'Get a model price',
  description:
    'Resolves a model name as applications report it (e.g. "gpt-4o-2024-08-06", "claude-3-5-sonnet-20241022", "openai/gpt-4o") to its catalog id, ' +
    'and gives the price valid at a time (USD per million tokens) with the price history.',
  input: { model: modelName.describe('The model name'), at },
  output: {
    model: z.string(),
    modelId: z.string().nullable().describe('The catalog id, null when the catalog does not know the name'),
    provider: z.string().nullable(),
    at: z.string(),
    price: periodSchema.omit({ validFrom: true, validTo: true }).nullable(),
    history: z.array(periodSchema),
  },
  async run({ model, at: when }, context) {
    const time = when === undefined ? new Date() : instantOf(when, 'at');
    const row = await priceRow(context, `pricing = genai_get_pricing(${aplString(model)})`, time);
    const pricing = row.pricing as Record<string, unknown> | null;
    const modelId = typeof pricing?.model_id === 'string' ? pricing.model_id : null;
    const history = (modelId ? context.services.catalog.priceHistory(modelId) : []).map((period) => ({
      validFrom: period.validFrom?.toISOString() ?? null,
      validTo: period.validTo?.toISOString() ?? null,
      inputPerMillion: perMillion(period.inputCostPerToken)!,
      outputPerMillion: perMillion(period.outputCostPerToken)!,
      cacheReadPerMillion: perMillion(period.cacheReadCostPerToken),
      cacheWritePerMillion: perMillion(period.cacheWriteCostPerToken),
    }));
    const number = (value: unknown) => (typeof value === 'number' ? value : value === null || value === undefined ? null : Number(value));
    const price = pricing
      ? {
          inputPerMillion: number(pricing.input_price_per_million) ?? 0,
          outputPerMillion: number(pricing.output_price_per_million) ?? 0,
          cacheReadPerMillion: number(pricing.cache_read_price_per_million),
          cacheWritePerMillion: number(pricing.cache_write_price_per_million),
        }
      : null;
    const structured = { model, modelId, provider: typeof pricing?.provider === 'string' ? pricing.provider : null, at: time.toISOString(), price, history };
    const text = price
      ? `${model} → ${modelId} at ${structured.at}: input ${price.inputPerMillion}, output ${price.outputPerMillion}, cache read ${price.cacheReadPerMillion ?? '-'}, cache write ${price.cacheWritePerMillion ?? '-'} USD per million tokens; ${history.length} price periods`
      : `the catalog does not know "${model}" (try searchModels)`;
    return { structured, text };
  },
});

const tokens = (what: string) => z.number().int().min(0).max(1e12).describe(what);

export const estimateLlmCost = defineTool({
  name: 'estimateLlmCost',
  title: 'Estimate an LLM call cost',
  description:
    'The cost in USD of LLM calls with these token counts, priced from the catalog at a time exactly as the APL function genai_cost prices events: ' +
    'input tokens include cached ones; cache reads and writes are billed at their own prices (the input price when the catalog has none).',
  input: {
    model: modelName.describe('The model name'),
    inputTokens: tokens('Input (prompt) tokens, cached ones included'),
    outputTokens: tokens('Output (completion) tokens'),
    cacheReadTokens: tokens('Input tokens read from the cache').optional(),
    cacheWriteTokens: tokens('Input tokens written to the cache').optional(),
    at,
  },
  output: { model: z.string(), modelId: z.string().nullable(), at: z.string(), costUsd: z.number().nullable().describe('null when the catalog does not know the model') },
  async run(args, context) {
    const time = args.at === undefined ? new Date() : instantOf(args.at, 'at');
    const cacheArgs =
      args.cacheWriteTokens !== undefined
        ? `, ${args.cacheReadTokens ?? 0}, ${args.cacheWriteTokens}`
        : args.cacheReadTokens !== undefined
          ? `, ${args.cacheReadTokens}`
          : '';
    const model = aplString(args.model);
    const row = await priceRow(context, `cost = genai_cost(${model}, ${args.inputTokens}, ${args.outputTokens}${cacheArgs}), modelId = tostring(genai_get_pricing(${model})['model_id'])`, time);
    const costUsd = row.cost === null || row.cost === undefined ? null : Number(row.cost);
    const modelId = typeof row.modelId === 'string' && row.modelId !== '' ? row.modelId : null;
    const structured = { model: args.model, modelId, at: time.toISOString(), costUsd };
    return { structured, text: costUsd === null ? `the catalog does not know "${args.model}" (try searchModels)` : `${costUsd} USD (${modelId}, prices of ${structured.at})` };
  },
});

const GROUPS = ['model', 'provider', 'service', 'operation'] as const;
const fieldName = z.string().min(1).max(200);

export const getLlmUsage = defineTool({
  name: 'getLlmUsage',
  title: 'Get LLM usage and cost',
  description:
    'Calls, tokens and cost (USD, priced per call at its time from the catalog) of the LLM calls in a dataset, in all and per group. ' +
    'Reads OpenTelemetry GenAI attributes by default (attributes.gen_ai.response.model, attributes.gen_ai.usage.input_tokens, ...); name other fields for plain events.',
  input: {
    dataset: z.string().min(1).max(128).describe('A dataset of LLM calls'),
    startTime: z.string().max(100).default('now-1d').describe('RFC 3339 or relative'),
    endTime: z.string().max(100).default('now').describe('RFC 3339 or relative'),
    groupBy: z.array(z.enum(GROUPS)).max(4).default(['model']).describe('Group by model, provider, service and/or operation'),
    fields: z
      .object({
        model: z.array(fieldName).min(1).max(5).optional().describe('Model fields, the first non-empty wins'),
        inputTokens: fieldName.optional(),
        outputTokens: fieldName.optional(),
        cacheReadTokens: fieldName.optional(),
        service: fieldName.optional(),
        operation: fieldName.optional(),
      })
      .optional()
      .describe('Field names of plain events, when they differ from the OpenTelemetry ones'),
  },
  output: {
    calls: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number().nullable(),
    groups: z.array(
      z.object({
        group: z.record(z.string(), z.string()),
        calls: z.number(),
        inputTokens: z.number(),
        outputTokens: z.number(),
        costUsd: z.number().nullable(),
        unpricedCalls: z.number().describe('Calls whose model the catalog does not know (not in costUsd)'),
      }),
    ),
  },
  async run({ dataset, startTime, endTime, groupBy, fields }, context) {
    const window = windowOf(startTime, endTime);
    // One bin as wide as the window: at most two bins per group (bins are aligned), summed below.
    const seconds = Math.max(1, Math.ceil((window.end.getTime() - window.start.getTime()) / 1000));
    const usage = await context.services.llmUsage.usage(context.principal, {
      dataset,
      startTime: window.start.toISOString(),
      endTime: window.end.toISOString(),
      groupBy: groupBy.map((group) => group.toUpperCase() as UsageGroup),
      interval: `${seconds}s`,
      fields: { ...OTEL_USAGE_FIELDS, ...fields, cacheReadTokens: fields?.cacheReadTokens ?? OTEL_USAGE_FIELDS.cacheReadTokens },
    });
    const groups = usage.series
      .map((series) => ({
        group: series.group,
        calls: series.calls,
        inputTokens: series.inputTokens,
        outputTokens: series.outputTokens,
        costUsd: series.cost,
        unpricedCalls: series.points.reduce((sum, point) => sum + point.unpricedCalls, 0),
      }))
      .sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || b.calls - a.calls);
    const structured = { calls: usage.calls, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: usage.cost, groups };
    const keys = [...new Set(groups.flatMap((g) => Object.keys(g.group)))];
    const text = [
      csvRow([...keys, 'calls', 'inputTokens', 'outputTokens', 'costUsd', 'unpricedCalls']),
      ...groups.map((g) => csvRow([...keys.map((key) => g.group[key] ?? ''), g.calls, g.inputTokens, g.outputTokens, g.costUsd, g.unpricedCalls])),
      '',
      `total: ${usage.calls} calls, ${usage.inputTokens} input tokens, ${usage.outputTokens} output tokens, ${usage.cost ?? 'unpriced'} USD`,
    ].join('\n');
    return { structured, text };
  },
});
