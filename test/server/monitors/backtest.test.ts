// Trying alerting out before relying on it, over HTTP: a monitor definition replayed over a past
// period (REST and GraphQL) fires exactly where its runs' windows cross the threshold, as the test
// counts from the events it posted; bad definitions and periods are refused with the field named;
// and a notifier's test notification goes through the delivery worker to a real receiver, marked
// as a test in its payload and in the delivery log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf } from '../../helpers/monitors/harness';

const MINUTE = 60_000;
const DATASET = 'backtest-logs';
let server: TestServer;
let client: ReturnType<typeof apiOf>;
let receiver: Receiver;

/** A whole minute well in the past: the events sit in the minutes before it. */
const base = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
/** Events per minute, by minutes before `base` (a minute absent has none). */
const PER_MINUTE: Record<number, number> = { 30: 1, 25: 4, 24: 2, 20: 5, 19: 6, 18: 1, 12: 3 };
const THRESHOLD = 3;
const PERIOD = { startTime: new Date(base - 35 * MINUTE).toISOString(), endTime: new Date(base).toISOString() };

const definition = {
  name: 'Busy minute',
  type: 'Threshold',
  aplQuery: `['${DATASET}'] | summarize hits = count() by bin(_time, 1m)`,
  operator: 'AboveOrEqual',
  threshold: THRESHOLD,
  intervalMinutes: 1,
  rangeMinutes: 1,
};

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer();
  client = apiOf(server);
  await client.dataset(DATASET);
  const events = Object.entries(PER_MINUTE).flatMap(([minutesBefore, count]) =>
    Array.from({ length: count }, (_, i) => ({ _time: new Date(base - Number(minutesBefore) * MINUTE + 20_000 + i * 1000).toISOString(), status: 500 })),
  );
  await client.ok(`/v1/datasets/${DATASET}/ingest`, 'POST', events);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/**
 * What the runs should find: a run at minute end E reads [E - 1m, E], so it sees the events of the
 * minute before it; it is positive when they reach the threshold, and opens the alert when the
 * run before it was not positive (1 of 1 runs) and closes it when the one before was.
 */
function expectedRuns() {
  const runs: { endTime: string; positive: boolean; opened: boolean; closed: boolean }[] = [];
  let previous = false;
  for (let end = base - 35 * MINUTE; end <= base; end += MINUTE) {
    const minutesBefore = (base - (end - MINUTE)) / MINUTE;
    const positive = (PER_MINUTE[minutesBefore] ?? 0) >= THRESHOLD;
    runs.push({ endTime: new Date(end).toISOString(), positive, opened: positive && !previous, closed: !positive && previous });
    previous = positive;
  }
  return runs;
}

describe('monitor backtest', () => {
  it('replays the runs of a threshold monitor over a past period', async () => {
    const answer = await client.ok('/v2/monitors/backtest', 'POST', { ...definition, ...PERIOD });
    const expected = expectedRuns();
    expect(answer.runs.map((run: any) => ({ endTime: run.endTime, positive: run.positive, opened: run.opened.length > 0, closed: run.closed.length > 0 }))).toEqual(expected);
    const firstOpen = answer.runs.find((run: any) => run.opened.length > 0);
    expect(firstOpen.opened).toEqual(['Busy minute']);
    expect(firstOpen.value).toBe(4);
    expect(firstOpen.notifications).toBe(1);
    expect(new Date(firstOpen.startTime).getTime()).toBe(new Date(firstOpen.endTime).getTime() - MINUTE);

    const graphql = await server.graphql(
      `query ($input: MonitorInput!, $start: DateTime!, $end: DateTime!) { monitorBacktest(input: $input, startTime: $start, endTime: $end) { runs { endTime positive opened closed } } }`,
      { input: definition, start: PERIOD.startTime, end: PERIOD.endTime },
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.monitorBacktest.runs.filter((run: any) => run.opened.length > 0).map((run: any) => run.endTime)).toEqual(
      expected.filter((run) => run.opened).map((run) => run.endTime),
    );
  });

  it('notifies each alert once per transition over 2 of 3 runs', async () => {
    const answer = await client.ok('/v2/monitors/backtest', 'POST', { ...definition, triggerFromNRuns: 3, triggerAfterNPositiveResults: 2, ...PERIOD });
    // Counted from the expected positive runs: open while 2 of the last 3 were positive.
    const runs = expectedRuns();
    const expectedOpened: string[] = [];
    let open = false;
    runs.forEach((run, index) => {
      const positives = runs.slice(Math.max(0, index - 2), index + 1).filter((recent) => recent.positive).length;
      if (positives >= 2 && !open) expectedOpened.push(run.endTime);
      open = positives >= 2;
    });
    expect(expectedOpened.length).toBeGreaterThan(0);
    const opened = answer.runs.filter((run: any) => run.opened.length > 0).map((run: any) => run.endTime);
    expect(opened).toEqual(expectedOpened);
  });

  it('replays a match monitor, each event notified once across overlapping windows', async () => {
    const answer = await client.ok('/v2/monitors/backtest', 'POST', {
      name: 'Every failure',
      type: 'MatchEvent',
      aplQuery: `['${DATASET}'] | where status >= 500 | project status`,
      intervalMinutes: 1,
      rangeMinutes: 3,
      ...PERIOD,
    });
    const total = Object.values(PER_MINUTE).reduce((sum, count) => sum + count, 0);
    expect(answer.runs.reduce((sum: number, run: any) => sum + run.notifications, 0)).toBe(total);
    // A run notifies the events of the minute before it (the earlier ones it saw already).
    for (const run of answer.runs) {
      const minutesBefore = (base - (new Date(run.endTime).getTime() - MINUTE)) / MINUTE;
      expect(run.value, run.endTime).toBe(PER_MINUTE[minutesBefore] ?? 0);
    }
  });

  it('refuses what a monitor would refuse, naming the field', async () => {
    const badQuery = await client.api('/v2/monitors/backtest', 'POST', { ...definition, aplQuery: `['${DATASET}'] | where status >= 500`, ...PERIOD });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.message ?? badQuery.body.error).toContain('aplQuery');
    const noOperator = await client.api('/v2/monitors/backtest', 'POST', { ...definition, operator: undefined, ...PERIOD });
    expect(noOperator.status).toBe(400);
    expect(noOperator.body.message ?? noOperator.body.error).toContain('operator');
    const noStart = await client.api('/v2/monitors/backtest', 'POST', { ...definition, endTime: PERIOD.endTime });
    expect(noStart.status).toBe(400);
    expect(noStart.body.message ?? noStart.body.error).toContain('startTime');
    const tooLong = await client.api('/v2/monitors/backtest', 'POST', { ...definition, startTime: new Date(base - 2 * 86_400_000).toISOString(), endTime: PERIOD.endTime });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message ?? tooLong.body.error).toContain('intervalMinutes');
  });
});

describe('test notifications', () => {
  it('travel the delivery path to the receiver, marked as tests', async () => {
    const notifier = await client.notifier({ name: 'Test hook', properties: { webhook: { url: `${receiver.url}/hook` } } });
    const queued = await client.api(`/v2/notifiers/${notifier.id}/test`, 'POST');
    expect(queued.status).toBe(202);
    expect(queued.body.notificationId).toMatch(/^ntf_test_/);
    const [request] = await receiver.waitFor(1);
    expect(request!.path).toBe('/hook');
    expect(request!.headers['idempotency-key']).toBe(queued.body.notificationId);
    expect(request!.json.action).toBe('Open');
    expect(request!.json.event.monitorID).toBe('test');
    expect(request!.json.event.title).toBe('Test notification for Test hook');
    expect(request!.json.event.body).toContain('test notification');

    const log = await eventually(async () => {
      const deliveries = await client.deliveries(notifier.id);
      return deliveries.length > 0 ? deliveries : undefined;
    });
    expect(log[0]).toMatchObject({ notificationId: queued.body.notificationId, outcome: 'delivered', statusCode: 200, test: true, monitorId: 'test' });

    const mutation = await server.graphql(`mutation ($id: String!) { sendTestNotification(id: $id) }`, { id: notifier.id });
    expect(mutation.errors).toBeUndefined();
    await receiver.waitFor(2);
    const viaGraphql = await server.graphql(`query ($id: String!) { notifier(id: $id) { deliveries(first: 5) { edges { node { notificationId test outcome } } } } }`, { id: notifier.id });
    const nodes = viaGraphql.data.notifier.deliveries.edges.map((edge: any) => edge.node);
    await eventually(async () => {
      const deliveries = await client.deliveries(notifier.id);
      return deliveries.some((delivery: any) => delivery.notificationId === mutation.data.sendTestNotification) ? true : undefined;
    });
    expect(nodes.every((node: any) => node.test)).toBe(true);

    const missing = await client.api('/v2/notifiers/notify_nothing/test', 'POST');
    expect(missing.status).toBe(404);
  });
});
