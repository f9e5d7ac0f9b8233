// Delivers the outbox. Each round claims due notifications (a claim expires, so work taken by an
// instance that died is taken up again), sends each through its notifier's channel, and records
// the attempt in the notifier's delivery log together with the outbox update, in one
// transaction. Failures that may pass (network, time-outs, 408/429/5xx) are retried with growing
// delays; others, and the last attempt, end as failed. Works only while this instance leads the
// "deliveries" job. Time (due attempts, claims, retry delays) is the monitors' clock's.
import type { Logger } from 'pino';
import type { MonitorsConfig } from '../../config';
import type { PrismaClient } from '../../db/store';
import type { Leadership } from '../leadership';
import { RoundLoop } from '../loop';
import { Semaphore } from '../../lib/semaphore';
import type { Notification } from '../notification';
import { notifierRecord } from '../notifiers';
import type { Clock } from '../clock';
import { secondsMs } from '../schedule';
import type { ChannelSender } from './channel';
import { SENDERS } from './channels';
import { PermanentDeliveryError } from './http';
import type { Mailer } from './mailer';

/** Delays before the 2nd, 3rd, ... attempt, in seconds; the attempt after the last one is final. */
export const RETRY_DELAYS_SECONDS = [10, 30, 60, 120, 300, 600, 1200];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const CLAIM_MS = 60_000;
const MAX_SLEEP_MS = 1000;
const BATCH = 50;

interface OutboxRow {
  id: string;
  notifierId: string;
  monitorId: string;
  payload: string;
  attempts: number;
}

export class DeliveryWorker {
  private readonly limit = new Semaphore(4);
  /** Deliveries in flight are the loop's tracked work, by outbox id. */
  private readonly loop: RoundLoop;
  private leading = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly settings: MonitorsConfig,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly leadership: Leadership,
    private readonly logger: Logger,
  ) {
    this.loop = new RoundLoop(
      async () => {
        const leads = await this.leadership.holds('deliveries');
        if (leads && !this.leading) await this.releaseClaims();
        this.leading = leads;
        return leads ? this.startDueDeliveries() : this.clock.now() + MAX_SLEEP_MS;
      },
      (error) => this.logger.error({ err: error }, 'notification delivery round failed'),
      MAX_SLEEP_MS,
      clock,
    );
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /** True while no delivery is due by the clock, none is in flight, and the loop waits for a later time. */
  idle(): boolean {
    return this.loop.idle();
  }

  /** On taking the job over, claims left by an earlier holder (a crashed process) are void. */
  private async releaseClaims(): Promise<void> {
    await this.prisma.notificationOutbox.updateMany({ where: { status: 'pending', claimedUntil: { not: null } }, data: { claimedUntil: null } });
  }

  private async startDueDeliveries(): Promise<number> {
    const now = new Date(this.clock.now());
    const unclaimed = { OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] };
    const due = await this.prisma.notificationOutbox.findMany({
      where: { status: 'pending', nextAttemptAt: { lte: now }, ...unclaimed },
      select: { id: true, notifierId: true, monitorId: true, payload: true, attempts: true },
      orderBy: [{ nextAttemptAt: 'asc' }, { createdAt: 'asc' }],
      take: BATCH,
    });
    for (const row of due) {
      if (this.loop.working().includes(row.id)) continue;
      const claimed = await this.prisma.notificationOutbox.updateMany({
        where: { id: row.id, status: 'pending', ...unclaimed },
        data: { claimedUntil: new Date(now.getTime() + CLAIM_MS) },
      });
      if (claimed.count !== 1) continue;
      const delivery = this.limit
        .run(() => this.deliver(row))
        .catch((error) => this.logger.error({ err: error, notificationId: row.id }, 'notification delivery failed'));
      this.loop.track(row.id, delivery);
    }
    const upcoming = await this.prisma.notificationOutbox.findFirst({
      where: { status: 'pending', nextAttemptAt: { gt: now } },
      select: { nextAttemptAt: true },
      orderBy: { nextAttemptAt: 'asc' },
    });
    return upcoming ? upcoming.nextAttemptAt.getTime() : this.clock.now() + MAX_SLEEP_MS;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const notifierRow = await this.prisma.notifier.findUnique({ where: { id: row.notifierId } });
    if (!notifierRow) {
      await this.prisma.notificationOutbox.update({
        where: { id: row.id },
        data: { status: 'failed', lastError: 'the notifier was deleted', finishedAt: new Date(this.clock.now()), claimedUntil: null },
      });
      return;
    }
    const notifier = notifierRecord(notifierRow);
    const notification = JSON.parse(row.payload) as Notification;
    const attempt = row.attempts + 1;
    const stopwatch = performance.now();
    let outcome: 'delivered' | 'retrying' | 'failed' = 'delivered';
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const send = SENDERS[notifier.channel] as ChannelSender<typeof notifier.channel>;
      const result = await send(notification, notifier.config as never, { settings: this.settings, mailer: this.mailer, deliveryId: row.id });
      statusCode = result.statusCode ?? null;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      statusCode = (caught as { statusCode?: number }).statusCode ?? null;
      outcome = caught instanceof PermanentDeliveryError || attempt >= MAX_ATTEMPTS ? 'failed' : 'retrying';
    }
    const durationMs = Math.round(performance.now() - stopwatch);
    const finishedAt = new Date(this.clock.now());
    const retryAt = new Date(finishedAt.getTime() + secondsMs(RETRY_DELAYS_SECONDS[Math.min(attempt - 1, RETRY_DELAYS_SECONDS.length - 1)]!));
    await this.prisma.$transaction([
      this.prisma.notificationOutbox.update({
        where: { id: row.id },
        data:
          outcome === 'retrying'
            ? { attempts: attempt, nextAttemptAt: retryAt, lastError: error, claimedUntil: null }
            : { attempts: attempt, status: outcome, lastError: error, finishedAt, claimedUntil: null },
      }),
      this.prisma.notifierDelivery.create({
        data: {
          notifierId: row.notifierId,
          outboxId: row.id,
          monitorId: row.monitorId,
          action: notification.action,
          attempt,
          outcome,
          statusCode,
          error,
          durationMs,
          attemptedAt: finishedAt,
        },
      }),
    ]);
    if (outcome !== 'delivered') {
      this.logger.warn({ notifierId: row.notifierId, monitorId: row.monitorId, attempt, outcome, statusCode }, 'notification not delivered');
    }
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
