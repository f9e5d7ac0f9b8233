// Batches that wait for their dataset while another write runs are written together in one
// transaction, and each request is answered as if it had been written alone: its own count, its
// own failures (numbered in its own request), ids that are its own, types widened across them.
import { afterEach, describe, expect, it } from 'vitest';
import { type EventsHarness, openEventsHarness } from '../../helpers/events/harness';

/** Turns enough for a request being written and two waiting (INGEST_CONCURRENCY 4). */
const TURNS = 4;

const harnesses: EventsHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.destroy();
});

const ndjson = (events: object[]) => ({ body: Buffer.from(events.map((event) => JSON.stringify(event)).join('\n')), contentType: 'application/x-ndjson' });

/** Counts the store's appends; the first one waits until `release` is called. */
function holdFirstAppend(h: EventsHarness) {
  const append = h.store.append.bind(h.store);
  let calls = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let firstStarted!: () => void;
  const started = new Promise<void>((resolve) => (firstStarted = resolve));
  h.store.append = async (batch) => {
    calls++;
    if (calls === 1) {
      firstStarted();
      await released;
    }
    return append(batch);
  };
  return { started, release, calls: () => calls };
}

describe('writes of one dataset that wait together', () => {
  it('are committed in one transaction and answered one by one', async () => {
    const h = await openEventsHarness({ maxFields: 4, ingestConcurrency: TURNS });
    harnesses.push(h);
    const dataset = await h.createDataset('grouped');
    const held = holdFirstAppend(h);

    const first = h.ingest.ingest(dataset, ndjson([{ k: 1, tag: 'first' }]));
    await held.started;
    // While the first is being written: a request whose second event brings three new fields
    // (past the limit of four with k, tag and x), and one that sends x as text.
    const second = h.ingest.ingest(dataset, ndjson([{ k: 2, x: 1, tag: 'second' }, { y: 1, z: 2, w: 3 }]));
    const third = h.ingest.ingest(dataset, ndjson([{ k: 3, x: 'three', tag: 'third' }]));
    // Both are prepared and waiting before the first write goes on.
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.release();
    const [a, b, c] = await Promise.all([first, second, third]);

    expect(held.calls()).toBe(2);
    expect([a.ingested, a.failed]).toEqual([1, 0]);
    expect([b.ingested, b.failed]).toEqual([1, 1]);
    expect(b.failures.map((failure) => [failure.index, failure.error])).toEqual([[1, `adding fields "y", "z", "w" would pass the dataset's limit of 4 fields`]]);
    expect([c.ingested, c.failed]).toEqual([1, 0]);

    const rows = await h.rows(`SELECT "_rowId" AS id, tag, CAST(x AS VARCHAR) AS x FROM ${dataset.tableName} ORDER BY "_rowId"`);
    expect(rows.map((row) => row.tag)).toEqual(['first', 'second', 'third']);
    // Ids rise without gaps and belong to one row each.
    expect(new Set(rows.map((row) => row.id)).size).toBe(3);
    expect(rows.map((row) => Number(row.id) - Number(rows[0]!.id))).toEqual([0, 1, 2]);
    // x holds an integer and a string: the column took the mixed type, each value its own.
    expect(rows.map((row) => row.x)).toEqual([null, '1', '"three"']);
  });

  it('writes each batch alone when the shared write fails, so one cannot fail the other', async () => {
    const h = await openEventsHarness({ ingestConcurrency: TURNS });
    harnesses.push(h);
    const dataset = await h.createDataset('isolated');
    const held = holdFirstAppend(h);
    const append = h.store.append;
    const first = h.ingest.ingest(dataset, ndjson([{ n: 0 }]));
    await held.started;
    const second = h.ingest.ingest(dataset, ndjson([{ n: 1 }]));
    const third = h.ingest.ingest(dataset, ndjson([{ n: 2 }, { n: 3 }]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The shared write (two batches, three rows) fails once; alone, each goes through.
    let failedOnce = false;
    h.store.append = async (batch) => {
      if (!failedOnce && batch.rowCount === 3) {
        failedOnce = true;
        throw new Error('the disk said no');
      }
      return append(batch);
    };
    held.release();
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(failedOnce).toBe(true);
    expect([a.ingested, b.ingested, c.ingested]).toEqual([1, 1, 2]);
    expect(await h.rows(`SELECT n FROM ${dataset.tableName} ORDER BY n`)).toEqual([{ n: 0n }, { n: 1n }, { n: 2n }, { n: 3n }]);
  });
});
