// The metric points both MPL benchmarks write (bench/mpl.ts, bench/mpl-clickhouse.ts): one gauge
// over HOSTS x CORES series, a point every STEP seconds from START, BENCH_POINTS points in all,
// in batches as exporters send them (every series, 20 points each).
import type { SeriesPoints } from '../src/metrics/model';

export const POINTS = Number(process.env.BENCH_POINTS ?? 1_000_000);
export const HOSTS = 100;
export const CORES = 5;
export const SERIES = HOSTS * CORES;
export const PER_SERIES = Math.ceil(POINTS / SERIES);
export const STEP = 15;
export const START = 1_714_435_200; // 2024-04-30T00:00:00Z
export const END = START + PER_SERIES * STEP;

export function* pointBatches(): Generator<SeriesPoints[]> {
  for (let offset = 0; offset < PER_SERIES; offset += 20) {
    const batch: SeriesPoints[] = [];
    for (let host = 0; host < HOSTS; host++) {
      for (let core = 0; core < CORES; core++) {
        const times: number[] = [];
        const values: number[] = [];
        for (let i = offset; i < Math.min(offset + 20, PER_SERIES); i++) {
          times.push(START + i * STEP);
          values.push(((i * 37 + host * 11 + core * 5) % 1000) / 10);
        }
        batch.push({
          metric: { name: 'cpu', type: 'gauge', temporality: null, monotonic: null, unit: '%' },
          tags: new Map([
            ['host', { type: 'string', value: `host-${host}` }],
            ['core', { type: 'int', value: BigInt(core) }],
            ['dc', { type: 'string', value: `dc-${host % 4}` }],
          ]),
          times,
          values,
          distributions: [],
        });
      }
    }
    yield batch;
  }
}
