// A query past its time budget is interrupted inside DuckDB and reported as a timeout; the
// database stays usable for the next query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { executeApl } from '../../../src/apl';
import { addDataset, createTestDatabase, type TestDatabase, type TestEvent } from '../../helpers/apl/fixtures';

let db: TestDatabase;
// An inner self-join on a constant key: 30,000 x 30,000 rows, each building a string, far more
// work than the budget allows on either store (ClickHouse counts a bare join without building it).
const SLOW = "['wide'] | extend k = 1 | join kind=inner (['wide'] | project k = 1, m = n) on k | summarize max(strcat(tostring(n), ':', tostring(m)))";

beforeAll(async () => {
  db = await createTestDatabase();
  const rows: TestEvent[] = Array.from({ length: 30_000 }, (_, i) => ({ _time: '2024-04-30T00:00:00Z', n: i }));
  await addDataset(db, 'wide', [{ name: 'n', type: 'integer' }], rows);
}, 60_000);

afterAll(() => db.close());

async function outcome(run: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

describe('query time budget', () => {
  it('cancels a query that runs past QUERY_TIMEOUT_MS with a timeout error', async () => {
    const { error, ms } = await outcome(() => executeApl({ apl: SLOW }, { ...db.deps, queryTimeoutMs: 200 }));
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('timeout');
    expect((error as DomainError).message).toMatch(/time budget of 200 ms/);
    expect(ms).toBeLessThan(5_000);
    expect(await db.rows("['wide'] | count")).toEqual([{ count: 30_000 }]);
  });

  it('cancels when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error, ms } = await outcome(() => executeApl({ apl: SLOW, signal: controller.signal }, db.deps));
    expect((error as DomainError).kind).toBe('timeout');
    expect(ms).toBeLessThan(5_000);
  });
});
