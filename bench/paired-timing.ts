// Times two ways of answering the same question in turns (after a warm-up), so that both see the
// same machine load; the medians of the runs are what the query benchmarks report.

export interface Paired {
  /** Median milliseconds of the baseline (e.g. hand-written SQL). */
  baseline: number;
  /** Median milliseconds of the product's path. */
  candidate: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function timePaired(baseline: () => Promise<unknown>, candidate: () => Promise<unknown>, runs: number, warmUp = 3): Promise<Paired> {
  for (let i = 0; i < warmUp; i++) {
    await baseline();
    await candidate();
  }
  const baselineTimes: number[] = [];
  const candidateTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    let started = performance.now();
    await baseline();
    baselineTimes.push(performance.now() - started);
    started = performance.now();
    await candidate();
    candidateTimes.push(performance.now() - started);
  }
  return { baseline: median(baselineTimes), candidate: median(candidateTimes) };
}
