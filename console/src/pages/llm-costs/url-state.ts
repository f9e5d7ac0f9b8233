// The LLM costs page's state lives in the URL (dataset, time range, split, model filter,
// what-if model, open conversation, and the fields the dataset keeps its calls in), so a link
// shows a colleague the same figures.
import type { GenAiFields, UsageGroup } from '../../api/llm';
import type { TimeZoneChoice } from '../query/url-state';

export interface CostsState {
  dataset: string;
  start: string;
  end: string;
  tz: TimeZoneChoice;
  by: UsageGroup;
  /** Only the calls priced as this catalog model (from a model's "Usage in dataset…" link). */
  model: string;
  /** The catalog model the what-if reprices the traffic on. */
  whatIf: string;
  /** The conversation whose messages are open. */
  conversation: string;
  fields: GenAiFields;
}

/** Where OpenTelemetry GenAI spans keep what the page reads, as OTLP ingest stores them. */
export const OTEL_FIELDS: GenAiFields = {
  model: ['attributes.gen_ai.response.model', 'attributes.gen_ai.request.model'],
  inputTokens: 'attributes.gen_ai.usage.input_tokens',
  outputTokens: 'attributes.gen_ai.usage.output_tokens',
  cacheReadTokens: '',
  service: 'service.name',
  conversation: 'attributes.gen_ai.conversation.id',
  inputMessages: 'attributes.gen_ai.input.messages',
  outputMessages: 'attributes.gen_ai.output.messages',
};

/** URL parameter of each field setting. */
const FIELD_PARAMS: Record<keyof GenAiFields, string> = {
  model: 'f.model',
  inputTokens: 'f.in',
  outputTokens: 'f.out',
  cacheReadTokens: 'f.cache',
  service: 'f.service',
  conversation: 'f.conversation',
  inputMessages: 'f.inputMessages',
  outputMessages: 'f.outputMessages',
};

const GROUPS: UsageGroup[] = ['MODEL', 'PROVIDER', 'SERVICE'];

export function costsStateFrom(search: URLSearchParams): CostsState {
  const by = (search.get('by') ?? 'MODEL').toUpperCase() as UsageGroup;
  const text = (key: keyof GenAiFields) => {
    const value = search.get(FIELD_PARAMS[key]);
    return value === null ? (OTEL_FIELDS[key] as string) : value.trim();
  };
  const models = search.get(FIELD_PARAMS.model);
  return {
    dataset: search.get('dataset') ?? '',
    start: search.get('start') || 'now-24h',
    end: search.get('end') || 'now',
    tz: search.get('tz') === 'UTC' ? 'UTC' : 'local',
    by: GROUPS.includes(by) ? by : 'MODEL',
    model: search.get('model') ?? '',
    whatIf: search.get('whatIf') ?? '',
    conversation: search.get('conversation') ?? '',
    fields: {
      model: models === null ? OTEL_FIELDS.model : models.split(',').map((name) => name.trim()).filter(Boolean),
      inputTokens: text('inputTokens'),
      outputTokens: text('outputTokens'),
      cacheReadTokens: text('cacheReadTokens'),
      service: text('service'),
      conversation: text('conversation'),
      inputMessages: text('inputMessages'),
      outputMessages: text('outputMessages'),
    },
  };
}

export function searchFromCosts(state: CostsState): URLSearchParams {
  const search = new URLSearchParams();
  if (state.dataset) search.set('dataset', state.dataset);
  search.set('start', state.start);
  search.set('end', state.end);
  if (state.tz === 'UTC') search.set('tz', 'UTC');
  if (state.by !== 'MODEL') search.set('by', state.by.toLowerCase());
  if (state.model) search.set('model', state.model);
  if (state.whatIf) search.set('whatIf', state.whatIf);
  if (state.conversation) search.set('conversation', state.conversation);
  for (const key of Object.keys(FIELD_PARAMS) as (keyof GenAiFields)[]) {
    const value = key === 'model' ? state.fields.model.join(',') : state.fields[key];
    const fallback = key === 'model' ? OTEL_FIELDS.model.join(',') : OTEL_FIELDS[key];
    if (value !== fallback) search.set(FIELD_PARAMS[key], value);
  }
  return search;
}
