// Threshold monitors on the real clock, with a minute shortened to one second
// (MONITOR_MINUTE_MS=1000): notifications reach a local HTTP receiver through a custom webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Receiver, sleep, startReceiver } from '../helpers/receiver';
import { startTestServer, type TestServer } from '../helpers/server';

const MINUTE_MS = 1000;

let server: TestServer;
let receiver: Receiver;

async function api(path: string, method = 'GET', body?: unknown) {
  const response = await server.request(path, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function ingest(dataset: string, events: object[]) {
  const response = await api(`/v1/datasets/${dataset}/ingest`, 'POST', events);
  expect(response.status).toBe(200);
  expect(response.body.ingested).toBe(events.length);
}

beforeAll(async () => {
  server = await startTestServer({ MONITOR_MINUTE_MS: String(MINUTE_MS) });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('threshold monitor', () => {
  it('opens then closes with exactly two notifications and matching history', { timeout: 60_000 }, async () => {
    expect((await api('/v2/datasets', 'POST', { name: 'thr-logs' })).status).toBe(200);
    // An old event gives the dataset its fields, so the query can name them; it is outside every window.
    await ingest('thr-logs', [{ _time: new Date(Date.now() - 86_400_000).toISOString(), status: 200 }]);
    const notifier = await api('/v2/notifiers', 'POST', {
      name: 'receiver',
      properties: { customWebhook: { url: `${receiver.url}/hook`, body: '' } },
    });
    expect(notifier.status).toBe(200);
    const created = await api('/v2/monitors', 'POST', {
      name: 'Errors',
      type: 'Threshold',
      aplQuery: "['thr-logs'] | where status >= 500 | summarize count()",
      operator: 'AboveOrEqual',
      threshold: 3,
      intervalMinutes: 1,
      rangeMinutes: 3,
      notifierIds: [notifier.body.id],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const since = new Date(Date.now() - 60_000).toISOString();
    // Quiet runs first: nothing is sent while the count stays under the threshold.
    await sleep(2.5 * MINUTE_MS);
    expect(receiver.received).toHaveLength(0);

    await ingest('thr-logs', [{ status: 500 }, { status: 503 }, { status: 502 }, { status: 200 }]);
    const [opened] = await receiver.waitFor(1);
    expect(opened!.json).toMatchObject({ action: 'Open', event: { monitorID: created.body.id, title: 'Errors', value: 3 } });
    // The events leave the 3-minute window, and the alert closes.
    const [, closed] = await receiver.waitFor(2, 15_000);
    expect(closed!.json).toMatchObject({ action: 'Closed', event: { monitorID: created.body.id, value: 0 } });
    await sleep(3 * MINUTE_MS);
    expect(receiver.received).toHaveLength(2);

    const until = new Date(Date.now() + 60_000).toISOString();
    const history = await api(`/v2/monitors/${created.body.id}/history?startTime=${since}&endTime=${until}`);
    expect(history.status).toBe(200);
    expect(history.body.map((entry: { state: string }) => entry.state)).toEqual(['open', 'closed']);
    expect(history.body[0]).toMatchObject({ name: 'Errors', checkId: expect.stringMatching(/^chk_/) });
    expect(history.body[0].checkId).not.toBe(history.body[1].checkId);
    expect(Date.parse(history.body[0].timestamp)).toBeLessThan(Date.parse(history.body[1].timestamp));
  });
});
