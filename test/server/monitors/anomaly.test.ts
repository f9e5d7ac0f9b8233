// Anomaly monitors and NOTIFIER_DENY_PRIVATE, on servers of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { MINUTE, VirtualClock } from '../../helpers/monitors/virtual-clock';

const DAY_MS = 1440 * MINUTE;

describe('anomaly monitor', () => {
  const clock = new VirtualClock();
  let server: TestServer;
  let receiver: Receiver;
  const time = monitorTime(clock, () => [server]);
  beforeAll(async () => {
    server = await startTestServer({}, { monitorClock: clock });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('opens when the value leaves the band around the same window a day before, and closes when it returns', { timeout: 60_000 }, async () => {
    const client = apiOf(server, clock);
    await client.dataset('traffic');
    // A day earlier: 5 events a minute for the next 40 minutes, so every 2-minute window
    // compared with holds 10 (11 with an event on each inclusive edge).
    const start = clock.now() - DAY_MS;
    const history = Array.from({ length: 200 }, (_, i) => ({ _time: new Date(start + i * 12_000).toISOString(), status: 200 }));
    await client.ingest('traffic', history);
    const notifier = await client.notifier({ name: 'hook', properties: { webhook: { url: `${receiver.url}/anomaly` } } });
    await client.monitor({
      name: 'Traffic spike',
      type: 'AnomalyDetection',
      aplQuery: "['traffic'] | summarize requests = count()",
      operator: 'Above',
      tolerance: 50,
      compareDays: 1,
      rangeMinutes: 2,
      notifierIds: [notifier.id],
    });
    await time.minutes(3);
    expect(receiver.received).toHaveLength(0); // 0 now against about 10 then: below, not above
    await client.ingest('traffic', Array.from({ length: 40 }, () => ({ status: 200 })));
    const [opened] = await time.received(receiver, 1);
    expect(opened!.json.action).toBe('Open');
    expect(opened!.json.event.value).toBe(40);
    expect(opened!.json.event.body).toMatch(/^The value 40 is above the expected range (\d+(\.\d+)?) to (\d+(\.\d+)?) \(expected (10|10.5|11)\)$/);
    const [, closed] = await time.received(receiver, 2);
    expect(closed!.json.action).toBe('Closed');
  });
});

describe('NOTIFIER_DENY_PRIVATE', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ NOTIFIER_DENY_PRIVATE: 'true' });
  });
  afterAll(() => server?.close());

  it('refuses notifiers that target loopback or private addresses', async () => {
    const client = apiOf(server);
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost/hook', 'http://10.0.0.5/hook', 'http://[::1]:80/x', 'http://169.254.169.254/latest']) {
      const answer = await client.api('/v2/notifiers', 'POST', { name: 'internal', properties: { webhook: { url } } });
      expect(answer.status, url).toBe(400);
      expect(answer.body.message).toMatch(/properties\.webhook\.url: .* NOTIFIER_DENY_PRIVATE/);
    }
    const slack = await client.api('/v2/notifiers', 'POST', { name: 'x', properties: { slack: { slackUrl: 'http://192.168.0.10/hook' } } });
    expect(slack.body.message).toMatch(/properties\.slack\.slackUrl/);
    expect((await client.api('/v2/notifiers', 'POST', { name: 'public', properties: { webhook: { url: 'https://hooks.example.com/x' } } })).status).toBe(200);
  });
});
