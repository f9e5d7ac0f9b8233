// "Send test notification": puts one notification marked as a test into the outbox for a
// notifier, so it travels the same path as a real alert (the delivery worker, the channel's
// payload, retries, the delivery log). Its id starts with `ntf_test_`, which is how the delivery
// log tells test attempts apart; its title and body say it is a test.
import { requireOrgCapability, type Principal } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { notFound } from '../errors';
import type { Clock } from './clock';
import { msToNanos } from './go-time';
import { newTestNotificationId } from './ids';
import type { Notification } from './notification';

/** The monitor id test notifications carry: none fired. */
export const TEST_MONITOR_ID = 'test';

export const isTestNotificationId = (id: string) => id.startsWith('ntf_test_');

export class NotifierTests {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    /** Called once the notification is in the outbox, so the worker sends it now. */
    private readonly queued: () => void,
  ) {}

  /** Queues a test notification for the notifier; returns its notification id. */
  async send(principal: Principal, notifierId: string): Promise<{ notificationId: string }> {
    requireOrgCapability(principal, 'notifiers', 'update');
    const notifier = await this.prisma.notifier.findFirst({ where: { id: notifierId, orgId: principal.orgId }, select: { id: true, name: true } });
    if (!notifier) throw notFound(`notifier "${notifierId}" not found`);
    const now = this.clock.now();
    const id = newTestNotificationId();
    const notification: Notification & { test: true } = {
      id,
      test: true,
      action: 'Open',
      reason: 'threshold',
      monitor: {
        id: TEST_MONITOR_ID,
        name: `Test notification for ${notifier.name}`,
        description: 'Sent by hand to check that this notifier reaches its destination; no monitor fired.',
        type: 'Test',
      },
      alertName: `Test notification for ${notifier.name}`,
      body: 'This is a test notification: no monitor fired.',
      value: 0,
      queryStartNanos: msToNanos(now).toString(),
      queryEndNanos: msToNanos(now).toString(),
      timestamp: new Date(now).toISOString(),
      matchedEvent: null,
      groupKeys: null,
      groupValues: null,
      incidentKey: id,
    };
    await this.prisma.notificationOutbox.create({
      data: { id, orgId: principal.orgId, monitorId: TEST_MONITOR_ID, notifierId: notifier.id, payload: JSON.stringify(notification), nextAttemptAt: new Date(now) },
    });
    this.queued();
    return { notificationId: id };
  }
}
