// The catalog's service: the functions REST routes and GraphQL resolvers call. Reads are served
// from the in-memory snapshot; syncs write the store and swap in a new snapshot. A sync run by
// another process (`npm run sync`) is noticed by a cheap poll and loaded too.
import type { Logger } from 'pino';
import type { RelationalStore } from '../db/store';
import { describeError, notFound, unavailable } from '../errors';
import { type CatalogMetadata, catalogMetadata, refreshMetadata } from './metadata';
import type { RefreshState } from './refresh';
import type { PricePeriod } from './price-history';
import { filterModels, type ModelFilter, todayUtc } from './query';
import type { ModelRecord } from './record';
import { CatalogSnapshot, type ProviderEntry } from './snapshot';
import { latestSyncId, readStoredCatalog, type SyncRecord } from './store';
import { type CatalogSourceRequest, importCatalog, type SyncOptions } from './sync';

export interface CatalogServiceOptions {
  /** How often to look for a sync written by another process; 0 disables the poll. */
  pollIntervalMs?: number;
  /** The clock that decides what "today" is for deprecation. */
  now?: () => Date;
}

export class CatalogService {
  private current: CatalogSnapshot | undefined;
  private poll: NodeJS.Timeout | undefined;
  private refreshing = false;
  private metadataCache: { version: number; today: string; value: CatalogMetadata } | undefined;
  private readonly now: () => Date;
  private readonly listeners: ((snapshot: CatalogSnapshot) => void)[] = [];
  private refreshState: RefreshState | undefined;
  /** The UTC day `today()` last wrote, and the epoch milliseconds it spans. */
  private day: { text: string; from: number; until: number } | undefined;
  private lastGeneration: { version: number; today: string; refreshVersion: number; value: string } | undefined;

  constructor(
    private readonly store: RelationalStore,
    private readonly logger: Logger,
    { pollIntervalMs = 2_000, now = () => new Date() }: CatalogServiceOptions = {},
  ) {
    this.now = now;
    if (pollIntervalMs > 0) {
      this.poll = setInterval(() => void this.refreshIfChanged(), pollIntervalMs);
      this.poll.unref();
    }
  }

  get snapshot(): CatalogSnapshot {
    if (!this.current) throw unavailable('the model catalog is not loaded yet');
    return this.current;
  }

  /**
   * Calls `listener` with every snapshot served from now on (after each sync or reload), and
   * at once with the current one.
   */
  onSnapshot(listener: (snapshot: CatalogSnapshot) => void): void {
    this.listeners.push(listener);
    if (this.current) listener(this.current);
  }

  /** Today in UTC, the reference date of every deprecation decision. */
  today(): string {
    // Asked on every catalog request: the date is written once per day, not once per call.
    const time = this.now().getTime();
    const day = this.day;
    if (day && time >= day.from && time < day.until) return day.text;
    const text = todayUtc(new Date(time));
    const from = Date.parse(`${text}T00:00:00.000Z`);
    this.day = { text, from, until: from + 86_400_000 };
    return text;
  }

  /**
   * Changes whenever an answer read from the catalog may change: a new snapshot, a new day
   * (deprecation) or a new refresh state (metadata). Kept answers are keyed by it.
   */
  generation(): string {
    const { version } = this.snapshot;
    const today = this.today();
    const last = this.lastGeneration;
    if (last?.version === version && last.today === today && last.refreshVersion === this.refreshVersion) return last.value;
    const value = `${version} ${today} ${this.refreshVersion}`;
    this.lastGeneration = { version, today, refreshVersion: this.refreshVersion, value };
    return value;
  }

  /**
   * Loads the stored catalog; when there is none, imports `source`, and when that fails the
   * bundled fallback data set, so the service always starts with a usable catalog.
   */
  async initialize(source: string): Promise<void> {
    if (await this.reload()) return;
    try {
      const sync = await this.sync({ kind: 'litellm', source });
      this.logger.info({ source, models: sync.modelsWritten }, 'model catalog imported');
    } catch (error) {
      this.logger.warn(
        { source, reason: describeError(error).message },
        'model catalog source unavailable; importing the bundled fallback data set instead',
      );
      const sync = await this.sync({ kind: 'fallback' });
      this.logger.info({ source: sync.source, models: sync.modelsWritten }, 'model catalog imported from the fallback');
    }
  }

  /** Imports a source, then serves it. On failure the previous catalog stays, stored and served. */
  async sync(request: CatalogSourceRequest, options: SyncOptions = {}): Promise<SyncRecord> {
    const sync = await importCatalog(this.store, request, options);
    await this.reload();
    return sync;
  }

  listModels(filter: ModelFilter = {}): ModelRecord[] {
    return filterModels(this.snapshot, filter, this.today());
  }

  getModel(id: string): ModelRecord {
    const model = this.snapshot.model(id);
    if (!model) throw notFound(`Model not found: ${id}`);
    return model;
  }

  findModel(id: string): ModelRecord | undefined {
    return this.snapshot.model(id);
  }

  /** The price periods of a model, oldest first (empty when the history never held it). */
  priceHistory(modelId: string): PricePeriod[] {
    return this.snapshot.prices
      .filter((period) => period.modelId === modelId)
      .sort((a, b) => (a.validFrom?.getTime() ?? -Infinity) - (b.validFrom?.getTime() ?? -Infinity));
  }

  /** Every provider, or those of `ids` that exist, sorted by provider id. */
  listProviders(ids?: readonly string[]): ProviderEntry[] {
    const { providers } = this.snapshot;
    if (!ids?.length) return [...providers];
    const wanted = new Set(ids);
    return providers.filter((provider) => wanted.has(provider.id));
  }

  getProvider(id: string): ProviderEntry {
    const provider = this.snapshot.provider(id);
    if (!provider) throw notFound(`Provider not found: ${id}`);
    return provider;
  }

  findProvider(id: string): ProviderEntry | undefined {
    return this.snapshot.provider(id);
  }

  metadata(): CatalogMetadata {
    const { snapshot } = this;
    const today = this.today();
    const cached = this.metadataCache;
    if (cached?.version === snapshot.version && cached.today === today) return cached.value;
    const value = catalogMetadata(snapshot, today);
    if (this.refreshState) value.refresh = refreshMetadata(this.refreshState);
    this.metadataCache = { version: snapshot.version, today, value };
    return value;
  }

  /** The state of the periodic refresh from a URL source, shown in the metadata. */
  setRefreshState(state: RefreshState): void {
    const stamp = (s: RefreshState | undefined) => (s ? `${s.status} ${s.checkedAt?.getTime()} ${s.refreshedAt?.getTime()} ${s.error}` : '');
    if (stamp(state) === stamp(this.refreshState)) return;
    this.refreshState = state;
    this.metadataCache = undefined;
    this.refreshVersion++;
  }

  /** Changes whenever the refresh state does (rendered metadata is cached by it). */
  refreshVersion = 0;

  close(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
  }

  /** Loads the stored catalog into a new snapshot; false when the store holds none. */
  private async reload(): Promise<boolean> {
    const stored = await readStoredCatalog(this.store);
    if (!stored) return false;
    this.current = new CatalogSnapshot(stored.records, stored.sync, stored.prices);
    for (const listener of this.listeners) listener(this.current);
    return true;
  }

  private async refreshIfChanged(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const latest = await latestSyncId(this.store);
      if (latest !== undefined && latest !== this.current?.version) {
        await this.reload();
        this.logger.info({ version: this.current?.version }, 'model catalog reloaded after a sync');
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not check the model catalog for a newer sync');
    } finally {
      this.refreshing = false;
    }
  }
}

export async function createCatalogService(
  store: RelationalStore,
  logger: Logger,
  source: string,
  options?: CatalogServiceOptions,
): Promise<CatalogService> {
  const service = new CatalogService(store, logger, options);
  try {
    await service.initialize(source);
  } catch (error) {
    service.close();
    throw error;
  }
  return service;
}
