// Threshold monitors on a clock the test moves (minutes pass without waiting for them):
// notifications reach local HTTP receivers through webhooks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { MINUTE, VirtualClock } from '../../helpers/monitors/virtual-clock';

const clock = new VirtualClock();
let server: TestServer;
let client: ReturnType<typeof apiOf>;
const time = monitorTime(clock, () => [server]);
const receivers: Receiver[] = [];

async function receiverWithNotifier() {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const notifier = await client.notifier({ name: `receiver ${receivers.length}`, properties: { customWebhook: { url: `${receiver.url}/hook` } } });
  return { receiver, notifier };
}

beforeAll(async () => {
  server = await startTestServer({}, { monitorClock: clock });
  client = apiOf(server, clock);
});
afterAll(async () => {
  await server?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

describe('threshold monitor', () => {
  it('opens then closes with exactly two notifications and matching history', { timeout: 60_000 }, async () => {
    await client.dataset('thr-logs');
    const { receiver, notifier } = await receiverWithNotifier();
    const monitor = await client.monitor({
      name: 'Errors',
      type: 'Threshold',
      aplQuery: "['thr-logs'] | where status >= 500 | summarize count()",
      operator: 'AboveOrEqual',
      threshold: 3,
      rangeMinutes: 3,
      notifierIds: [notifier.id],
    });
    // Quiet runs first: nothing is sent while the count stays under the threshold.
    await time.advance(2.5 * MINUTE);
    expect(receiver.received).toHaveLength(0);

    await client.ingest('thr-logs', [{ status: 500 }, { status: 503 }, { status: 502 }, { status: 200 }]);
    const [opened] = await time.received(receiver, 1);
    expect(opened!.json).toMatchObject({ action: 'Open', event: { monitorID: monitor.id, title: 'Errors', value: 3, matchedEvent: null } });
    expect(opened!.json.event.body).toBe('The value 3 is above or equal to the threshold 3');
    // The events leave the 3-minute window, and the alert closes.
    const [, closed] = await time.received(receiver, 2);
    expect(closed!.json).toMatchObject({ action: 'Closed', event: { monitorID: monitor.id, value: 0 } });
    await time.minutes(3);
    expect(receiver.received).toHaveLength(2);

    const history = await client.history(monitor.id);
    expect(history.map((entry) => entry.state)).toEqual(['open', 'closed']);
    expect(history[0]).toMatchObject({ name: 'Errors', checkId: expect.stringMatching(/^chk_/) });
    expect(history[0]!.checkId).not.toBe(history[1]!.checkId);
    expect(Date.parse(history[0]!.timestamp)).toBeLessThan(Date.parse(history[1]!.timestamp));
    await client.ok(`/v2/monitors/${monitor.id}`, 'DELETE');
  });

  it('keeps one alert per group with notifyByGroup, carrying groupKeys and groupValues', { timeout: 60_000 }, async () => {
    await client.dataset('grp-logs', { status: 200, service: 'none' });
    const { receiver, notifier } = await receiverWithNotifier();
    const monitor = await client.monitor({
      name: 'Errors by service',
      type: 'Threshold',
      aplQuery: "['grp-logs'] | where status >= 500 | summarize errors = count() by service",
      operator: 'AboveOrEqual',
      threshold: 2,
      rangeMinutes: 3,
      notifyByGroup: true,
      notifierIds: [notifier.id],
    });
    await client.ingest('grp-logs', [
      { status: 500, service: 'api' },
      { status: 500, service: 'api' },
      { status: 502, service: 'api' },
      { status: 500, service: 'web' },
      { status: 503, service: 'db' },
      { status: 504, service: 'db' },
    ]);
    // api (3) and db (2) cross the threshold, web (1) does not; each opens and later closes on its own.
    const sent = await time.received(receiver, 4);
    await time.minutes(3);
    expect(receiver.received).toHaveLength(4);
    const summary = sent.map((request) => `${request.json.action} ${request.json.event.groupValues[0]} ${request.json.event.value}`);
    expect([...summary].sort()).toEqual(['Closed api 0', 'Closed db 0', 'Open api 3', 'Open db 2']);
    for (const group of ['api', 'db']) {
      expect(summary.findIndex((line) => line.startsWith(`Open ${group}`))).toBeLessThan(summary.findIndex((line) => line.startsWith(`Closed ${group}`)));
    }
    expect(sent.every((request) => JSON.stringify(request.json.event.groupKeys) === '["service"]')).toBe(true);

    const history = await client.history(monitor.id);
    expect(history.map((entry) => `${entry.state} ${entry.name}`).sort()).toEqual([
      'closed Errors by service (service=api)',
      'closed Errors by service (service=db)',
      'open Errors by service (service=api)',
      'open Errors by service (service=db)',
    ]);
    await client.ok(`/v2/monitors/${monitor.id}`, 'DELETE');
  });

  it('opens on no data with alertOnNoData and closes when data returns', { timeout: 60_000 }, async () => {
    await client.dataset('nodata-logs');
    const { receiver, notifier } = await receiverWithNotifier();
    const monitor = await client.monitor({
      name: 'Heartbeat',
      type: 'Threshold',
      aplQuery: "['nodata-logs'] | summarize beats = count() by bin(_time, 1m)",
      operator: 'Above',
      threshold: 1000,
      rangeMinutes: 2,
      alertOnNoData: true,
      notifierIds: [notifier.id],
    });
    const [opened] = await time.received(receiver, 1);
    expect(opened!.json).toMatchObject({ action: 'Open', event: { body: 'The query returned no data', value: 0 } });
    await client.ingest('nodata-logs', [{ status: 200 }]);
    const [, closed] = await time.received(receiver, 2);
    expect(closed!.json).toMatchObject({ action: 'Closed' });
    await client.ok(`/v2/monitors/${monitor.id}`, 'DELETE');
    const history = await client.history(monitor.id).catch(() => undefined);
    expect(history).toBeUndefined(); // the monitor and its history are gone
  });

  it('never runs a disabled monitor', { timeout: 60_000 }, async () => {
    await client.dataset('off-logs');
    const { receiver, notifier } = await receiverWithNotifier();
    // count() > -1 holds on every run: the monitor would open at once.
    const monitor = await client.monitor({
      name: 'Disabled',
      type: 'Threshold',
      aplQuery: "['off-logs'] | summarize count()",
      operator: 'Above',
      threshold: -1,
      disabled: true,
      notifierIds: [notifier.id],
    });
    await time.minutes(4);
    expect(receiver.all).toHaveLength(0);
    expect(await client.history(monitor.id)).toEqual([]);
    const status = await server.graphql(`{ monitor(id: "${monitor.id}") { status { state lastRunAt } } }`);
    expect(status.data.monitor.status).toEqual({ state: 'closed', lastRunAt: null });
  });

  it('resumes by itself after disabledUntil', { timeout: 60_000 }, async () => {
    await client.dataset('pause-logs');
    const { receiver, notifier } = await receiverWithNotifier();
    const disabledUntil = new Date(clock.now() + 3 * MINUTE);
    const monitor = await client.monitor({
      name: 'Paused',
      type: 'Threshold',
      aplQuery: "['pause-logs'] | summarize count()",
      operator: 'Above',
      threshold: -1,
      disabledUntil: disabledUntil.toISOString(),
      notifierIds: [notifier.id],
    });
    await time.minutes(2);
    expect(receiver.all).toHaveLength(0);
    const [opened] = await time.received(receiver, 1, 10 * MINUTE);
    expect(opened!.json.action).toBe('Open');
    const history = await client.history(monitor.id);
    expect(history).toHaveLength(1);
    expect(Date.parse(history[0]!.timestamp)).toBeGreaterThanOrEqual(disabledUntil.getTime());
    await client.ok(`/v2/monitors/${monitor.id}`, 'DELETE');
  });

  it('retries a receiver that failed twice, and logs every attempt', { timeout: 60_000 }, async () => {
    await client.dataset('retry-logs');
    const { receiver, notifier } = await receiverWithNotifier();
    receiver.failNext(2, 503);
    const monitor = await client.monitor({
      name: 'Retried',
      type: 'Threshold',
      aplQuery: "['retry-logs'] | summarize count()",
      operator: 'Above',
      threshold: -1,
      notifierIds: [notifier.id],
    });
    const [delivered] = await time.received(receiver, 1);
    expect(delivered!.json.action).toBe('Open');
    expect(receiver.all.map((request) => request.status)).toEqual([503, 503, 200]);
    // The three attempts carry the same delivery id, so a receiver can drop repeats.
    expect(new Set(receiver.all.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    const deliveries = await eventually(async () => {
      const log = await client.deliveries(notifier.id);
      return log.length === 3 ? log : undefined;
    });
    expect(deliveries.map((entry) => [entry.attempt, entry.outcome, entry.statusCode])).toEqual([
      [3, 'delivered', 200],
      [2, 'retrying', 503],
      [1, 'retrying', 503],
    ]);
    expect(deliveries[1].error).toMatch(/answered 503/);
    expect(new Set(deliveries.map((entry) => entry.notificationId)).size).toBe(1);
    expect(deliveries[0].monitorId).toBe(monitor.id);
    await client.ok(`/v2/monitors/${monitor.id}`, 'DELETE');
  });
});
