// A query whose caller goes away is cancelled: the HTTP door hands the engine a signal that is
// aborted when the request's connection closes before the answer is sent. On DuckDB the running
// statement is interrupted inside the engine (the runner returns long before the query would
// have finished); on every store the signal reaches the engine's runner aborted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryRunner } from '../../../src/apl/execution/runner';
import { ON_CHDB, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Rows in the dataset; the self-join below pairs every row with the half of them of its key. */
const ROWS = 16_000;
/** The self-join over the rows with n below `below`: its work grows with the square of that. */
const joinApl = (below: number) =>
  `['slow'] | where n < ${below} | join kind=inner (['slow'] | where n < ${below} | project k, m = n) on k | summarize total = sum(n * m + strlen(tostring(n % 7)))`;
/** Many seconds of work: 128 million pairs. */
const SLOW_APL = joinApl(ROWS);
/** A sixteenth of that work (a quarter of the rows on each side). */
const SIXTEENTH_APL = joinApl(ROWS / 4);
/**
 * The query the test abandons. chdb cannot interrupt a running statement, so there the abandoned
 * one runs to its end before the engine takes the next: a quarter of the work (still many times
 * the time the abort takes to arrive) keeps that wait short. DuckDB gets the whole slow query.
 */
const ABANDONED_APL = ON_CHDB ? joinApl(ROWS / 2) : SLOW_APL;

interface RunRecord {
  signal: AbortSignal | undefined;
  settledAt?: number;
  outcome?: 'ok' | 'error';
}

const runs: RunRecord[] = [];

beforeAll(async () => {
  // chdb cannot interrupt a running statement: the abandoned one runs on to its end (or its time
  // budget, kept short there as a bound).
  server = await startTestServer(ON_CHDB ? { QUERY_TIMEOUT_MS: '15000' } : {});
  expect((await server.request('/v2/datasets', json({ name: 'slow' }))).status).toBe(200);
  for (let from = 0; from < ROWS; from += 4_000) {
    const events = Array.from({ length: 4_000 }, (_, i) => ({ n: from + i, k: (from + i) % 2 }));
    expect((await server.request('/v1/datasets/slow/ingest', json(events))).status).toBe(200);
  }
  // Watch the engine's runner: what signal each statement got and when it came back.
  const runner = server.app.services.eventStore.aplRunner as QueryRunner;
  const run = runner.run.bind(runner);
  runner.run = (statement, options) => {
    const record: RunRecord = { signal: options.signal };
    runs.push(record);
    const settle = (outcome: 'ok' | 'error') => {
      record.settledAt = performance.now();
      record.outcome = outcome;
    };
    const pending = run(statement, options);
    pending.then(
      () => settle('ok'),
      () => settle('error'),
    );
    return pending;
  };
}, 120_000);
afterAll(async () => {
  await server.close();
}, 120_000);

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('cancelling a query by going away', () => {
  it('aborts the signal the engine runs with, and DuckDB stops the statement', async () => {
    // How long a sixteenth of the slow query's work takes, run to its end.
    const started = performance.now();
    const small = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: SIXTEENTH_APL }));
    const sixteenthMs = performance.now() - started;
    expect(small.status).toBe(200);
    // Its answer, computed here: per key, (sum of n) squared over the pairs, plus 1 per pair.
    const quarter = Array.from({ length: ROWS / 4 }, (_, n) => n);
    let expected = 0;
    for (const key of [0, 1]) {
      const ns = quarter.filter((n) => n % 2 === key);
      const sum = ns.reduce((total, n) => total + n, 0);
      expected += sum * sum + ns.length * ns.length;
    }
    expect(Number(((await small.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!.columns[0]![0])).toBe(expected);
    const finished = runs.at(-1)!;
    expect(finished.outcome).toBe('ok');
    expect(finished.signal?.aborted).toBe(false);

    // A bigger query, abandoned 200 ms after DuckDB started on it (on chdb as soon as the engine
    // has it, while it runs).
    const before = runs.length;
    const controller = new AbortController();
    const abandoned = server.request('/v1/datasets/_apl?format=tabular', { ...json({ apl: ABANDONED_APL }), signal: controller.signal }).catch((error: unknown) => error);
    await until(() => runs.length > before);
    const record = runs[before]!;
    if (!ON_CHDB) await new Promise((resolve) => setTimeout(resolve, 200));
    const abortedAt = performance.now();
    controller.abort();
    expect(await abandoned).toBeInstanceOf(Error);

    await until(() => record.signal?.aborted === true, 5_000);
    await until(() => record.settledAt !== undefined, ON_CHDB ? 60_000 : 5_000);
    expect(record.outcome).toBe('error');
    if (!ON_CHDB) {
      // Interrupted inside DuckDB: back within a few sixteenths of the work, where running to its
      // end would take about sixteen.
      console.log(`a sixteenth of the work: ${Math.round(sixteenthMs)} ms; the abandoned query came back ${Math.round(record.settledAt! - abortedAt)} ms after the abort`);
      expect(record.settledAt! - abortedAt).toBeLessThan(4 * sixteenthMs);
    }

    // The server goes on answering.
    const after = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['slow'] | count" }));
    expect(after.status).toBe(200);
    expect(((await after.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!.columns[0]![0]).toBe(ROWS);
  }, 120_000);
});
