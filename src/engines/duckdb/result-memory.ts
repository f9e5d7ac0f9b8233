// DuckDB's results keep their rows in DuckDB's buffer blocks (256 KiB at least per result,
// outside the JS heap) until V8 collects the JS objects that wrap them; the bindings do not tell
// V8 about that memory. With a small JS heap V8 collects rarely, so under a stream of queries the
// results waiting for collection grew the process by hundreds of MB (to 1.36 GB in one run)
// while its JS heap stayed near 100 MB. This keeps an estimate of what results not yet collected
// hold, and starts a full collection when it passes COLLECT_AT_BYTES, at most once per
// MIN_INTERVAL_MS: at 64 MB rather than 128, `bench:load` peaked 20-45 MB lower for 2-3% fewer
// requests served. (Streaming results instead, which free their state once read, cost a round
// trip to DuckDB per chunk: under mixed load the queries' latency grew fivefold.)
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** DuckDB's buffer block: the least a result holds, and roughly what each of its chunks adds. */
const BLOCK_BYTES = 256 * 1024;
export const COLLECT_AT_BYTES = 64 * 2 ** 20;
const MIN_INTERVAL_MS = 500;

type Collect = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => unknown;

let outstanding = 0;
let lastCollection = -Infinity;
let pending = false;
let collect: Collect | undefined;

const collected = new FinalizationRegistry<number>((bytes) => {
  outstanding -= bytes;
});

/** V8's collector, made callable once (what `node --expose-gc` offers, turned on at run time). */
function collector(): Collect {
  if (!collect) {
    if (typeof globalThis.gc === 'function') collect = globalThis.gc as Collect;
    else {
      v8.setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    }
  }
  return collect;
}

function collectSoon(): void {
  if (pending) return;
  pending = true;
  const wait = Math.max(0, lastCollection + MIN_INTERVAL_MS - performance.now());
  setTimeout(() => {
    pending = false;
    lastCollection = performance.now();
    // Marking runs in steps between tasks rather than in one pause.
    void collector()({ type: 'major', execution: 'async' });
  }, wait).unref();
}

/** Counts a result of `chunks` data chunks until V8 collects `result`. */
export function trackResult(result: object, chunks: number): void {
  const bytes = BLOCK_BYTES * (1 + chunks);
  outstanding += bytes;
  collected.register(result, bytes);
  if (outstanding > COLLECT_AT_BYTES) collectSoon();
}

/** What results not yet collected hold, by the estimate. */
export function outstandingResultBytes(): number {
  return outstanding;
}
