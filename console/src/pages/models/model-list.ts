// The catalog browser's filters and sorting beyond what the catalog API filters by (context
// window, prices, a text search), kept in the URL so a link shows the same list. Pure functions,
// free of React.
import type { ModelListItem } from '../../api/models';

export type ModelSort = 'provider' | 'model' | 'input-price' | 'output-price' | 'context';

export const SORTS: { value: ModelSort; label: string }[] = [
  { value: 'provider', label: 'Provider, then model' },
  { value: 'model', label: 'Model id' },
  { value: 'input-price', label: 'Input price, lowest first' },
  { value: 'output-price', label: 'Output price, lowest first' },
  { value: 'context', label: 'Context window, largest first' },
];

export interface ListState {
  provider: string;
  type: string;
  capabilities: string[];
  search: string;
  /** Tokens; empty when not filtered. */
  minContext: string;
  /** USD per million tokens; empty when not filtered. */
  maxInputPrice: string;
  maxOutputPrice: string;
  sort: ModelSort;
  page: number;
}

export const PAGE_SIZE = 50;

export function listStateFrom(search: URLSearchParams): ListState {
  const sort = search.get('sort') as ModelSort | null;
  return {
    provider: search.get('provider') ?? '',
    type: search.get('type') ?? '',
    capabilities: (search.get('capability') ?? '').split(',').filter(Boolean),
    search: search.get('q') ?? '',
    minContext: search.get('minContext') ?? '',
    maxInputPrice: search.get('maxInput') ?? '',
    maxOutputPrice: search.get('maxOutput') ?? '',
    sort: SORTS.some((option) => option.value === sort) ? sort! : 'provider',
    page: Math.max(0, Number.parseInt(search.get('page') ?? '0', 10) || 0),
  };
}

export function searchFrom(state: ListState): URLSearchParams {
  const search = new URLSearchParams();
  const set = (key: string, value: string) => value && search.set(key, value);
  set('provider', state.provider);
  set('type', state.type);
  set('capability', state.capabilities.join(','));
  set('q', state.search);
  set('minContext', state.minContext);
  set('maxInput', state.maxInputPrice);
  set('maxOutput', state.maxOutputPrice);
  if (state.sort !== 'provider') search.set('sort', state.sort);
  if (state.page > 0) search.set('page', String(state.page));
  return search;
}

const numberOr = (text: string): number | undefined => {
  if (!text.trim()) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
};

/** Models passing the filters the catalog API does not apply. */
export function refine(models: ModelListItem[], state: ListState): ModelListItem[] {
  const minContext = numberOr(state.minContext);
  const maxInput = numberOr(state.maxInputPrice);
  const maxOutput = numberOr(state.maxOutputPrice);
  const needle = state.search.trim().toLowerCase();
  return models.filter((model) => {
    if (needle && !`${model.model_id} ${model.model_name}`.toLowerCase().includes(needle)) return false;
    if (minContext !== undefined && !((model.max_input_tokens ?? -1) >= minContext)) return false;
    if (maxInput !== undefined && !(model.input_cost_per_million !== null && model.input_cost_per_million <= maxInput)) return false;
    if (maxOutput !== undefined && !(model.output_cost_per_million !== null && model.output_cost_per_million <= maxOutput)) return false;
    return true;
  });
}

/** Unknown values sort last whatever the direction. */
function byNumber(value: (model: ModelListItem) => number | null, descending: boolean) {
  return (a: ModelListItem, b: ModelListItem) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return descending ? y - x : x - y;
  };
}

/** The list in the chosen order; ties keep the catalog's order (provider, then model id). */
export function sortModels(models: ModelListItem[], sort: ModelSort): ModelListItem[] {
  if (sort === 'provider') return models;
  const compare =
    sort === 'model'
      ? (a: ModelListItem, b: ModelListItem) => a.model_id.localeCompare(b.model_id)
      : sort === 'input-price'
        ? byNumber((model) => model.input_cost_per_million, false)
        : sort === 'output-price'
          ? byNumber((model) => model.output_cost_per_million, false)
          : byNumber((model) => model.max_input_tokens, true);
  return [...models].sort(compare);
}

/** The capabilities a model has, as supports_* field names. */
export function capabilitiesOf(model: Record<string, unknown>): string[] {
  return Object.entries(model)
    .filter(([key, value]) => key.startsWith('supports_') && value === true)
    .map(([key]) => key);
}
