// Two server instances over one PostgreSQL database run each monitor run, and deliver each
// notification, once: the scheduler and the delivery worker hold leases in the shared store.
// Runs in the `postgres` test project (skipped elsewhere).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../helpers/postgres';
import { type Receiver, startReceiver } from '../../helpers/receiver';
import { freshPostgresDatabase, ON_POSTGRES, startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { VirtualClock } from '../../helpers/monitors/virtual-clock';

describe.runIf(ON_POSTGRES)('monitors on two instances over one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let receiver: Receiver;
  // One clock for both instances, as they share one wall clock in a deployment.
  const clock = new VirtualClock();
  const time = monitorTime(clock, () => [a, b]);

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    receiver = await startReceiver();
    const env = { DATABASE_URL: database.url };
    [a, b] = await Promise.all([startTestServer(env, { monitorClock: clock }), startTestServer(env, { monitorClock: clock })]);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    await receiver?.close();
  });

  it('runs every scheduled run and sends every notification once', { timeout: 60_000 }, async () => {
    const client = apiOf(a, clock);
    await client.ok('/v2/datasets', 'POST', { name: 'shared-logs' });
    const notifier = await client.notifier({ name: 'hook', properties: { webhook: { url: `${receiver.url}/shared` } } });
    // Always positive, and notified on every run: one notification per run.
    await client.monitor({
      name: 'Every run',
      type: 'Threshold',
      aplQuery: "['shared-logs'] | summarize count()",
      operator: 'Above',
      threshold: -1,
      notifyEveryRun: true,
      notifierIds: [notifier.id],
    });
    await time.received(receiver, 5);
    await time.minutes(2);
    const ends = receiver.received.map((request) => request.json.event.queryEndTime as string);
    expect(new Set(ends).size).toBe(ends.length); // no run twice
    expect(new Set(receiver.all.map((request) => request.headers['idempotency-key'])).size).toBe(receiver.all.length); // no delivery twice
    const holders = await Promise.all(['monitors', 'deliveries'].map((name) => a.app.services.store.leases.state(name)));
    const instances = [a, b].map((server) => server.app.services.store.leases.instanceId);
    for (const holder of holders) expect(instances).toContain(holder?.holder);
  });
});
