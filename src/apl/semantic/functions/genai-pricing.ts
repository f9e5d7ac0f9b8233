// The GenAI pricing functions: costs and prices of LLM calls from the model catalog. Every one is
// a composition of one lookup, `genai_price(model, time)` (a per-token price, or the model's
// catalog id or provider, by `options.field`) or `genai_pricing(model, time)` (the documented
// pricing object), priced at the row's `_time` when the row has one and at today's prices
// otherwise. A name the catalog cannot resolve gives null, never an error.
import type { CallSite } from '../call-site';
import type { TExpr } from '../plan';
import { call, literal, nullOf } from '../typed';
import type { ScalarFamily } from './rule';

export type PriceField = 'input' | 'output' | 'cache_read' | 'cache_write' | 'model_id' | 'provider';

/** The canonical calls that look a model up in the catalog's prices (dialects hoist them into one lookup per model and time). */
export const PRICE_LOOKUP_CALLS = ['genai_price', 'genai_pricing'] as const;

/** The instant a row is priced at: its `_time`, or null (today's prices) when it has none. */
function pricedAt(site: CallSite): TExpr {
  const time = site.row.field('_time');
  return time && time.type === 'datetime' ? time : nullOf('datetime');
}

function price(site: CallSite, model: TExpr, field: PriceField): TExpr {
  const type = field === 'model_id' || field === 'provider' ? 'string' : 'real';
  return call('genai_price', [model, pricedAt(site)], type, { field });
}

const zero = literal({ type: 'real', value: 0 });
const times = (a: TExpr, b: TExpr) => call('mul', [a, b], 'real');
const plus = (a: TExpr, b: TExpr) => call('add', [a, b], 'real');
const minus = (a: TExpr, b: TExpr) => call('sub', [a, b], 'real');

/**
 * The cost of one call. Input tokens include cached ones (as the OpenTelemetry conventions count
 * `gen_ai.usage.input_tokens`): cache reads and writes are taken out of the input and billed at
 * their own prices, or at the input price when the catalog has none.
 */
function cost(site: CallSite): TExpr {
  site.arity(3, 5);
  const model = site.arg(0, 'string');
  const input = site.arg(1, 'real');
  const output = site.arg(2, 'real');
  const inputPrice = price(site, model, 'input');
  const billed = plus(times(output, price(site, model, 'output')), times(input, inputPrice));
  if (site.count === 3) return billed;
  const cacheRead = call('coalesce', [site.arg(3, 'real'), zero], 'real');
  const cacheWrite = site.count > 4 ? call('coalesce', [site.arg(4, 'real'), zero], 'real') : zero;
  const uncached = call('max_of', [minus(minus(input, cacheRead), cacheWrite), zero], 'real');
  const readPrice = call('coalesce', [price(site, model, 'cache_read'), inputPrice], 'real');
  const writePrice = call('coalesce', [price(site, model, 'cache_write'), inputPrice], 'real');
  return plus(
    plus(times(output, price(site, model, 'output')), times(uncached, inputPrice)),
    plus(times(cacheRead, readPrice), times(cacheWrite, writePrice)),
  );
}

export const GENAI_PRICING_FUNCTIONS: ScalarFamily = {
  genai_cost: cost,
  genai_input_cost: (site) => {
    site.arity(2);
    return times(site.arg(1, 'real'), price(site, site.arg(0, 'string'), 'input'));
  },
  genai_output_cost: (site) => {
    site.arity(2);
    return times(site.arg(1, 'real'), price(site, site.arg(0, 'string'), 'output'));
  },
  // {input_price_per_million, output_price_per_million, cache_read_price_per_million,
  //  cache_write_price_per_million, provider, model_id}, or null for an unknown model.
  genai_get_pricing: (site) => {
    site.arity(1);
    return call('genai_pricing', [site.arg(0, 'string'), pricedAt(site)], 'dynamic');
  },
};
