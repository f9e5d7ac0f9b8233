// GraphQL for the model catalog: models and providers as Relay connections, one model by id,
// the catalog metadata. Public (no token needed); the resolvers call the same CatalogService
// functions as the REST routes.
import { compareIds, compareRecords } from '../../catalog/build';
import { isDeprecated, type ModelFilter } from '../../catalog/query';
import type { ModelRecord } from '../../catalog/record';
import type { CatalogService } from '../../catalog/service';
import type { ProviderEntry } from '../../catalog/snapshot';
import { builder } from './builder';
import { type ConnectionArgs, connectionFrom, type CursorCodec } from './connection';

type SortKey = [providerId: string, modelId: string];

const modelCursors: CursorCodec<ModelRecord, SortKey> = {
  kind: 'model',
  keyOf: (model) => [model.provider_id, model.model_id],
  compare: (model, [providerId, modelId]) =>
    compareRecords(model, { provider_id: providerId, model_id: modelId } as ModelRecord),
};

const providerCursors: CursorCodec<ProviderEntry, string> = {
  kind: 'provider',
  keyOf: (provider) => provider.id,
  compare: (provider, id) => compareIds(provider.id, id),
};

const ModelFilterInput = builder.inputType('ModelFilter', {
  description: 'The filters of GET /api/v1/models; they combine with AND',
  fields: (t) => ({
    prefixes: t.stringList({ description: 'Model ids starting with any of these' }),
    providers: t.stringList({ description: 'Provider ids, any of these' }),
    type: t.stringList({ description: 'Model types, any of these (chat, embedding, image, audio, ...)' }),
    capability: t.stringList({
      description: 'Capabilities the model must all have: function_calling, vision, json_mode, parallel_functions (or a supports_* field)',
    }),
    deprecated: t.boolean({
      description: 'true: deprecation date today (UTC) or earlier; false: every other model',
    }),
  }),
});

const ProviderFilterInput = builder.inputType('ProviderFilter', {
  description: 'The filter of GET /api/v1/providers',
  fields: (t) => ({
    ids: t.stringList({ description: 'Provider ids to return' }),
  }),
});

interface ModelFilterArgs {
  prefixes?: string[] | null;
  providers?: string[] | null;
  type?: string[] | null;
  capability?: string[] | null;
  deprecated?: boolean | null;
}

/** GraphQL nulls to the service's optional filter fields. */
function modelFilter(args: ModelFilterArgs | null | undefined): ModelFilter {
  return {
    prefixes: args?.prefixes ?? undefined,
    providers: args?.providers ?? undefined,
    types: args?.type ?? undefined,
    capabilities: args?.capability ?? undefined,
    deprecated: args?.deprecated ?? undefined,
  };
}

function providerModels(catalog: CatalogService, provider: ProviderEntry, filter: ModelFilterArgs | null | undefined): ModelRecord[] {
  const wanted = modelFilter(filter);
  if (wanted.providers?.length && !wanted.providers.includes(provider.id)) return [];
  return catalog.listModels({ ...wanted, providers: [provider.id] });
}

const connectionArgs = (args: ConnectionArgs) => ({ first: args.first, after: args.after, last: args.last, before: args.before });

const totalCountField = {
  fields: (t: any) => ({
    totalCount: t.int({ description: 'Items matching the filter, over all pages', resolve: (connection: { totalCount: number }) => connection.totalCount }),
  }),
};

export const ModelRef = builder.objectRef<ModelRecord>('Model');
export const ProviderRef = builder.objectRef<ProviderEntry>('Provider');

const nullableNumber = (value: unknown) => (typeof value === 'number' ? value : null);

builder.node(ModelRef, {
  description: 'An LLM model with its limits, prices and capabilities (from LiteLLM community data)',
  id: { resolve: (model) => model.model_id },
  loadOne: (id, context) => context.services.catalog.findModel(id) ?? null,
  fields: (t) => ({
    modelId: t.string({ description: 'Clean model id, as in /api/v1/models/{id}', resolve: (model) => model.model_id }),
    modelName: t.string({ resolve: (model) => model.model_name }),
    providerId: t.string({ resolve: (model) => model.provider_id }),
    providerName: t.string({ resolve: (model) => model.provider_name }),
    maxInputTokens: t.int({ nullable: true, resolve: (model) => nullableNumber(model.max_input_tokens) }),
    maxOutputTokens: t.int({ nullable: true, resolve: (model) => nullableNumber(model.max_output_tokens) }),
    inputCostPerToken: t.float({ description: 'USD', resolve: (model) => model.input_cost_per_token }),
    inputCostPerMillion: t.float({ description: 'USD per million tokens', resolve: (model) => model.input_cost_per_million }),
    outputCostPerToken: t.float({ description: 'USD', resolve: (model) => model.output_cost_per_token }),
    outputCostPerMillion: t.float({ description: 'USD per million tokens', resolve: (model) => model.output_cost_per_million }),
    cacheReadCostPerToken: t.float({ nullable: true, resolve: (model) => nullableNumber(model.cache_read_cost_per_token) }),
    cacheReadCostPerMillion: t.float({ nullable: true, resolve: (model) => nullableNumber(model.cache_read_cost_per_million) }),
    cacheWriteCostPerToken: t.float({ nullable: true, resolve: (model) => nullableNumber(model.cache_write_cost_per_token) }),
    cacheWriteCostPerMillion: t.float({ nullable: true, resolve: (model) => nullableNumber(model.cache_write_cost_per_million) }),
    supportsFunctionCalling: t.boolean({ resolve: (model) => model.supports_function_calling }),
    supportsVision: t.boolean({ resolve: (model) => model.supports_vision }),
    supportsJsonMode: t.boolean({ resolve: (model) => model.supports_json_mode }),
    supportsParallelFunctions: t.boolean({ resolve: (model) => model.supports_parallel_functions }),
    modelType: t.string({ description: 'chat, completion, embedding, image, audio, moderation, rerank, ...', resolve: (model) => model.model_type }),
    deprecationDate: t.string({
      nullable: true,
      description: 'YYYY-MM-DD',
      resolve: (model) => (typeof model.deprecation_date === 'string' ? model.deprecation_date : null),
    }),
    deprecated: t.boolean({
      description: 'Whether the deprecation date is today (UTC) or earlier',
      resolve: (model, _args, context) => isDeprecated(model, context.services.catalog.today()),
    }),
    provider: t.field({ type: ProviderRef, resolve: (model, _args, context) => context.services.catalog.getProvider(model.provider_id) }),
    record: t.field({
      type: 'JSON',
      description: 'The whole record as GET /api/v1/models/{id} returns it, with LiteLLM\'s further properties',
      resolve: (model) => model,
    }),
  }),
});

builder.node(ProviderRef, {
  description: 'A provider of models (openai, anthropic, bedrock, vertex, ...)',
  id: { resolve: (provider) => provider.id },
  loadOne: (id, context) => context.services.catalog.findProvider(id) ?? null,
  fields: (t) => ({
    providerId: t.exposeString('id'),
    providerName: t.exposeString('name'),
    modelCount: t.int({ resolve: (provider) => provider.models.length }),
    models: t.connection(
      {
        type: ModelRef,
        args: { filter: t.arg({ type: ModelFilterInput }) },
        resolve: (provider, args, context) =>
          connectionFrom(providerModels(context.services.catalog, provider, args.filter), connectionArgs(args), modelCursors),
      },
      { name: 'ProviderModelsConnection', ...totalCountField },
    ),
  }),
});

const CountRef = builder.objectRef<[string, number]>('CatalogCount').implement({
  description: 'How many models have a given provider, type, capability or skip reason',
  fields: (t) => ({
    name: t.string({ resolve: ([name]) => name }),
    count: t.int({ resolve: ([, count]) => count }),
  }),
});

type Metadata = ReturnType<CatalogService['metadata']>;

const counts = (record: Record<string, number>) => Object.entries(record);

const CatalogMetadataRef = builder.objectRef<Metadata>('CatalogMetadata').implement({
  description: 'Where the catalog came from, what its last sync counted, and statistics over the models',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'The LiteLLM file or URL, or the bundled fallback data set' }),
    sourceKind: t.string({ description: 'litellm or fallback', resolve: (metadata) => metadata.sync.source_kind }),
    generatedAt: t.field({ type: 'DateTime', resolve: (metadata) => metadata.generated_at }),
    schemaVersion: t.exposeString('schema_version'),
    modelCount: t.exposeInt('model_count'),
    modelsRead: t.int({ resolve: (metadata) => metadata.sync.models_read }),
    modelsSkipped: t.int({ resolve: (metadata) => metadata.sync.models_skipped }),
    modelsWritten: t.int({ resolve: (metadata) => metadata.sync.models_written }),
    skipReasons: t.field({ type: [CountRef], resolve: (metadata) => counts(metadata.sync.skip_reasons) }),
    providers: t.field({ type: [CountRef], description: 'Models per provider', resolve: (metadata) => counts(metadata.stats.providers) }),
    types: t.field({ type: [CountRef], description: 'Models per type', resolve: (metadata) => counts(metadata.stats.types) }),
    capabilities: t.field({
      type: [CountRef],
      description: 'Models per supports_* capability',
      resolve: (metadata) => counts(metadata.stats.capabilities),
    }),
    activeCount: t.int({ resolve: (metadata) => metadata.stats.deprecation.active }),
    deprecatedCount: t.int({
      description: 'Models whose deprecation date is today (UTC) or earlier',
      resolve: (metadata) => metadata.stats.deprecation.deprecated,
    }),
  }),
});

builder.queryFields((t) => ({
  models: t.connection(
    {
      type: ModelRef,
      description: 'Models sorted by provider id, then model id (public). Pages of 100 unless first or last says otherwise.',
      args: { filter: t.arg({ type: ModelFilterInput }) },
      resolve: (_root, args, context) =>
        connectionFrom(context.services.catalog.listModels(modelFilter(args.filter)), connectionArgs(args), modelCursors),
    },
    { name: 'ModelsConnection', ...totalCountField },
  ),
  model: t.field({
    type: ModelRef,
    nullable: true,
    description: 'One model by its model id (e.g. "gpt-4o" or "openrouter/openai/gpt-4o"); null when unknown',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, context) => context.services.catalog.findModel(id) ?? null,
  }),
  providers: t.connection(
    {
      type: ProviderRef,
      description: 'Providers sorted by id, each with its models (public)',
      args: { filter: t.arg({ type: ProviderFilterInput }) },
      resolve: (_root, args, context) =>
        connectionFrom(context.services.catalog.listProviders(args.filter?.ids ?? undefined), connectionArgs(args), providerCursors),
    },
    { name: 'ProvidersConnection', ...totalCountField },
  ),
  provider: t.field({
    type: ProviderRef,
    nullable: true,
    description: 'One provider by its id; null when unknown',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, context) => context.services.catalog.findProvider(id) ?? null,
  }),
  catalogMetadata: t.field({
    type: CatalogMetadataRef,
    description: 'Source, sync counts and statistics of the model catalog (public)',
    resolve: (_root, _args, context) => context.services.catalog.metadata(),
  }),
}));
