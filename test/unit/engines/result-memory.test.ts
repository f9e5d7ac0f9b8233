// Results DuckDB keeps until V8 collects them are counted, and once more than the threshold
// waits for collection, a collection is started without anyone asking for one: the count falls
// back as the results are collected.
import { describe, expect, it } from 'vitest';
import { COLLECT_AT_BYTES, outstandingResultBytes, trackResult } from '../../../src/engines/duckdb/result-memory';

describe('results waiting for collection', () => {
  it('start a collection once they pass the threshold, which brings the count back down', async () => {
    const before = outstandingResultBytes();
    // Stand-ins for results of one chunk each (512 KiB by the estimate), enough to pass the threshold.
    const count = Math.ceil((COLLECT_AT_BYTES * 1.5) / (512 * 1024));
    (() => {
      for (let i = 0; i < count; i++) trackResult({ result: i }, 1);
    })();
    expect(outstandingResultBytes() - before).toBe(count * 512 * 1024);
    const deadline = Date.now() + 10_000;
    while (outstandingResultBytes() - before > COLLECT_AT_BYTES / 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(outstandingResultBytes() - before).toBeLessThanOrEqual(COLLECT_AT_BYTES / 2);
  });
});
