// Enforces each dataset's retention period (`useRetentionPeriod` with `retentionDays`): a
// periodic sweep trims events older than the period, through the same path as a manual trim.
// The sweep runs under the "retention" lease, so once per deployment however many instances
// share the relational store.
import type { Logger } from 'pino';
import type { LeaderHandle, Leases } from '../db/lease';
import type { Repository } from '../db/repository';
import type { DatasetStorage } from './datasets';

const DAY_MS = 86_400_000;

export const RETENTION_LEASE = 'retention';

export class RetentionSweeper {
  private job: LeaderHandle | undefined;

  constructor(
    private readonly repository: Repository,
    private readonly leases: Leases,
    private readonly storage: Pick<DatasetStorage, 'trim'>,
    private readonly logger: Logger,
  ) {}

  /** Trims every dataset past its retention period; returns events deleted per dataset name. */
  async sweep(now = Date.now()): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const dataset of await this.repository.datasets.withRetention()) {
      const olderThan = new Date(now - dataset.retentionDays * DAY_MS);
      deleted[dataset.name] = await this.storage.trim(dataset.id, dataset.tableName, olderThan);
    }
    const total = Object.values(deleted).reduce((sum, count) => sum + count, 0);
    if (total > 0) this.logger.info({ deleted }, 'retention sweep deleted expired events');
    return deleted;
  }

  /**
   * Sweeps every `intervalMs` on the instance holding the retention lease (at once when it
   * takes the lease), without keeping the process alive.
   */
  start(intervalMs = 3_600_000): void {
    this.job ??= this.leases.every(
      RETENTION_LEASE,
      intervalMs,
      async () => {
        await this.sweep().catch((error: unknown) => this.logger.error({ err: error }, 'retention sweep failed'));
      },
      { logger: this.logger },
    );
  }

  /** True while this instance is the one sweeping. */
  get sweeping(): boolean {
    return this.job?.leading ?? false;
  }

  async stop(): Promise<void> {
    await this.job?.stop();
    this.job = undefined;
  }
}
