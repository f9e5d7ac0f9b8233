// Match monitors: each matching event is notified once, as the query shaped it, even though
// consecutive windows overlap and the server restarts on the same data in between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Receiver, sleep, startReceiver } from '../helpers/receiver';
import { startTestServer, type TestServer } from '../helpers/server';
import { apiOf } from './harness';

const MINUTE_MS = 1000;
const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-match-'));
let server: TestServer | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () => startTestServer({ MONITOR_MINUTE_MS: String(MINUTE_MS) }, { dataDir });

describe('match monitor', () => {
  it('notifies each matching event once, across overlapping windows and a restart', { timeout: 90_000 }, async () => {
    receiver = await startReceiver();
    server = await start();
    let client = apiOf(server);
    await client.dataset('app-logs', { level: 'info', message: '', user: '' });
    const notifier = await client.notifier({ name: 'hook', properties: { webhook: { url: `${receiver.url}/match` } } });
    const monitor = await client.monitor({
      name: 'Errors',
      type: 'MatchEvent',
      aplQuery: "['app-logs'] | where level == 'error' | extend shout = toupper(message) | project message, shout, user",
      rangeMinutes: 5, // five times the interval: every event is seen by five runs
      notifierIds: [notifier.id],
    });
    await client.ingest('app-logs', [
      { level: 'error', message: 'disk full', user: 'ann' },
      { level: 'info', message: 'all good', user: 'bob' },
      { level: 'error', message: 'timeout', user: 'cid' },
    ]);
    const first = await receiver.waitFor(2);
    const events = first.map((request) => request.json.event.matchedEvent);
    expect(events).toEqual(
      expect.arrayContaining([
        { message: 'disk full', shout: 'DISK FULL', user: 'ann' },
        { message: 'timeout', shout: 'TIMEOUT', user: 'cid' },
      ]),
    );
    expect(first.every((request) => request.json.action === 'Open' && request.json.event.monitorID === monitor.id)).toBe(true);

    await sleep(2 * MINUTE_MS); // more runs over the same events
    await server.close();
    server = await start();
    client = apiOf(server);
    await sleep(3 * MINUTE_MS); // runs after the restart still see both events in their window
    expect(receiver.received).toHaveLength(2);

    await client.ingest('app-logs', [{ level: 'error', message: 'out of memory', user: 'dee' }]);
    const all = await receiver.waitFor(3);
    expect(all[2]!.json.event.matchedEvent).toEqual({ message: 'out of memory', shout: 'OUT OF MEMORY', user: 'dee' });
    await sleep(3 * MINUTE_MS);
    expect(receiver.received).toHaveLength(3);
    const history = await client.history(monitor.id);
    expect(history.map((entry) => entry.state)).toEqual(['open', 'open', 'open']);
  });
});
