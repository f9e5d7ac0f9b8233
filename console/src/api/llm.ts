// The LLM costs page's calls: the datasets to choose from, GraphQL `llmUsage` (calls, tokens and
// cost per time bin and group, each model linked to its catalog node and price history), and
// APL over the tabular query API for what llmUsage does not answer.
import { api, graphql } from './client';
import { PRICE_PERIOD_FIELDS, type PricePeriod } from './models';
import { runApl, type TabularAnswer } from './query';

export interface DatasetSummary {
  name: string;
  kind?: string;
  description?: string;
}

/** The organization's datasets (those the user may see). */
export async function listDatasets(signal?: AbortSignal): Promise<DatasetSummary[]> {
  const list = await api<DatasetSummary[]>('/v2/datasets', signal ? { signal } : {});
  return [...list].sort((a, b) => a.name.localeCompare(b.name));
}

export type UsageGroup = 'MODEL' | 'PROVIDER' | 'SERVICE';

/** Where the dataset keeps what the page reads; empty strings mean "not recorded". */
export interface GenAiFields {
  /** Model fields, the first non-empty wins. */
  model: string[];
  inputTokens: string;
  outputTokens: string;
  cacheReadTokens: string;
  service: string;
  conversation: string;
  inputMessages: string;
  outputMessages: string;
}

export interface UsagePoint {
  time: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
  unpricedCalls: number;
}

export interface UsageSeries {
  modelName: string | null;
  model: { modelId: string; providerId: string; priceHistory: PricePeriod[] } | null;
  provider: string | null;
  service: string | null;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
  points: UsagePoint[];
}

export interface Usage {
  interval: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
  series: UsageSeries[];
}

export interface UsageRequest {
  dataset: string;
  start: string;
  end: string;
  groupBy: UsageGroup;
  interval: string;
  fields: GenAiFields;
  /** Only calls priced as this catalog model. */
  modelId?: string;
}

const USAGE_FIELDS = `interval calls inputTokens outputTokens cost
  series { modelName model { modelId providerId priceHistory { ${PRICE_PERIOD_FIELDS} } } provider service calls inputTokens outputTokens cost
    points { time calls inputTokens outputTokens cost unpricedCalls } }`;

const USAGE_ARGS = '$dataset: String!, $start: String, $end: String, $groupBy: [LlmUsageGroup!], $interval: String, $fields: LlmUsageFields';
const USAGE_PASS = 'dataset: $dataset, startTime: $start, endTime: $end, groupBy: $groupBy, interval: $interval, fields: $fields';

/** Usage series split one way, over all calls or those of one catalog model. */
export async function fetchUsage(request: UsageRequest, signal?: AbortSignal): Promise<Usage> {
  const { fields } = request;
  const variables = {
    dataset: request.dataset,
    start: request.start,
    end: request.end,
    groupBy: [request.groupBy],
    interval: request.interval,
    fields: {
      model: fields.model,
      inputTokens: fields.inputTokens,
      outputTokens: fields.outputTokens,
      ...(fields.cacheReadTokens ? { cacheReadTokens: fields.cacheReadTokens } : {}),
      service: fields.service || 'service.name',
    },
  };
  if (request.modelId !== undefined) {
    const data = await graphql<{ model: { usage: Usage } | null }>(
      `query ModelUsage($id: String!, ${USAGE_ARGS}) { model(id: $id) { usage(${USAGE_PASS}) { ${USAGE_FIELDS} } } }`,
      { ...variables, id: request.modelId },
      signal,
    );
    if (!data.model) return { interval: request.interval, calls: 0, inputTokens: 0, outputTokens: 0, cost: null, series: [] };
    return data.model.usage;
  }
  const data = await graphql<{ llmUsage: Usage }>(`query LlmUsage(${USAGE_ARGS}) { llmUsage(${USAGE_PASS}) { ${USAGE_FIELDS} } }`, variables, signal);
  return data.llmUsage;
}

/** An APL query of the page over the chosen range. */
export function runCostQuery(apl: string, start: string, end: string, signal?: AbortSignal): Promise<TabularAnswer> {
  return runApl({ apl, startTime: start, endTime: end, limit: 1000 }, signal);
}
