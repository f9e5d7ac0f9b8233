// What a caller reads for its answer besides the rows (EngineDeps.alongside) starts once the
// statement has left for the event store, so the two overlap; the answer waits for both, and a
// failure of either is the query's, without leaving the other one's failure unhandled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineDeps } from '../../../src/apl';
import { executeApl } from '../../../src/apl';
import { addDataset, createTestDatabase, tableRows, type TestDatabase } from '../../helpers/apl/fixtures';

describe('work alongside the statement', () => {
  let db: TestDatabase;
  const request = { apl: "['side'] | summarize total = sum(n)", startTime: '2024-04-01T00:00:00Z', endTime: '2024-04-02T00:00:00Z' };

  beforeAll(async () => {
    db = await createTestDatabase();
    const events = Array.from({ length: 4 }, (_, i) => ({ _time: `2024-04-01T0${i}:00:00Z`, n: i + 1 }));
    await addDataset(db, 'side', [{ name: 'n', type: 'integer' }], events);
  });
  afterAll(() => db?.close());

  /**
   * Deps whose runner records when the statement starts and finishes, beside what alongside
   * records; `finished` is called when the statement is done.
   */
  const recording = (alongside: EngineDeps['alongside'], log: string[], finished?: () => void): EngineDeps => ({
    ...db.deps,
    runner: {
      async run(statement, options) {
        log.push('statement started');
        try {
          return await db.deps.runner.run(statement, options);
        } finally {
          log.push('statement finished');
          finished?.();
        }
      },
    },
    ...(alongside ? { alongside } : {}),
  });

  it('starts after the statement, is given the plan, and is waited for', async () => {
    const log: string[] = [];
    let datasets: string[] = [];
    let window: unknown;
    // The work alongside outlasts the statement whatever the machine's speed: it ends only
    // after the statement has.
    let statementDone!: () => void;
    const afterStatement = new Promise<void>((resolve) => (statementDone = resolve));
    const deps = recording(
      async (prepared) => {
        log.push('alongside started');
        datasets = prepared.analyzed.datasets;
        window = prepared.window;
        await afterStatement;
        await new Promise((resolve) => setTimeout(resolve, 10));
        log.push('alongside finished');
      },
      log,
      () => statementDone(),
    );
    const result = await executeApl(request, deps);
    expect(tableRows(result)).toEqual([{ total: 1 + 2 + 3 + 4 }]);
    expect(log[0]).toBe('statement started');
    expect(log.indexOf('alongside started')).toBeGreaterThan(0);
    // The answer came only once the slower work alongside was done.
    expect(log.at(-1)).toBe('alongside finished');
    expect(datasets).toEqual(['side']);
    expect(window).toEqual({ startNanos: BigInt(Date.parse('2024-04-01T00:00:00Z')) * 1_000_000n, endNanos: BigInt(Date.parse('2024-04-02T00:00:00Z')) * 1_000_000n });
  });

  it('fails the query when the work alongside fails', async () => {
    const deps = recording(async () => {
      throw new Error('annotations unreadable');
    }, []);
    await expect(executeApl(request, deps)).rejects.toThrow('annotations unreadable');
  });

  it('fails with the statement error when both fail, leaving no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const deps: EngineDeps = {
        ...recording(async () => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          throw new Error('alongside failed too');
        }, []),
        runner: {
          run: async () => {
            throw new Error('statement failed');
          },
        },
      };
      await expect(executeApl(request, deps)).rejects.toThrow('statement failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
