// The schedule, on a clock the test moves: runs sit on a fixed grid (their windows end a whole number of
// intervals apart, however long runs take), notifyEveryRun notifies on every positive run, and
// after the server was down for several intervals the missed runs collapse into one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { MINUTE, VirtualClock } from '../../helpers/monitors/virtual-clock';

const INTERVAL_MS = 2 * MINUTE;
const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-schedule-'));
const clock = new VirtualClock();
let server: TestServer | undefined;
let receiver: Receiver | undefined;
const time = monitorTime(clock, () => (server ? [server] : []));

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `2024-06-28 14:55:57.631 +0000 UTC` (Go's time format) as epoch milliseconds. */
const goTimeMs = (text: string) => Date.parse(text.replace(' +0000 UTC', 'Z').replace(' ', 'T'));

describe('the schedule', () => {
  it('keeps runs on the grid and runs a missed run once after downtime', { timeout: 90_000 }, async () => {
    receiver = await startReceiver();
    const start = () => startTestServer({}, { dataDir, monitorClock: clock });
    server = await start();
    let client = apiOf(server, clock);
    await client.dataset('grid-logs');
    const notifier = await client.notifier({ name: 'hook', properties: { webhook: { url: `${receiver.url}/grid` } } });
    await client.monitor({
      name: 'Every run',
      type: 'Threshold',
      aplQuery: "['grid-logs'] | summarize count()",
      operator: 'Above',
      threshold: -1, // always positive
      notifyEveryRun: true,
      intervalMinutes: 2,
      rangeMinutes: 2,
      notifierIds: [notifier.id],
    });
    await time.received(receiver, 3);
    await server.close();
    server = undefined;
    const stoppedAt = clock.now();
    await time.advance(3.5 * INTERVAL_MS); // at least three grid points pass while the server is down
    const before = receiver.received.length;
    const restartedAt = clock.now();
    server = await start();
    client = apiOf(server, clock);
    await time.advance(2.5 * INTERVAL_MS);
    const ends = receiver.received.map((request) => goTimeMs(request.json.event.queryEndTime));
    // Every window ends on the grid: a whole number of intervals after the first.
    for (const end of ends) expect((end - ends[0]!) % INTERVAL_MS).toBe(0);
    expect(new Set(ends).size).toBe(ends.length);
    // Grid points passed while the server was down; without collapsing, each would get its run.
    const afterRestart = ends.slice(before);
    const latestMissed = ends[0]! + Math.floor((restartedAt - ends[0]!) / INTERVAL_MS) * INTERVAL_MS;
    let missedPoints = 0;
    for (let point = latestMissed; point > stoppedAt; point -= INTERVAL_MS) missedPoints++;
    expect(missedPoints).toBeGreaterThanOrEqual(3);
    // Only the latest of them (or, on a slow start, the next one) ran: none of the older ones.
    expect(afterRestart.filter((end) => end > stoppedAt && end < latestMissed)).toEqual([]);
    expect(afterRestart.filter((end) => end <= latestMissed).length).toBeLessThanOrEqual(1);
    expect(afterRestart.length).toBeGreaterThanOrEqual(2); // and the grid goes on
  });
});
