// LLM usage over a dataset of GenAI calls, for cost dashboards: calls, tokens and cost (priced by
// genai_cost from the model catalog, at each call's time) per time bin and per group (model,
// provider, service, operation). It is one APL query run through QueryService, so it reads only
// the datasets the caller may query. Fields default to the OpenTelemetry GenAI attributes as
// OTLP ingest stores them; plain events name their own fields.
import type { QueryResult } from '../apl';
import { resultRows } from '../apl';
import type { Principal } from '../auth/principal';
import { invalidInput } from '../errors';
import type { QueryService } from './query-service';

export type UsageGroup = 'MODEL' | 'PROVIDER' | 'SERVICE' | 'OPERATION';

export interface UsageFields {
  /** Model fields, the first non-empty wins (the response model, then the request model). */
  model: string[];
  inputTokens: string;
  outputTokens: string;
  cacheReadTokens: string | null;
  service: string;
  operation: string;
}

export const OTEL_USAGE_FIELDS: UsageFields = {
  model: ['attributes.gen_ai.response.model', 'attributes.gen_ai.request.model'],
  inputTokens: 'attributes.gen_ai.usage.input_tokens',
  outputTokens: 'attributes.gen_ai.usage.output_tokens',
  cacheReadTokens: null,
  service: 'service.name',
  operation: 'attributes.gen_ai.operation.name',
};

export interface UsageRequest {
  dataset: string;
  startTime?: string;
  endTime?: string;
  groupBy: UsageGroup[];
  /** A bin width such as 5m, 1h or 1d. */
  interval: string;
  fields: UsageFields;
  /** Only calls priced as this catalog model. */
  modelId?: string;
}

export interface UsagePoint {
  time: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when no call of the bin had a known model. */
  cost: number | null;
  /** Calls whose model the catalog does not know (not in `cost`). */
  unpricedCalls: number;
}

export interface UsageSeries {
  /** The group's values, by group name (model, modelId, provider, service, operation). */
  group: Record<string, string>;
  points: UsagePoint[];
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
}

export interface Usage {
  interval: string;
  series: UsageSeries[];
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
}

const INTERVAL = /^\d+(ms|s|m|h|d)$/;
const FIELD = /^[^'\\\n]{1,200}$/;

const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function field(name: string, what: string): string {
  if (!FIELD.test(name)) throw invalidInput(`${what} is not a usable field name: ${JSON.stringify(name)}`);
  return `column_ifexists(${quote(name)}, '')`;
}

/** The APL of a usage request: one summarize by bin and groups. */
export function usageApl(request: UsageRequest): string {
  if (!INTERVAL.test(request.interval)) throw invalidInput(`interval must be a duration such as 5m, 1h or 1d (got ${JSON.stringify(request.interval)})`);
  const { fields } = request;
  if (fields.model.length === 0) throw invalidInput('name at least one model field');
  const models = fields.model.map((name) => `tostring(${field(name, 'model field')})`);
  const model = models.reduceRight((fallback, next) => `iff(isnotempty(${next}), ${next}, ${fallback})`);
  const lines = [
    `[${quote(request.dataset)}]`,
    `extend __model = ${model}, __in = tolong(${field(fields.inputTokens, 'input token field')}), __out = tolong(${field(fields.outputTokens, 'output token field')})`,
    `extend __cost = genai_cost(__model, __in, __out${fields.cacheReadTokens ? `, tolong(${field(fields.cacheReadTokens, 'cache read token field')})` : ''})`,
    `extend __pricing = genai_get_pricing(__model)`,
    `extend __modelId = tostring(__pricing['model_id']), __provider = tostring(__pricing['provider'])`,
  ];
  if (request.modelId !== undefined) lines.push(`where __modelId == ${quote(request.modelId)}`);
  const groups: string[] = [];
  for (const group of new Set(request.groupBy)) {
    if (group === 'MODEL') groups.push('model = __model', 'modelId = __modelId');
    if (group === 'PROVIDER') groups.push('provider = __provider');
    if (group === 'SERVICE') groups.push(`service = tostring(${field(fields.service, 'service field')})`);
    if (group === 'OPERATION') groups.push(`operation = tostring(${field(fields.operation, 'operation field')})`);
  }
  lines.push(
    `summarize calls = count(), inputTokens = sum(__in), outputTokens = sum(__out), cost = sum(__cost), unpriced = countif(isnull(__cost) and isnotempty(__model)) by bin(_time, ${request.interval})${groups.map((g) => `, ${g}`).join('')}`,
    'order by _time asc',
  );
  return lines.join('\n| ');
}

const GROUP_COLUMNS = ['model', 'modelId', 'provider', 'service', 'operation'];
const num = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0));

/** Rows of the usage query as series (first seen first) with totals. */
export function usageFromResult(result: QueryResult, interval: string): Usage {
  const series = new Map<string, UsageSeries>();
  const usage: Usage = { interval, series: [], calls: 0, inputTokens: 0, outputTokens: 0, cost: null };
  const addCost = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);
  for (const row of resultRows(result)) {
    const group: Record<string, string> = {};
    for (const column of GROUP_COLUMNS) if (column in row) group[column] = String(row[column] ?? '');
    const key = JSON.stringify(group);
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { group, points: [], calls: 0, inputTokens: 0, outputTokens: 0, cost: null }));
    const cost = row.cost === null || row.cost === undefined ? null : num(row.cost);
    const point: UsagePoint = {
      time: String(row._time),
      calls: num(row.calls),
      inputTokens: num(row.inputTokens),
      outputTokens: num(row.outputTokens),
      cost,
      unpricedCalls: num(row.unpriced),
    };
    entry.points.push(point);
    for (const target of [entry, usage]) {
      target.calls += point.calls;
      target.inputTokens += point.inputTokens;
      target.outputTokens += point.outputTokens;
      target.cost = addCost(target.cost, cost);
    }
  }
  usage.series = [...series.values()];
  return usage;
}

export class LlmUsageService {
  constructor(private readonly queries: QueryService) {}

  async usage(principal: Principal, request: UsageRequest): Promise<Usage> {
    const apl = usageApl(request);
    const body: Record<string, unknown> = { apl };
    if (request.startTime !== undefined) body.startTime = request.startTime;
    if (request.endTime !== undefined) body.endTime = request.endTime;
    return usageFromResult(await this.queries.apl(principal, body), request.interval);
  }
}
