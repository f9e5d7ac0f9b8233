// Starts monitor runs when they are due. Each round reads the most overdue monitors through one
// small indexed query (monitor_states.next_run_at), starts them, and waits until the next one
// is due (at most a second, so changes from other instances are seen). Time is the monitors'
// clock's. Runs are limited
// to MONITOR_CONCURRENCY at once, and their queries go through the engine's read connections
// with the query time budget, so monitors never hold up ingest or user queries. The loop works
// only while this instance leads the "monitors" job.
import type { Logger } from 'pino';
import type { PrismaClient } from '../db/store';
import type { Clock } from './clock';
import type { Leadership } from './leadership';
import { RoundLoop } from './loop';
import { Semaphore } from '../lib/semaphore';
import type { MonitorRunner, RunOutcome } from './runner';

const MAX_SLEEP_MS = 1000;

export interface SchedulerStats {
  runs: number;
  failedRuns: number;
  /** Start delays (due → started) of the latest runs, at most 10,000 of them. */
  recentStartDelaysMs: number[];
}

export class MonitorScheduler {
  private readonly limit: Semaphore;
  /** Runs started at most (running or waiting for a slot). */
  private readonly queueLength: number;
  /** Runs in progress are the loop's tracked work, by monitor id. */
  private readonly loop: RoundLoop;
  readonly stats: SchedulerStats = { runs: 0, failedRuns: 0, recentStartDelaysMs: [] };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly runner: MonitorRunner,
    private readonly leadership: Leadership,
    private readonly logger: Logger,
    concurrency: number,
    private readonly clock: Clock,
  ) {
    this.limit = new Semaphore(concurrency);
    this.queueLength = concurrency * 2;
    this.loop = new RoundLoop(
      async () => ((await this.leadership.holds('monitors')) ? this.startDueRuns() : this.clock.now() + MAX_SLEEP_MS),
      (error) => this.logger.error({ err: error }, 'monitor scheduler round failed'),
      MAX_SLEEP_MS,
      clock,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due monitors now (after a monitor was created, changed or deleted). */
  wake(): void {
    this.loop.wake();
  }

  /** True while no run is due by the clock, none runs, and the loop waits for a later time. */
  idle(): boolean {
    return this.loop.idle();
  }

  /**
   * Starts the most overdue runs, keeping at most twice the concurrency started (running or
   * waiting for a slot), so each round reads only a few rows; a finished run starts the next
   * round. Returns when the next round is due.
   */
  private async startDueRuns(): Promise<number> {
    const running = this.loop.working();
    const free = this.queueLength - running.length;
    if (free <= 0) return this.clock.now() + MAX_SLEEP_MS;
    const now = new Date(this.clock.now());
    const due = await this.prisma.monitorState.findMany({
      where: { nextRunAt: { lte: now }, monitor: { disabled: false }, monitorId: { notIn: running } },
      select: { monitorId: true, nextRunAt: true },
      orderBy: { nextRunAt: 'asc' },
      take: free,
    });
    for (const { monitorId, nextRunAt } of due) {
      const run = this.limit
        .run(() => this.runner.run(monitorId, nextRunAt.getTime()))
        .then((outcome) => this.record(outcome))
        .catch((error) => {
          this.stats.failedRuns++;
          this.logger.error({ err: error, monitorId }, 'monitor run failed');
        });
      this.loop.track(monitorId, run);
    }
    if (due.length === free) return this.clock.now() + MAX_SLEEP_MS; // more may be due: finished runs wake the loop
    const upcoming = await this.prisma.monitorState.findFirst({
      where: { nextRunAt: { gt: now }, monitor: { disabled: false } },
      select: { nextRunAt: true },
      orderBy: { nextRunAt: 'asc' },
    });
    return upcoming ? upcoming.nextRunAt.getTime() : this.clock.now() + MAX_SLEEP_MS;
  }

  private record(outcome: RunOutcome | undefined): void {
    if (!outcome) return;
    this.stats.runs++;
    if (outcome.error) this.stats.failedRuns++;
    const delays = this.stats.recentStartDelaysMs;
    delays.push(outcome.startDelayMs);
    if (delays.length > 10_000) delays.splice(0, delays.length - 10_000);
  }

  /** Stops starting runs and waits for those in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
