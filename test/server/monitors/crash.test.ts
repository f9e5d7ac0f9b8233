// No notification is lost or repeated when the server is killed between deciding it and
// delivering it. The server runs as a child process; the receiver is down when the monitor
// opens, so the notification waits in the outbox (failed attempts in the delivery log); then
// the server is killed with SIGKILL, the receiver comes up, and after a restart on the same
// data the notification arrives exactly once, while the alert stays open without a second Open.
// Both processes run their monitors on the test's clock (clock-channel/), which carries the
// time across the restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../../helpers/process';
import { eventually, type Receiver, sleep, startReceiver } from '../../helpers/receiver';
import { SMALL_CATALOG, TEST_ADMIN_TOKEN } from '../../helpers/server';
import { ProcessClock } from '../../helpers/monitors/clock-channel/parent';
import { apiOf } from '../../helpers/monitors/harness';

const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-crash-'));
const env = { DATA_DIR: dataDir, ADMIN_TOKEN: TEST_ADMIN_TOKEN, MODEL_CATALOG_SOURCE: SMALL_CATALOG };
const clock = new ProcessClock();
let server: ServerProcess | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function clientOf(process: ServerProcess) {
  return apiOf(
    {
      url: process.url,
      request: (pathAndQuery, init = {}) => {
        const { auth: _auth, ...rest } = init;
        const headers = new Headers(rest.headers);
        headers.set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`);
        return fetch(`${process.url}${pathAndQuery}`, { ...rest, headers });
      },
    },
    clock,
  );
}

/** Moves the clock a minute at a time; after each, waits until the monitor did the runs that fell due. */
async function runMinutes(client: ReturnType<typeof clientOf>, monitorId: string, count: number) {
  for (let minute = 0; minute < count; minute++) {
    clock.minutes(1);
    await eventually(async () => (Date.parse((await client.status(monitorId)).nextRunAt ?? '') > clock.now() ? true : undefined), 20_000, 'the due runs');
  }
}

describe('a crash between deciding and delivering a notification', () => {
  it('delivers it exactly once after a restart', { timeout: 180_000 }, async () => {
    // A port nobody listens on yet: deliveries fail until the receiver starts there.
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();

    server = await clock.start(env, 60_000, { fromSource: true });
    let client = clientOf(server);
    await client.dataset('crash-logs');
    const notifier = await client.notifier({ name: 'late receiver', properties: { webhook: { url: `http://127.0.0.1:${port}/late` } } });
    const monitor = await client.monitor({
      name: 'Always open',
      type: 'Threshold',
      aplQuery: "['crash-logs'] | summarize count()",
      operator: 'Above',
      threshold: -1,
      notifierIds: [notifier.id],
    });
    // The first run falls in the next minute: it opens the alert and the outbox holds its
    // notification, whose first attempt fails (the next is due 10 seconds later).
    clock.minutes(1);
    await eventually(async () => ((await client.deliveries(notifier.id)).length > 0 ? true : undefined), 20_000, 'a failed attempt');
    expect((await client.deliveries(notifier.id)).every((entry) => entry.outcome === 'retrying')).toBe(true);
    server.child.kill('SIGKILL');
    await server.exited;

    receiver = await startReceiver(port);
    server = await clock.start(env, 60_000, { fromSource: true });
    client = clientOf(server);
    clock.advance(10_000); // the retry falls due
    // It is sent once the new process leads the deliveries: when the killed one's lease expires,
    // within 30 seconds of real time (leases follow the wall clock, not the monitors' clock).
    const [delivered] = await receiver.waitFor(1, 60_000);
    expect(delivered!.json).toMatchObject({ action: 'Open', event: { monitorID: monitor.id } });
    await runMinutes(client, monitor.id, 4); // more runs: the alert stays open, nothing more is sent
    await sleep(200); // time for a notification such a run would have decided to arrive
    expect(receiver.all).toHaveLength(1);
    const history = await client.history(monitor.id);
    expect(history.map((entry) => entry.state)).toEqual(['open']);
    const log = await client.deliveries(notifier.id);
    expect(log[0]).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(new Set(log.map((entry) => entry.notificationId)).size).toBe(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
  });
});
