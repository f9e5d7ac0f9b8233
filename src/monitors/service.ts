// The monitoring domain as one object: notifier and monitor management for the doors, and the
// background scheduler and delivery worker, started and stopped with the server.
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { PrismaClient } from '../db/store';
import type { QueryService } from '../queries/query-service';
import type { Clock } from './clock';
import { createMailer, type Mailer } from './delivery/mailer';
import { stopTemplateThread } from './delivery/template';
import { DeliveryWorker } from './delivery/worker';
import { type Leadership, soleInstance } from './leadership';
import { MonitorBacktest } from './backtest';
import { MonitorService } from './monitors';
import { NotifierTests } from './notifier-test';
import { NotifierService } from './notifiers';
import { MonitorRunner } from './runner';
import { MonitorScheduler } from './scheduler';
import { systemClock } from './system-clock';

export class Monitoring {
  readonly notifiers: NotifierService;
  readonly monitors: MonitorService;
  readonly scheduler: MonitorScheduler;
  readonly deliveries: DeliveryWorker;
  /** Replays a monitor definition over a past period (the editor's preview). */
  readonly backtests: MonitorBacktest;
  /** Test notifications, sent through the outbox like real ones. */
  readonly notifierTests: NotifierTests;
  private readonly mailer: Mailer;

  constructor(
    config: Config,
    prisma: PrismaClient,
    queries: QueryService,
    logger: Logger,
    private readonly leadership: Leadership = soleInstance,
    /** The time monitors run on: the system's, unless a test moves it by hand. */
    clock: Clock = systemClock,
  ) {
    const settings = config.monitors;
    const log = logger.child({ module: 'monitors' });
    this.mailer = createMailer(settings.smtpUrl, settings.smtpFrom);
    this.notifiers = new NotifierService(prisma, { denyPrivateTargets: settings.denyPrivateTargets });
    this.deliveries = new DeliveryWorker(prisma, settings, this.mailer, clock, leadership, log);
    const runner = new MonitorRunner(prisma, queries, clock, log, () => this.deliveries.wake());
    this.scheduler = new MonitorScheduler(prisma, runner, leadership, log, settings.concurrency, clock);
    this.monitors = new MonitorService(prisma, queries, this.notifiers, clock, () => this.scheduler.wake());
    this.backtests = new MonitorBacktest(queries);
    this.notifierTests = new NotifierTests(prisma, clock, () => this.deliveries.wake());
  }

  start(): void {
    this.scheduler.start();
    this.deliveries.start();
  }

  /** True while nothing is due by the clock's time: no run or delivery waits or is under way. */
  idle(): boolean {
    return this.scheduler.idle() && this.deliveries.idle();
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    await this.deliveries.stop();
    await this.leadership.release();
    this.mailer.close();
    stopTemplateThread();
  }
}
