// GraphQL over LLM usage: `llmUsage(dataset, ...)` gives calls, tokens and cost per time bin and
// group, each model series linked to its catalog `Model`; `Model.usage(dataset, ...)` is the same
// for one model. Both run one APL query (src/queries/llm-usage.ts) with the caller's rights.
import { type UsageFields, type UsagePoint, type Usage, type UsageSeries, OTEL_USAGE_FIELDS, type UsageGroup } from '../../queries/llm-usage';
import { builder } from './builder';
import { ModelRef } from './catalog';

const UsageGroupEnum = builder.enumType('LlmUsageGroup', {
  description: 'What usage series are split by',
  values: {
    MODEL: { description: 'The model name the calls carry (and the catalog model it resolves to)' },
    PROVIDER: { description: 'The catalog provider of the resolved model' },
    SERVICE: { description: 'The service field (service.name for OpenTelemetry spans)' },
    OPERATION: { description: 'The operation field (gen_ai.operation.name: chat, embeddings, ...)' },
  } as const,
});

const UsageFieldsInput = builder.inputType('LlmUsageFields', {
  description: 'Where the dataset keeps model names and token counts; defaults are the OpenTelemetry GenAI attributes as OTLP ingest stores them',
  fields: (t) => ({
    model: t.stringList({ description: 'Model fields, first non-empty wins (default: attributes.gen_ai.response.model, attributes.gen_ai.request.model)' }),
    inputTokens: t.string({ description: 'default: attributes.gen_ai.usage.input_tokens' }),
    outputTokens: t.string({ description: 'default: attributes.gen_ai.usage.output_tokens' }),
    cacheReadTokens: t.string({ description: 'Cached input tokens, billed at the cache read price (default: none)' }),
    service: t.string({ description: 'default: service.name' }),
    operation: t.string({ description: 'default: attributes.gen_ai.operation.name' }),
  }),
});

const PointRef = builder.objectRef<UsagePoint>('LlmUsagePoint').implement({
  fields: (t) => ({
    time: t.exposeString('time', { description: 'Start of the bin, RFC 3339' }),
    calls: t.exposeInt('calls'),
    inputTokens: t.exposeFloat('inputTokens'),
    outputTokens: t.exposeFloat('outputTokens'),
    cost: t.exposeFloat('cost', { nullable: true, description: 'USD at the prices valid at each call; null when no call had a known model' }),
    unpricedCalls: t.exposeInt('unpricedCalls', { description: 'Calls naming a model the catalog does not know' }),
  }),
});

const SeriesRef = builder.objectRef<UsageSeries>('LlmUsageSeries').implement({
  fields: (t) => ({
    modelName: t.string({ nullable: true, description: 'The model name as the calls wrote it (MODEL grouping)', resolve: (s) => s.group.model ?? null }),
    model: t.field({
      type: ModelRef,
      nullable: true,
      description: 'The catalog model the name resolves to (MODEL grouping)',
      resolve: (s, _args, context) => (s.group.modelId ? (context.services.catalog.findModel(s.group.modelId) ?? null) : null),
    }),
    provider: t.string({ nullable: true, resolve: (s) => s.group.provider ?? null }),
    service: t.string({ nullable: true, resolve: (s) => s.group.service ?? null }),
    operation: t.string({ nullable: true, resolve: (s) => s.group.operation ?? null }),
    points: t.field({ type: [PointRef], resolve: (s) => s.points }),
    calls: t.exposeInt('calls'),
    inputTokens: t.exposeFloat('inputTokens'),
    outputTokens: t.exposeFloat('outputTokens'),
    cost: t.exposeFloat('cost', { nullable: true }),
  }),
});

const UsageRef = builder.objectRef<Usage>('LlmUsage').implement({
  fields: (t) => ({
    interval: t.exposeString('interval'),
    series: t.field({ type: [SeriesRef], resolve: (u) => u.series }),
    calls: t.exposeInt('calls'),
    inputTokens: t.exposeFloat('inputTokens'),
    outputTokens: t.exposeFloat('outputTokens'),
    cost: t.exposeFloat('cost', { nullable: true, description: 'USD' }),
  }),
});

type FieldsArg = { model?: string[] | null; inputTokens?: string | null; outputTokens?: string | null; cacheReadTokens?: string | null; service?: string | null; operation?: string | null };

function usageFields(input: FieldsArg | null | undefined): UsageFields {
  return {
    model: input?.model ?? OTEL_USAGE_FIELDS.model,
    inputTokens: input?.inputTokens ?? OTEL_USAGE_FIELDS.inputTokens,
    outputTokens: input?.outputTokens ?? OTEL_USAGE_FIELDS.outputTokens,
    cacheReadTokens: input?.cacheReadTokens ?? OTEL_USAGE_FIELDS.cacheReadTokens,
    service: input?.service ?? OTEL_USAGE_FIELDS.service,
    operation: input?.operation ?? OTEL_USAGE_FIELDS.operation,
  };
}

const optional = <K extends string, V>(key: K, value: V | null | undefined) => (value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>));

builder.queryFields((t) => ({
  llmUsage: t.field({
    type: UsageRef,
    description: 'Calls, tokens and cost of LLM calls in a dataset, per time bin and group, priced from the model catalog',
    args: {
      dataset: t.arg.string({ required: true }),
      startTime: t.arg.string({ description: 'RFC 3339 or relative (now-7d)' }),
      endTime: t.arg.string({ description: 'RFC 3339 or relative (now)' }),
      groupBy: t.arg({ type: [UsageGroupEnum], defaultValue: ['MODEL'] }),
      interval: t.arg.string({ defaultValue: '1h', description: 'Bin width: 5m, 1h, 1d, ...' }),
      fields: t.arg({ type: UsageFieldsInput }),
    },
    resolve: (_root, args, context) =>
      context.services.llmUsage.usage(context.principal(), {
        dataset: args.dataset,
        ...optional('startTime', args.startTime),
        ...optional('endTime', args.endTime),
        groupBy: (args.groupBy ?? ['MODEL']) as UsageGroup[],
        interval: args.interval ?? '1h',
        fields: usageFields(args.fields),
      }),
  }),
}));

builder.objectField(ModelRef, 'usage', (t) =>
  t.field({
    type: UsageRef,
    description: "This model's calls, tokens and cost in a dataset (calls whose name resolves to it)",
    args: {
      dataset: t.arg.string({ required: true }),
      startTime: t.arg.string(),
      endTime: t.arg.string(),
      groupBy: t.arg({ type: [UsageGroupEnum], defaultValue: [] }),
      interval: t.arg.string({ defaultValue: '1h' }),
      fields: t.arg({ type: UsageFieldsInput }),
    },
    resolve: (model, args, context) =>
      context.services.llmUsage.usage(context.principal(), {
        dataset: args.dataset,
        ...optional('startTime', args.startTime),
        ...optional('endTime', args.endTime),
        groupBy: (args.groupBy ?? []) as UsageGroup[],
        interval: args.interval ?? '1h',
        fields: usageFields(args.fields),
        modelId: model.model_id,
      }),
  }),
);
