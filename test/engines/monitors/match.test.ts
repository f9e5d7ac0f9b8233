// Match monitors: each matching event is notified once, as the query shaped it, even though
// consecutive windows overlap and the server restarts on the same data in between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { VirtualClock } from '../../helpers/monitors/virtual-clock';

const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-match-'));
const clock = new VirtualClock();
let server: TestServer | undefined;
let receiver: Receiver | undefined;
const time = monitorTime(clock, () => (server ? [server] : []));

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () => startTestServer({}, { dataDir, monitorClock: clock });

describe('match monitor', () => {
  it('notifies each matching event once, across overlapping windows and a restart', { timeout: 90_000 }, async () => {
    receiver = await startReceiver();
    server = await start();
    let client = apiOf(server, clock);
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
    const first = await time.received(receiver, 2);
    const events = first.map((request) => request.json.event.matchedEvent);
    expect(events).toEqual(
      expect.arrayContaining([
        { message: 'disk full', shout: 'DISK FULL', user: 'ann' },
        { message: 'timeout', shout: 'TIMEOUT', user: 'cid' },
      ]),
    );
    expect(first.every((request) => request.json.action === 'Open' && request.json.event.monitorID === monitor.id)).toBe(true);

    await time.minutes(2); // more runs over the same events
    await server.close();
    server = await start();
    client = apiOf(server, clock);
    await time.minutes(3); // runs after the restart still see both events in their window
    expect(receiver.received).toHaveLength(2);

    await client.ingest('app-logs', [{ level: 'error', message: 'out of memory', user: 'dee' }]);
    const all = await time.received(receiver, 3);
    expect(all[2]!.json.event.matchedEvent).toEqual({ message: 'out of memory', shout: 'OUT OF MEMORY', user: 'dee' });
    await time.minutes(3);
    expect(receiver.received).toHaveLength(3);
    const history = await client.history(monitor.id);
    expect(history.map((entry) => entry.state)).toEqual(['open', 'open', 'open']);
  });
});
