// Keeps the events database's price table (which the genai_* APL functions join: `genai.prices`
// in DuckDB, `genai_prices` in ClickHouse) in step with the model catalog: each new catalog
// snapshot is installed once, in the background, by the event store. Queries never wait for it:
// until an install finishes they see the previous prices, which the database keeps across
// restarts.
import type { Logger } from 'pino';
import { priceBoundaries } from '../apl';
import type { CatalogService } from '../catalog/service';
import type { CatalogSnapshot } from '../catalog/snapshot';
import type { EventStore } from './store/store';

export class CatalogPriceTable {
  private installed: number | undefined;
  private pending: CatalogSnapshot | undefined;
  private running: Promise<void> = Promise.resolve();
  private installedBoundaries: readonly bigint[] | undefined;

  constructor(
    private readonly eventStore: Pick<EventStore, 'ensurePriceTable' | 'installPriceTable'>,
    private readonly logger: Logger,
  ) {}

  /** Creates the table if missing, then follows the catalog's snapshots. */
  async start(catalog: CatalogService): Promise<void> {
    await this.eventStore.ensurePriceTable();
    catalog.onSnapshot((snapshot) => this.schedule(snapshot));
  }

  /**
   * The period boundaries of the installed prices, for the query compiler (undefined until an
   * install finished: queries then look prices up row by row, which is always right). Set right
   * after an install, so a query compiled meanwhile with the previous boundaries misses at most
   * the new sync's instant, which only events from after that sync can straddle.
   */
  get boundaries(): readonly bigint[] | undefined {
    return this.installedBoundaries;
  }

  /** Resolves when every snapshot seen so far is installed (or failed to). */
  idle(): Promise<void> {
    return this.running;
  }

  private schedule(snapshot: CatalogSnapshot): void {
    this.pending = snapshot;
    this.running = this.running.then(() => this.installPending());
  }

  private async installPending(): Promise<void> {
    const snapshot = this.pending;
    this.pending = undefined;
    if (!snapshot || snapshot.version === this.installed) return;
    try {
      const started = performance.now();
      const rows = snapshot.priceRows;
      const boundaries = priceBoundaries(rows);
      await this.eventStore.installPriceTable(rows, snapshot.version);
      this.installed = snapshot.version;
      this.installedBoundaries = boundaries;
      this.logger.info({ version: snapshot.version, rows: rows.length, ms: Math.round(performance.now() - started) }, 'model prices installed for queries');
    } catch (error) {
      this.logger.warn({ err: error, version: snapshot.version }, 'could not install the model prices; queries keep the previous ones');
    }
  }
}
