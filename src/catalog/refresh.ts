// Keeps a catalog imported from a URL up to date: every MODEL_CATALOG_REFRESH the source is read
// again with a conditional request (ETag / Last-Modified), and a changed document is imported as
// a new sync (which extends the price history; see price-history.ts). Any failure keeps the
// previous catalog. The state (validators, last check, last change, last error) lives in the
// relational store, so a restart waits out the interval instead of refetching at once, and the
// work runs under a lease, so several instances check once between them.
import type { Logger } from 'pino';
import type { RelationalStore } from '../db/store';
import type { LeaderHandle } from '../db/lease';
import { describeError } from '../errors';
import type { CatalogService } from './service';
import { fetchCatalogIfChanged, isUrlSource } from './source';

export interface RefreshState {
  source: string;
  intervalSeconds: number;
  checkedAt: Date | null;
  refreshedAt: Date | null;
  /** pending (not checked yet), updated, not_modified or failed. */
  status: string;
  error: string | null;
}

/** How often instances that do not hold the lease re-read the shared state. */
const STATE_POLL_MS = 30_000;

export class CatalogRefresher {
  private job: LeaderHandle | undefined;
  private poll: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: RelationalStore,
    private readonly catalog: CatalogService,
    private readonly source: string,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** True when the source is a URL and refreshing is on. */
  get enabled(): boolean {
    return isUrlSource(this.source) && this.intervalMs > 0;
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    // A catalog this start (or an earlier one) imported from the source counts as the first check.
    const { sync } = this.catalog.snapshot;
    if (sync.source === this.source) {
      await this.store.prisma.catalogRefresh.upsert({
        where: { source: this.source },
        create: { source: this.source, checkedAt: sync.syncedAt, refreshedAt: sync.syncedAt, status: 'updated' },
        update: {},
      });
    }
    await this.publishState();
    // Ticks come often enough to honour the interval within a minute; each tick refetches only
    // when the interval has passed since the last check, whoever made it.
    const tick = Math.min(this.intervalMs, 60_000);
    this.job = this.store.leases.every('catalog-refresh', tick, (signal) => this.runIfDue(signal), { logger: this.logger });
    this.poll = setInterval(() => void this.publishState().catch(() => {}), Math.min(tick, STATE_POLL_MS));
    this.poll.unref();
  }

  async stop(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    await this.job?.stop();
  }

  private async runIfDue(signal: AbortSignal): Promise<void> {
    const row = await this.store.prisma.catalogRefresh.findUnique({ where: { source: this.source } });
    if (row?.checkedAt && Date.now() - row.checkedAt.getTime() < this.intervalMs) return;
    await this.refresh(row, signal);
  }

  /** One conditional read of the source, importing it when it changed. */
  async refresh(row?: { etag: string | null; lastModified: string | null } | null, signal?: AbortSignal): Promise<void> {
    const previous = row === undefined ? await this.store.prisma.catalogRefresh.findUnique({ where: { source: this.source } }) : row;
    const checkedAt = new Date();
    let data: { etag?: string | null; lastModified?: string | null; refreshedAt?: Date; status: string; error: string | null };
    try {
      const answer = await fetchCatalogIfChanged(this.source, { etag: previous?.etag, lastModified: previous?.lastModified }, signal ? { signal } : {});
      if (!answer.changed) data = { status: 'not_modified', error: null };
      else {
        const sync = await this.catalog.sync({ kind: 'litellm', source: this.source, document: answer.document });
        data = { etag: answer.etag, lastModified: answer.lastModified, refreshedAt: checkedAt, status: 'updated', error: null };
        this.logger.info({ source: this.source, models: sync.modelsWritten, version: sync.id }, 'model catalog refreshed');
      }
    } catch (error) {
      data = { status: 'failed', error: describeError(error).message };
      this.logger.warn({ source: this.source, reason: data.error }, 'model catalog refresh failed; keeping the previous catalog');
    }
    await this.store.prisma.catalogRefresh.upsert({
      where: { source: this.source },
      create: { source: this.source, checkedAt, ...data },
      update: { checkedAt, ...data },
    });
    await this.publishState();
  }

  /** Hands the stored state to the catalog service, which shows it in the metadata. */
  private async publishState(): Promise<void> {
    const row = await this.store.prisma.catalogRefresh.findUnique({ where: { source: this.source } });
    this.catalog.setRefreshState({
      source: this.source,
      intervalSeconds: Math.round(this.intervalMs / 1000),
      checkedAt: row?.checkedAt ?? null,
      refreshedAt: row?.refreshedAt ?? null,
      status: row?.status ?? 'pending',
      error: row?.error ?? null,
    });
  }
}
