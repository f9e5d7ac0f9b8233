// A tail over an in-memory dataset, in both ways it learns what is new: told every write's ids
// by ingest (an embedded store), or asking the store (a shared ClickHouse). Either way each
// subscriber gets the newest events it may hold and is told how many others it was due, and a
// tail that is told every write reads an unfiltered dataset without counting first.
import { afterEach, describe, expect, it } from 'vitest';
import { Subscriber, type LiveEvent, type LiveItem, type TailBatch } from '../../../src/live-tail/subscriber';
import { Tail, type TailDataset, type TailSource, type TailSurvey } from '../../../src/live-tail/tail';
import type { WrittenRows } from '../../../src/ingest/dataset-events';

const DATASET: TailDataset = { id: 'd1', name: 'web', orgId: 'o1' };

interface Stored {
  id: bigint;
  status: number;
}

/** The filter language of this store: `status>=N` or nothing. */
const matches = (filter: string | undefined, event: Stored) => filter === undefined || event.status >= Number(filter.split('>=')[1]);

class MemorySource implements TailSource {
  readonly events: Stored[] = [];
  readonly calls: string[] = [];
  private nextId = 1n;

  /** Stores `statuses` as one write, its ids rising by `step` (ClickHouse's ids have gaps). */
  write(statuses: number[], step = 1n): WrittenRows {
    const firstRowId = this.nextId;
    for (const status of statuses) {
      this.events.push({ id: this.nextId, status });
      this.nextId += step;
    }
    return { firstRowId, lastRowId: this.nextId - step, count: statuses.length };
  }

  async latestRowId(): Promise<bigint> {
    return this.events.at(-1)?.id ?? 0n;
  }

  async survey(_dataset: TailDataset, filter: string | undefined, after: bigint, from: readonly bigint[], upTo?: bigint): Promise<TailSurvey> {
    this.calls.push('survey');
    const latest = upTo ?? this.events.at(-1)?.id ?? after;
    const inRange = this.events.filter((event) => event.id > after && event.id <= latest && matches(filter, event));
    return { latest, counts: [inRange.length, ...from.map((point) => inRange.filter((event) => event.id > point).length)] };
  }

  async read(_dataset: TailDataset, filter: string | undefined, after: bigint, upTo: bigint, limit: number): Promise<TailBatch> {
    this.calls.push('read');
    const found = this.events.filter((event) => event.id > after && event.id <= upTo && matches(filter, event)).slice(-limit);
    const events: LiveEvent[] = found.map((event) => ({ time: '', sysTime: '', rowId: event.id.toString(), data: { status: event.status } }));
    return { events, ids: found.map((event) => event.id) };
  }
}

const OPTIONS = { queueLimit: 50, messageLimit: 1000, maxEventsPerSecond: 1_000_000, messageIntervalMs: 1 };
const timing = (hearsEveryWrite: boolean) => ({ coalesceMs: 1, readIntervalMs: 1, readLimit: 50, retryMs: 1, hearsEveryWrite });

/** Everything a subscriber was sent, until it has accounted for `due` events (received + skipped). */
async function collect(subscriber: Subscriber, due: number): Promise<{ statuses: number[]; skipped: number }> {
  const statuses: number[] = [];
  let skipped = 0;
  while (statuses.length + skipped < due) {
    const next = await Promise.race([subscriber.next(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${statuses.length} + ${skipped} of ${due}`)), 2000))]);
    const item = next.value as LiveItem;
    if ('failure' in item) throw item.failure;
    statuses.push(...item.events.map((event) => event.data.status as number));
    skipped += item.skipped;
  }
  return { statuses, skipped };
}

let tails: Tail[] = [];
afterEach(() => {
  for (const tail of tails) tail.stop();
  tails = [];
});

async function subscribe(tail: Tail, source: MemorySource): Promise<Subscriber> {
  const subscriber = new Subscriber('token', OPTIONS, () => undefined);
  tail.subscribers.add(subscriber);
  const now = await source.latestRowId();
  subscriber.begin(now);
  tail.startAt(now);
  return subscriber;
}

describe.each([
  { mode: 'told every write', hears: true, step: 1n },
  { mode: 'told every write, ids with gaps', hears: true, step: 1024n },
  { mode: 'asking the store', hears: false, step: 1n },
])('a live tail $mode', ({ hears, step }) => {
  const start = (filter: string | undefined) => {
    const source = new MemorySource();
    source.write([200, 500, 200], step);
    const tail = new Tail(DATASET, filter, source, timing(hears));
    tails.push(tail);
    return { source, tail };
  };

  it('delivers every event written after subscribing when they fit, and nothing before', async () => {
    const { source, tail } = start(undefined);
    const subscriber = await subscribe(tail, source);
    const writes = [[201, 202], [203], [204, 205, 206]];
    for (const statuses of writes) tail.signal(source.write(statuses, step));
    const got = await collect(subscriber, 6);
    expect(got).toEqual({ statuses: [201, 202, 203, 204, 205, 206], skipped: 0 });
    if (hears) expect(source.calls.every((call) => call === 'read')).toBe(true);
  });

  it('past what a subscriber holds, sends the newest and counts the rest as skipped', async () => {
    const { source, tail } = start(undefined);
    const subscriber = await subscribe(tail, source);
    const statuses = Array.from({ length: 130 }, (_, i) => 1000 + i);
    // Written as 13 writes of 10 before the tail reads (it waits for the coalescing delay).
    for (let i = 0; i < 130; i += 10) tail.signal(source.write(statuses.slice(i, i + 10), step));
    const got = await collect(subscriber, 130);
    expect(got.statuses).toEqual(statuses.slice(-50));
    expect(got.skipped).toBe(80);
    if (hears) expect(source.calls).toEqual(['read']);
  });

  it('filters, counting first only when more was written than one read brings', async () => {
    const { source, tail } = start('status>=500');
    const subscriber = await subscribe(tail, source);
    // 3 of every 4 events match: 90 of 120.
    const statuses = Array.from({ length: 120 }, (_, i) => (i % 4 === 0 ? 200 : 500 + i));
    for (let i = 0; i < 120; i += 20) tail.signal(source.write(statuses.slice(i, i + 20), step));
    const matching = statuses.filter((status) => status >= 500);
    const got = await collect(subscriber, matching.length);
    expect(got.statuses).toEqual(matching.slice(-50));
    expect(got.skipped).toBe(matching.length - 50);
    // Fewer events written than one read brings: one read, no count.
    source.calls.length = 0;
    tail.signal(source.write([200, 503, 200, 504], step));
    expect(await collect(subscriber, 2)).toEqual({ statuses: [503, 504], skipped: 0 });
    if (hears) expect(source.calls).toEqual(['read']);
  });

  it('tells a subscriber that joined later only of the events after its start', async () => {
    const { source, tail } = start(undefined);
    const early = await subscribe(tail, source);
    tail.signal(source.write(Array.from({ length: 40 }, (_, i) => 300 + i), step));
    const late = await subscribe(tail, source);
    tail.signal(source.write(Array.from({ length: 60 }, (_, i) => 400 + i), step));
    const forLate = await collect(late, 60);
    expect(forLate.statuses.length + forLate.skipped).toBe(60);
    expect(forLate.statuses.every((status) => status >= 400)).toBe(true);
    const forEarly = await collect(early, 100);
    expect(forEarly.statuses.at(-1)).toBe(459);
  });
});
