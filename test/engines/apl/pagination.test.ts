// Both pagination mechanisms walk a 25,000-event dataset: nothing lost, nothing duplicated
// (after de-duplication for the timestamp walk), with many events sharing a timestamp so that
// page edges fall inside runs of equal times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import type { QueryResult } from '../../../src/apl';
import { addDataset, createTestDatabase, ON_CHDB, type TestDatabase, type TestEvent } from '../../helpers/apl/fixtures';

const COUNT = 25_000;
const PER_TIMESTAMP = 7;
const BASE = 1_714_435_200_000_000_000n; // 2024-04-30T00:00:00Z
/** A second and 123 ns between timestamps, so the walk must carry nanoseconds. */
const STEP = 1_000_000_123n;

let db: TestDatabase;
const events: { time: bigint; rowId: bigint }[] = [];

function rfc3339(nanos: bigint): string {
  const millis = nanos / 1_000_000n;
  const fraction = (nanos % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return new Date(Number(millis)).toISOString().replace(/\.\d{3}Z$/, fraction ? `.${fraction}Z` : 'Z');
}

beforeAll(async () => {
  db = await createTestDatabase('2024-05-02T00:00:00Z');
  const rows: TestEvent[] = [];
  for (let i = 0; i < COUNT; i++) {
    const time = BASE + BigInt(Math.floor(i / PER_TIMESTAMP)) * STEP;
    // Row ids are a permutation unrelated to time order.
    const rowId = BigInt(((i * 7919) % COUNT) + 1);
    events.push({ time, rowId });
    rows.push({ _time: rfc3339(time), _rowId: rowId, n: i });
  }
  // Inserted out of time order, as concurrent ingest would.
  rows.reverse();
  await addDataset(db, 'big', [{ name: 'n', type: 'integer' }], rows);
}, 60_000);

afterAll(() => db.close());

const rowIds = (result: QueryResult) => result.events!.rowId;
const newestFirst = () => [...events].sort((a, b) => (b.time > a.time ? 1 : b.time < a.time ? -1 : Number(b.rowId - a.rowId))).map((e) => e.rowId);
const oldestFirst = () => newestFirst().reverse();

async function cursorWalk(apl: string, pageSize: number, next: 'minCursor' | 'maxCursor', limit?: number, onPage?: (page: number) => Promise<void>) {
  const seen: bigint[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await db.query(apl, { ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) });
    seen.push(...rowIds(result));
    const returned = result.status[next];
    if (rowIds(result).length < pageSize || returned === cursor) return { seen, pages: page + 1, last: returned };
    cursor = returned;
    await onPage?.(page);
  }
  throw new Error('the walk did not end');
}

describe('cursor pagination', () => {
  it('walks all events newest first with minCursor and the request limit', async () => {
    const { seen, pages } = await cursorWalk("['big']", 1000, 'minCursor', 1000);
    expect(pages).toBe(26);
    expect(seen).toHaveLength(COUNT);
    expect(seen).toEqual(newestFirst());
  });

  it('walks all events newest first with an explicit sort and take', async () => {
    const { seen } = await cursorWalk("['big'] | sort by _time desc | take 1234", 1234, 'minCursor');
    expect(seen).toEqual(newestFirst());
  });

  it('walks all events oldest first with maxCursor', async () => {
    const { seen } = await cursorWalk("['big'] | sort by _time asc | take 999", 999, 'maxCursor');
    expect(seen).toHaveLength(COUNT);
    expect(new Set(seen).size).toBe(COUNT);
    expect(seen).toEqual(oldestFirst());
  });

  it('keeps filters and projections while paging', async () => {
    const { seen } = await cursorWalk("['big'] | where n % 3 == 0 | project n", 500, 'minCursor', 500);
    const indexOf = new Map(events.map((e, i) => [e.rowId, i]));
    const expected = newestFirst().filter((rowId) => indexOf.get(rowId)! % 3 === 0);
    expect(seen).toEqual(expected);
  });

  it('ends with the cursor it was sent once the events are exhausted', async () => {
    const first = await db.query("['big'] | sort by _time asc | take 10");
    const oldest = first.status.minCursor!;
    const before = await db.query("['big'] | sort by _time desc | take 10", { cursor: oldest });
    expect(before.table.columns[0]).toHaveLength(0);
    expect(before.status.minCursor).toBe(oldest);
  });

  it('includes the cursor row itself with includeCursor', async () => {
    const page = await db.query("['big'] | take 5 | sort by _time desc", {});
    const cursor = (await db.query("['big']", { limit: 5 })).status.minCursor!;
    const next = await db.query("['big']", { limit: 3, cursor, includeCursor: true });
    const newest = newestFirst();
    expect(rowIds(next)).toEqual(newest.slice(4, 7));
    expect(page.table.columns[0]).toHaveLength(5);
  });

  it('is not disturbed by events ingested during the walk', async () => {
    let inserted = false;
    const { seen } = await cursorWalk("['big']", 2000, 'minCursor', 2000, async (page) => {
      if (page !== 2 || inserted) return;
      inserted = true;
      const time = (nanos: bigint) => (ON_CHDB ? `fromUnixTimestamp64Nano(toInt64(${nanos}))` : `make_timestamp_ns(${nanos})`);
      const values = Array.from({ length: 50 }, (_, i) => `(${time(BASE + 10_000n * STEP + BigInt(i))}, ${time(BASE)}, ${100_000 + i}, ${-i})`);
      await db.execute(`INSERT INTO ${db.quote(db.datasets.get('big')!.table)} VALUES ${values.join(', ')}`);
    });
    expect(inserted).toBe(true);
    expect(seen).toEqual(newestFirst());
    await db.execute(`DELETE FROM ${db.quote(db.datasets.get('big')!.table)} WHERE ${db.quote('_rowId')} >= 100000`);
  });

  it('rejects forged and malformed cursors with a client error', async () => {
    const valid = (await db.query("['big']", { limit: 1 })).status.minCursor!;
    const [time, rowId, signature] = valid.split('-') as [string, string, string];
    const forged = `${time}-${(BigInt(parseInt(rowId, 36)) + 1n).toString(36)}-${signature}`;
    for (const cursor of [forged, `${valid.slice(0, -1)}${valid.endsWith('A') ? 'B' : 'A'}`, 'not-a-cursor', '0d8q6stroluyo-07c3957e7400015c-0000c875']) {
      const error = await db.query("['big']", { cursor }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, cursor).toBeInstanceOf(DomainError);
      expect((error as DomainError).kind).toBe('invalid_input');
    }
  });
});

describe('rows a take picks without an order', () => {
  it('come newest first, equal times by row id, and a smaller page keeps the newest of them', async () => {
    // Every event is picked (the take exceeds the dataset), so the expected order is fixed.
    const all = await db.query(`['big'] | take ${COUNT + 5}`, { limit: COUNT + 5 });
    expect(rowIds(all)).toEqual(newestFirst());
    expect(all.status.isPartial).toBe(false);
    const page = await db.query(`['big'] | take ${COUNT + 5}`, { limit: 10 });
    expect(rowIds(page)).toEqual(newestFirst().slice(0, 10));
    expect(page.status.isPartial).toBe(true);
  });

  it('are ordered newest first whichever rows a small take picks', async () => {
    const result = await db.query("['big'] | where n % 1000 == 0 | take 20");
    const times = result.events!.time;
    expect(times.length).toBe(20);
    for (let i = 1; i < times.length; i++) expect(times[i - 1]! >= times[i]!).toBe(true);
  });
});

describe('timestamp pagination', () => {
  async function timestampWalk(apl: string, pageSize: number, move: 'endTime' | 'startTime') {
    const seen = new Map<bigint, number>();
    let bound: string | undefined;
    for (let page = 0; page < 200; page++) {
      const result = await db.query(apl, bound ? { [move]: bound } : {});
      const ids = rowIds(result);
      for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
      if (ids.length < pageSize) return { seen, pages: page + 1 };
      const times = result.table.columns[result.table.fields.findIndex((f) => f.name === '_time')]!;
      bound = String(times[times.length - 1]);
    }
    throw new Error('the walk did not end');
  }

  it('walks all events newest first by moving endTime to the last time seen', async () => {
    const { seen } = await timestampWalk("['big'] | sort by _time desc | take 997", 997, 'endTime');
    expect(seen.size).toBe(COUNT);
    for (const e of events) expect(seen.has(e.rowId)).toBe(true);
  });

  it('walks all events oldest first by moving startTime to the last time seen', async () => {
    const { seen } = await timestampWalk("['big'] | sort by _time asc | take 997", 997, 'startTime');
    expect(seen.size).toBe(COUNT);
    // Only events sharing the boundary timestamp come twice.
    const repeats = [...seen.values()].filter((n) => n > 1).length;
    expect(repeats).toBeLessThanOrEqual(Math.ceil(COUNT / 997) * PER_TIMESTAMP);
  });
});
