// The catalog as served: an immutable in-memory view of the stored records, with the indexes
// every read needs. A sync builds a new snapshot and swaps it in; reads never touch the database.
import { compareIds } from './build';
import { buildPriceRows, type PriceRow } from './price-book';
import type { PricePeriod } from './price-history';
import { DERIVED_CAPABILITY_FLAGS, type ModelRecord } from './record';
import type { SyncRecord } from './store';

export interface ProviderEntry {
  id: string;
  name: string;
  /** The provider's models, in list order. */
  models: readonly ModelRecord[];
}

export class CatalogSnapshot {
  /** Changes with every sync; caches of anything derived from the catalog key on it. */
  readonly version: number;
  /** Every record, sorted by provider then model id. */
  readonly models: readonly ModelRecord[];
  readonly providers: readonly ProviderEntry[];
  /** Every boolean `supports_*` field that some record has, sorted. */
  readonly capabilityFields: readonly string[];
  private readonly modelsById = new Map<string, ModelRecord>();
  private readonly providersById = new Map<string, ProviderEntry>();
  private priceRowsCache: readonly PriceRow[] | undefined;

  constructor(
    records: readonly ModelRecord[],
    readonly sync: SyncRecord,
    /** The price history: every period of every model, current or removed. */
    readonly prices: readonly PricePeriod[] = [],
  ) {
    this.version = sync.id;
    this.models = records;
    const grouped = new Map<string, ModelRecord[]>();
    const capabilities = new Set<string>();
    for (const record of records) {
      this.modelsById.set(record.model_id, record);
      let list = grouped.get(record.provider_id);
      if (!list) grouped.set(record.provider_id, (list = []));
      list.push(record);
      for (const [key, value] of Object.entries(record)) {
        if (key.startsWith('supports_') && typeof value === 'boolean') capabilities.add(key);
      }
    }
    this.providers = [...grouped.entries()]
      .sort(([a], [b]) => compareIds(a, b))
      .map(([id, models]) => ({ id, name: models[0]!.provider_name, models }));
    for (const provider of this.providers) this.providersById.set(provider.id, provider);
    // LiteLLM's flags in name order, as modeldb lists them; the derived ones after them.
    const derivedLast = (field: string) => (DERIVED_CAPABILITY_FLAGS.includes(field) ? 1 : 0);
    this.capabilityFields = [...capabilities].sort((a, b) => derivedLast(a) - derivedLast(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The prices as query engines look them up (see price-book.ts), built on first use. */
  get priceRows(): readonly PriceRow[] {
    this.priceRowsCache ??= buildPriceRows(this.models, this.prices);
    return this.priceRowsCache;
  }

  model(id: string): ModelRecord | undefined {
    return this.modelsById.get(id);
  }

  provider(id: string): ProviderEntry | undefined {
    return this.providersById.get(id);
  }
}
