// Enforces each dataset's retention period (`useRetentionPeriod` with `retentionDays`): a
// periodic sweep trims events older than the period, through the same path as a manual trim.
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { DatasetStorage } from './datasets';

const DAY_MS = 86_400_000;

interface RetainedDataset {
  id: string;
  name: string;
  table_name: string;
  retention_days: number;
}

export class RetentionSweeper {
  private readonly retained: Database.Statement<[], RetainedDataset>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    sqlite: Database.Database,
    private readonly storage: Pick<DatasetStorage, 'trim'>,
    private readonly logger: Logger,
  ) {
    this.retained = sqlite.prepare(
      'SELECT id, name, table_name, retention_days FROM datasets WHERE use_retention_period = 1 AND retention_days > 0',
    );
  }

  /** Trims every dataset past its retention period; returns events deleted per dataset name. */
  async sweep(now = Date.now()): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const dataset of this.retained.all()) {
      const olderThan = new Date(now - dataset.retention_days * DAY_MS);
      deleted[dataset.name] = await this.storage.trim(dataset.id, dataset.table_name, olderThan);
    }
    const total = Object.values(deleted).reduce((sum, count) => sum + count, 0);
    if (total > 0) this.logger.info({ deleted }, 'retention sweep deleted expired events');
    return deleted;
  }

  /** Sweeps now and then every `intervalMs`, without keeping the process alive. */
  start(intervalMs = 3_600_000): void {
    const run = () => {
      this.running = this.sweep().catch((error) => this.logger.error({ err: error }, 'retention sweep failed'));
    };
    run();
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
