// The model catalog as the console reads it: the modeldb-compatible REST routes for lists and
// single models (every field LiteLLM has), GraphQL for the catalog's facets and price history.
import { api, graphql } from './client';

/** A catalog record as GET /api/v1/models/{id} returns it (documented fields, then LiteLLM's others). */
export interface ModelRecord {
  model_id: string;
  model_name: string;
  provider_id: string;
  provider_name: string;
  model_type: string;
  max_input_tokens: number | null;
  max_output_tokens: number | null;
  max_tokens?: number | null;
  input_cost_per_token: number | null;
  input_cost_per_million: number | null;
  output_cost_per_token: number | null;
  output_cost_per_million: number | null;
  cache_read_cost_per_token: number | null;
  cache_read_cost_per_million: number | null;
  cache_write_cost_per_token: number | null;
  cache_write_cost_per_million: number | null;
  supports_function_calling: boolean;
  supports_vision: boolean;
  supports_json_mode: boolean;
  supports_parallel_functions: boolean;
  deprecation_date?: string | null;
  [other: string]: unknown;
}

/** The fields a list row needs (the list asks only for these). */
export const LIST_FIELDS = [
  'model_id',
  'model_name',
  'provider_id',
  'provider_name',
  'model_type',
  'max_input_tokens',
  'max_output_tokens',
  'input_cost_per_million',
  'output_cost_per_million',
  'cache_read_cost_per_million',
  'supports_function_calling',
  'supports_vision',
  'supports_json_mode',
  'supports_parallel_functions',
  'deprecation_date',
] as const;

export type ModelListItem = Pick<ModelRecord, (typeof LIST_FIELDS)[number]>;

export interface ModelListFilter {
  providers?: string[];
  /** `vision`, `function_calling`, ... or any `supports_*` field: all required. */
  capabilities?: string[];
  types?: string[];
}

/** Models matching the catalog's own filters, sorted by provider then model id, nulls kept. */
export function listModels(filter: ModelListFilter = {}, signal?: AbortSignal): Promise<ModelListItem[]> {
  const list = (items?: string[]) => (items && items.length > 0 ? items.join(',') : undefined);
  return api<ModelListItem[]>('/api/v1/models', {
    params: {
      providers: list(filter.providers),
      capability: list(filter.capabilities),
      type: list(filter.types),
      project: LIST_FIELDS.join(','),
      'fill-with-zeros': false,
    },
    ...(signal ? { signal } : {}),
  });
}

/** The path of a model id (ids hold slashes: openrouter/openai/gpt-4o). */
export function modelPath(id: string): string {
  return id.split('/').map(encodeURIComponent).join('/');
}

/** One model with every field, nulls kept; rejects with the server's 404 message when unknown. */
export function getModel(id: string, signal?: AbortSignal): Promise<ModelRecord> {
  return api<ModelRecord>(`/api/v1/models/${modelPath(id)}`, { params: { 'fill-with-zeros': false }, ...(signal ? { signal } : {}) });
}

export interface CatalogCount {
  name: string;
  count: number;
}

export interface CatalogFacets {
  modelCount: number;
  source: string;
  generatedAt: string;
  providers: CatalogCount[];
  types: CatalogCount[];
  capabilities: CatalogCount[];
}

/** What the filters offer: providers, types and capabilities with their model counts. */
export async function catalogFacets(signal?: AbortSignal): Promise<CatalogFacets> {
  const data = await graphql<{ catalogMetadata: CatalogFacets }>(
    '{ catalogMetadata { modelCount source generatedAt providers { name count } types { name count } capabilities { name count } } }',
    {},
    signal,
  );
  return data.catalogMetadata;
}

export interface PricePeriod {
  validFrom: string | null;
  validTo: string | null;
  inputCostPerMillion: number;
  outputCostPerMillion: number;
  cacheReadCostPerMillion: number | null;
  cacheWriteCostPerMillion: number | null;
}

export const PRICE_PERIOD_FIELDS = 'validFrom validTo inputCostPerMillion outputCostPerMillion cacheReadCostPerMillion cacheWriteCostPerMillion';

/** A model's price periods, oldest first. */
export async function priceHistory(id: string, signal?: AbortSignal): Promise<PricePeriod[]> {
  const data = await graphql<{ model: { priceHistory: PricePeriod[] } | null }>(
    `query ModelPriceHistory($id: String!) { model(id: $id) { priceHistory { ${PRICE_PERIOD_FIELDS} } } }`,
    { id },
    signal,
  );
  return data.model?.priceHistory ?? [];
}
