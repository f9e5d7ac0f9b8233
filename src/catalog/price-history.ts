// The catalog's price history: for every model, the periods during which each set of prices
// was in force. A sync compares the models it imports with the open periods: a model whose
// prices changed gets its open period closed at the sync's time and a new one opened; a model
// seen for the first time opens a period that reaches back to the beginning (its first known
// prices are the best answer for older events); a model the source no longer lists has its open
// period closed. Nothing before the sync is ever rewritten, so the cost of an event stays what
// the catalog said at the event's time.
import type { ModelRecord } from './record';

export interface PricePeriod {
  modelId: string;
  providerId: string;
  /** Start of the period (inclusive); null means since the beginning. */
  validFrom: Date | null;
  /** End of the period (exclusive); null while the period is open. */
  validTo: Date | null;
  inputCostPerToken: number;
  outputCostPerToken: number;
  cacheReadCostPerToken: number | null;
  cacheWriteCostPerToken: number | null;
}

export interface StoredPricePeriod extends PricePeriod {
  id: number;
}

/** What a sync writes to the history: periods to close (by id) and periods to open. */
export interface PriceChanges {
  close: number[];
  open: PricePeriod[];
}

export type Prices = Pick<PricePeriod, 'inputCostPerToken' | 'outputCostPerToken' | 'cacheReadCostPerToken' | 'cacheWriteCostPerToken'>;

export function pricesOf(record: ModelRecord): Prices {
  return {
    inputCostPerToken: record.input_cost_per_token,
    outputCostPerToken: record.output_cost_per_token,
    cacheReadCostPerToken: record.cache_read_cost_per_token,
    cacheWriteCostPerToken: record.cache_write_cost_per_token,
  };
}

export function samePrices(a: Prices, b: Prices): boolean {
  return (
    a.inputCostPerToken === b.inputCostPerToken &&
    a.outputCostPerToken === b.outputCostPerToken &&
    (a.cacheReadCostPerToken ?? null) === (b.cacheReadCostPerToken ?? null) &&
    (a.cacheWriteCostPerToken ?? null) === (b.cacheWriteCostPerToken ?? null)
  );
}

/**
 * The history changes of importing `records` at `at`, given the open periods and the ids of
 * every model the history has ever held.
 */
export function planPriceChanges(
  openPeriods: readonly StoredPricePeriod[],
  knownModelIds: ReadonlySet<string>,
  records: readonly ModelRecord[],
  at: Date,
): PriceChanges {
  const openByModel = new Map(openPeriods.map((period) => [period.modelId, period]));
  const close: number[] = [];
  const open: PricePeriod[] = [];
  const imported = new Set<string>();
  for (const record of records) {
    imported.add(record.model_id);
    const prices = pricesOf(record);
    const current = openByModel.get(record.model_id);
    if (current && samePrices(current, prices) && current.providerId === record.provider_id) continue;
    if (current) close.push(current.id);
    open.push({
      modelId: record.model_id,
      providerId: record.provider_id,
      validFrom: current || knownModelIds.has(record.model_id) ? at : null,
      validTo: null,
      ...prices,
    });
  }
  for (const period of openPeriods) if (!imported.has(period.modelId)) close.push(period.id);
  return { close, open };
}
