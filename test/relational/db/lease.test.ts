// Leases on whichever provider the test project selects: two `Leases` with their own instance
// ids over one database behave as two server instances would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Leases } from '../../../src/db/lease';
import type { LeaseRows } from '../../../src/db/repository/leases';
import type { RelationalStore } from '../../../src/db/store';
import { openTestStore, type TestStore } from '../../helpers/store';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 10 ms for up to `ms`; true as soon as it holds. */
async function eventually(condition: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await sleep(10);
  }
  return condition();
}

describe('leases', () => {
  let test: TestStore;
  let one: Leases;
  let two: Leases;
  let otherStore: RelationalStore;

  beforeAll(async () => {
    test = await openTestStore();
    otherStore = await test.another();
    one = new Leases(test.store.repository.leases, 'instance-one');
    two = new Leases(otherStore.repository.leases, 'instance-two');
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await test?.destroy();
  });

  it('is held by one instance at a time, renewed by its holder, free again once released', async () => {
    expect(await one.acquire('a', 10_000)).toBe(true);
    expect(await two.acquire('a', 10_000)).toBe(false);
    expect(await one.acquire('a', 10_000)).toBe(true);
    expect(await one.state('a')).toMatchObject({ holder: 'instance-one', live: true });
    await two.release('a'); // not its lease: nothing happens
    expect(await two.acquire('a', 10_000)).toBe(false);
    await one.release('a');
    expect(await one.state('a')).toBeUndefined();
    expect(await two.acquire('a', 10_000)).toBe(true);
  });

  it('passes to another instance once expired, and the old holder cannot renew it', async () => {
    expect(await one.acquire('b', 150)).toBe(true);
    expect(await two.acquire('b', 150)).toBe(false);
    await sleep(300);
    expect((await one.state('b'))!.live).toBe(false);
    expect(await two.acquire('b', 10_000)).toBe(true);
    expect(await one.acquire('b', 10_000)).toBe(false);
    expect(await two.state('b')).toMatchObject({ holder: 'instance-two', live: true });
  });

  it('runs periodic work on one instance only', async () => {
    let runsOne = 0;
    let runsTwo = 0;
    const jobOne = one.every('periodic', 40, async () => void runsOne++, { ttlMs: 3_000 });
    const jobTwo = two.every('periodic', 40, async () => void runsTwo++, { ttlMs: 3_000 });
    expect(await eventually(() => runsOne + runsTwo >= 5)).toBe(true);
    expect(Math.min(runsOne, runsTwo)).toBe(0);
    expect([jobOne.leading, jobTwo.leading].sort()).toEqual([false, true]);
    await jobOne.stop();
    await jobTwo.stop();
  });

  it('hands leadership over when the leader stops, aborting the old leader\'s work first', async () => {
    const events: string[] = [];
    const lead = (who: string) => (signal: AbortSignal) => {
      events.push(`${who} leads`);
      signal.addEventListener('abort', () => events.push(`${who} stops`));
    };
    const first = one.whileLeading('handover', lead('one'), { ttlMs: 600 });
    expect(await eventually(() => first.leading)).toBe(true);
    const second = two.whileLeading('handover', lead('two'), { ttlMs: 600 });
    await sleep(400); // several renewal rounds: the second must stay a standby
    expect(second.leading).toBe(false);
    await first.stop(); // releases the lease, so the standby need not wait for it to expire
    expect(await eventually(() => second.leading)).toBe(true);
    expect(events).toEqual(['one leads', 'one stops', 'two leads']);
    expect((await two.state('handover'))!.holder).toBe('instance-two');
    await second.stop();
    expect(events.at(-1)).toBe('two stops');
    expect(await one.state('handover')).toBeUndefined();
  });

  it('steps down when it cannot renew, before another instance can take over', async () => {
    // The first instance's store becomes unreachable: its renewals fail from then on.
    let reachable = true;
    const rows = test.store.repository.leases;
    const flaky = {
      acquire: (name: string, holder: string, ttl: number) => (reachable ? rows.acquire(name, holder, ttl) : Promise.reject(new Error('connection refused'))),
      release: (name: string, holder: string) => rows.release(name, holder),
      state: (name: string) => rows.state(name),
    } as unknown as LeaseRows;
    const cut = new Leases(flaky, 'instance-cut');
    const timeline: { what: string; at: number }[] = [];
    const first = cut.whileLeading('failover', (signal) => {
      signal.addEventListener('abort', () => timeline.push({ what: 'cut stops', at: Date.now() }));
    }, { ttlMs: 600 });
    expect(await eventually(() => first.leading)).toBe(true);
    const second = two.whileLeading('failover', () => void timeline.push({ what: 'two leads', at: Date.now() }), { ttlMs: 600 });
    reachable = false;
    expect(await eventually(() => second.leading)).toBe(true);
    expect(timeline.map((entry) => entry.what)).toEqual(['cut stops', 'two leads']);
    await first.stop();
    await second.stop();
  });

  it('runs one-off work only when no other instance holds the lease', async () => {
    expect(await two.acquire('once', 10_000)).toBe(true);
    expect(await one.runOnce('once', async () => 'done')).toEqual({ ran: false });
    await two.release('once');
    const outcome = await one.runOnce('once', async (signal) => {
      expect(await two.acquire('once', 10_000)).toBe(false); // held while the work runs
      return signal.aborted ? 'aborted' : 'done';
    });
    expect(outcome).toEqual({ ran: true, value: 'done' });
    expect(await two.acquire('once', 10_000)).toBe(true); // released afterwards
  });
});
