// The APL the LLM costs page runs where llmUsage does not answer: cache savings, the what-if
// repricing, the most expensive conversations and one conversation's messages. Every query
// starts from the same prelude reading the dataset's fields (missing fields read as empty, as
// llmUsage reads them), optionally narrowed to one catalog model.
import type { GenAiFields } from '../../api/llm';

/** An APL string literal. */
export function aplString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
}

const column = (name: string) => `column_ifexists(${aplString(name)}, '')`;

export interface CostScope {
  dataset: string;
  fields: GenAiFields;
  /** Only calls priced as this catalog model. */
  modelId?: string;
}

/** The dataset with __model, __in, __out (and __cache when the field is set) on every call. */
export function prelude({ dataset, fields, modelId }: CostScope): string {
  const models = fields.model.map((name) => `tostring(${column(name)})`);
  const model = models.length === 0 ? "''" : models.reduceRight((fallback, next) => `iff(isnotempty(${next}), ${next}, ${fallback})`);
  const parts = [`[${aplString(dataset)}]`, `extend __model = ${model}, __in = tolong(${column(fields.inputTokens)}), __out = tolong(${column(fields.outputTokens)})`];
  if (fields.cacheReadTokens) parts.push(`extend __cache = tolong(${column(fields.cacheReadTokens)})`);
  if (modelId) parts.push(`where tostring(genai_get_pricing(__model)['model_id']) == ${aplString(modelId)}`);
  return parts.join('\n| ');
}

/** The cost of each call at the prices of its time, as llmUsage computes it. */
export function costOf(fields: GenAiFields, model = '__model'): string {
  return `genai_cost(${model}, __in, __out${fields.cacheReadTokens ? ', __cache' : ''})`;
}

/** What prompt caching saved: the cost without the cache minus the cost with it. */
export function savingsApl(scope: CostScope): string | undefined {
  if (!scope.fields.cacheReadTokens) return undefined;
  return `${prelude(scope)}\n| summarize saved = sum(genai_cost(__model, __in, __out) - genai_cost(__model, __in, __out, __cache)), cacheReadTokens = sum(__cache)`;
}

/** The same traffic priced as it was and on another catalog model, per bin. */
export function whatIfApl(scope: CostScope, targetModel: string, interval: string): string {
  return `${prelude(scope)}\n| summarize actual = sum(${costOf(scope.fields)}), repriced = sum(${costOf(scope.fields, aplString(targetModel))}) by bin(_time, ${interval})\n| order by _time asc`;
}

/** The conversations that cost the most. */
export function topConversationsApl(scope: CostScope, limit = 10): string | undefined {
  if (!scope.fields.conversation) return undefined;
  return [
    prelude(scope),
    `extend __conversation = tostring(${column(scope.fields.conversation)})`,
    'where isnotempty(__conversation)',
    `summarize cost = sum(${costOf(scope.fields)}), calls = count(), inputTokens = sum(__in), outputTokens = sum(__out) by conversation = __conversation`,
    `top ${limit} by cost desc`,
  ].join('\n| ');
}

/** One conversation's calls in order, with the messages read by the genai_* functions. */
export function conversationApl(scope: CostScope, conversation: string, limit = 200): string {
  const { fields } = scope;
  const input = fields.inputMessages ? column(fields.inputMessages) : "''";
  const output = fields.outputMessages ? column(fields.outputMessages) : input;
  return [
    prelude(scope),
    `where tostring(${column(fields.conversation)}) == ${aplString(conversation)}`,
    `extend cost = ${costOf(fields)}`,
    `project _time, model = __model, cost, inputTokens = __in, outputTokens = __out, system = genai_extract_system_prompt(${input}), user = genai_extract_user_prompt(${input}), assistant = genai_extract_assistant_response(${output}), tools = genai_extract_tool_calls(${output})`,
    'order by _time asc',
    `take ${limit}`,
  ].join('\n| ');
}
