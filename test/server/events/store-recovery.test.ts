// The event store after DuckDB invalidates its database (here through DuckDB's own switch that
// aborts a checkpoint as a failing disk or memory would): health turns unhealthy, the store
// reopens the file by itself, requests that arrive meanwhile wait and then succeed, and every
// acknowledged event is still there. Also: a dataset at the field limit keeps taking events
// across checkpoints (the checkpoint threshold lowered so that a few batches pass it). The
// metrics store recovers the same way, and the health check names the store that is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDBEventStore } from '../../../src/events/store/event-store';
import type { DuckDBMetricsStore } from '../../../src/metrics/store/metrics-store';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function count(dataset: string): Promise<number> {
  const response = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: `['${dataset}'] | count` }));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { tables: { columns: number[][] }[] };
  return body.tables[0]!.columns[0]![0]!;
}

type Lend = (work: (connection: DuckDBConnection) => Promise<void>) => Promise<void>;

/**
 * Invalidates a database from a borrowed connection (a checkpoint aborted by DuckDB's own
 * switch) and keeps the connection until `release` is called: the store cannot close the old
 * database before every connection is back, which leaves time to look at it while it recovers.
 */
async function invalidate(lend: Lend): Promise<{ release: () => void; borrower: Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let invalidated!: () => void;
  const isInvalidated = new Promise<void>((resolve) => (invalidated = resolve));
  const borrower = lend(async (connection) => {
    await connection.run(`SET debug_checkpoint_abort = 'before_header'`);
    await connection.run('CHECKPOINT').then(
      () => {
        throw new Error('the checkpoint was expected to fail');
      },
      (error: Error) => expect(error.message).toMatch(/FATAL/),
    );
    invalidated();
    await held;
  });
  await isInvalidated;
  return { release, borrower };
}

/** Polls the health check until it answers other than 200, and returns that answer. */
async function firstUnhealthy(): Promise<Response> {
  let answer = await server.request('/healthz');
  while (answer.status === 200) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await server.request('/healthz');
  }
  return answer;
}

describe('an invalidated event store', () => {
  it('reports unhealthy, reopens itself and keeps every acknowledged event', async () => {
    expect((await server.request('/v2/datasets', json({ name: 'survivor' }))).status).toBe(200);
    for (let batch = 0; batch < 3; batch++) {
      const events = Array.from({ length: 50 }, (_, i) => ({ batch, i, label: `event ${batch}-${i}` }));
      const response = await server.request('/v1/datasets/survivor/ingest', json(events));
      expect(response.status).toBe(200);
      expect(((await response.json()) as { ingested: number }).ingested).toBe(50);
    }
    expect((await server.request('/healthz')).status).toBe(200);

    // Recovery is the embedded DuckDB store's own.
    const store = server.app.services.eventStore as DuckDBEventStore;
    const { release, borrower } = await invalidate((work) => store.useConnection(work));

    try {
      // Health checks find the invalidated database (checking it at most once a second) and
      // start the recovery; until it is done they answer 503 with the reason.
      const unhealthy = await firstUnhealthy();
      expect(unhealthy.status).toBe(503);
      expect(await unhealthy.json()).toMatchObject({ status: 'recovering', reason: expect.stringMatching(/invalidated|FATAL/) });
    } finally {
      setTimeout(release, 100);
    }

    // An ingest arriving now waits for the reopened store instead of failing.
    const waiting = server.request('/v1/datasets/survivor/ingest', json([{ batch: 3, i: 0, label: 'after' }]));
    await borrower;
    const late = await waiting;
    expect(late.status).toBe(200);
    expect(((await late.json()) as { ingested: number }).ingested).toBe(1);

    expect((await server.request('/healthz')).status).toBe(200);
    expect(await count('survivor')).toBe(151);
    // Dataset management works again too.
    expect((await server.request('/v2/datasets', json({ name: 'after-recovery' }))).status).toBe(200);
  });
});

describe('an invalidated metrics store', () => {
  it('turns the health check unhealthy, naming the metrics store, until it has reopened itself', async () => {
    const metrics = server.app.services.metrics.store as DuckDBMetricsStore;
    // Tables of a dataset, so the checkpoint has something to write.
    await metrics.createDataset('recovering_metrics');
    const { release, borrower } = await invalidate((work) => metrics['database'].useWriter(work));
    try {
      const unhealthy = await firstUnhealthy();
      expect(unhealthy.status).toBe(503);
      expect(await unhealthy.json()).toMatchObject({ status: 'recovering', store: 'metrics', reason: expect.stringMatching(/invalidated|FATAL/) });
    } finally {
      setTimeout(release, 100);
    }
    await borrower.catch(() => undefined);
    let healthy = await server.request('/healthz');
    for (let tries = 0; healthy.status !== 200 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      healthy = await server.request('/healthz');
    }
    expect(healthy.status).toBe(200);
    expect(metrics.hasDataset('recovering_metrics')).toBe(true);
  });
});

describe('a dataset at the field limit', () => {
  it('takes batches of 1,000-field events across checkpoints', async () => {
    expect((await server.request('/v2/datasets', json({ name: 'wide' }))).status).toBe(200);
    const fields = 1000;
    const event = (row: number) => Object.fromEntries(Array.from({ length: fields }, (_, f) => [`f${f}`, f % 3 === 0 ? `v${row}-${f}` : row * f + 0.5]));
    // DuckDB checkpoints once its write-ahead log passes a threshold (16 MB by default, some 20
    // of these batches of about 0.85 MB each): lowered to 2 MB, the third batch passes it and
    // the two after it go into the checkpointed database, before the explicit checkpoint below.
    const store = server.app.services.eventStore as DuckDBEventStore;
    await store.useConnection((connection) => connection.run(`SET GLOBAL checkpoint_threshold = '2MB'`));
    const batches = 5;
    for (let batch = 0; batch < batches; batch++) {
      const events = Array.from({ length: 100 }, (_, i) => event(batch * 100 + i));
      const response = await server.request('/v1/datasets/wide/ingest', json(events));
      expect(response.status, `batch ${batch}`).toBe(200);
      expect(((await response.json()) as { ingested: number }).ingested).toBe(100);
    }
    await store.checkpoint();
    expect(await count('wide')).toBe(batches * 100);
    const sums = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['wide'] | summarize sum(f1), max(f999), dcount(f0)" }));
    const columns = ((await sums.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!.columns;
    const rows = batches * 100;
    // f1 = row * 1 + 0.5, f999 = row * 999 + 0.5 (999 % 3 === 0: text), f0 is text, distinct per row.
    expect(columns[0]![0]).toBe((rows * (rows - 1)) / 2 + rows * 0.5);
    expect(columns[1]![0]).toBe(Array.from({ length: rows }, (_, row) => `v${row}-999`).sort().at(-1));
    expect(columns[2]![0]).toBe(rows);
  }, 120_000);
});
