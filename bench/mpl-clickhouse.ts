// The metrics store and MPL on ClickHouse embedded (chdb) beside the DuckDB store, same run:
// the same 1,000,000 points of one metric (500 series: 100 hosts x 5 cores, a point every 15 s)
// written through each store's write path in batches as exporters send them, then the same MPL
// queries compiled by each store's dialect and run on it.
//
//   npm run bench:mpl-clickhouse
//   BENCH_RUNS=15 BENCH_POINTS=1000000 npm run bench:mpl-clickhouse
//
// Query time is the whole of executeMpl (parse, analyze, compile, run, lay out); medians of
// BENCH_RUNS runs after warm-up, the two stores taking turns so both see the same machine load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChdbExecutor } from '../src/engines/clickhouse/chdb-executor';
import { executeMpl } from '../src/metrics/mpl/execution/execute';
import { datasetBinding } from '../src/metrics/service';
import { ClickHouseMetricsStore } from '../src/metrics/store/clickhouse/clickhouse-metrics-store';
import { DuckDBMetricsStore } from '../src/metrics/store/metrics-store';
import type { MetricsStore } from '../src/metrics/store/store';
import { END, pointBatches, PER_SERIES, SERIES, START, STEP } from './metric-points';
import { timePaired } from './paired-timing';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const TABLE = 'ds_bench';

async function fill(store: MetricsStore): Promise<number> {
  await store.createDataset(TABLE);
  const started = performance.now();
  for (const batch of pointBatches()) await store.write(TABLE, batch);
  return performance.now() - started;
}

function runner(store: MetricsStore) {
  const range = { startTime: new Date(START * 1000).toISOString(), endTime: new Date(END * 1000).toISOString() };
  return async (query: string) => {
    const metrics = await store.metricsOf(TABLE);
    return executeMpl(
      { mpl: query, ...range },
      {
        resolveDataset: (name) => datasetBinding(name, TABLE, metrics),
        run: (sql, timeoutMs) => store.runMpl(sql, { timeoutMs }),
        timeoutMs: 300_000,
        maxSeries: 10_000,
        dialect: store.dialect,
        nowMs: END * 1000,
      },
    );
  };
}

const QUERIES = [
  'bench:cpu | align to 1m using avg | group by host using sum',
  'bench:cpu | where host == "host-7" | align to 5m using max',
  'bench:cpu | align to 5m using prom::rate | group by dc using sum',
  'bench:cpu | bucket by dc to 30m using histogram(0.5, 0.99, count)',
];

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-mpl-clickhouse-'));
  const duckdb = await DuckDBMetricsStore.open(path.join(dir, 'metrics.duckdb'));
  const executor = await ChdbExecutor.open(path.join(dir, 'chdb'));
  const clickhouse = await ClickHouseMetricsStore.open(executor);
  try {
    const points = (SERIES * PER_SERIES).toLocaleString('en-US');
    console.log(`writing ${points} points into each store ...`);
    const duckdbWrite = await fill(duckdb);
    const chdbWrite = await fill(clickhouse);
    const rate = (ms: number) => Math.round((SERIES * PER_SERIES) / (ms / 1000)).toLocaleString('en-US');
    console.log(`\n${points} points in ${SERIES} series (a point every ${STEP} s), written in batches of ${SERIES * 20} points`);
    console.log(`\n| | DuckDB store | chdb store |`);
    console.log(`| --- | ---: | ---: |`);
    console.log(`| write, points/s | ${rate(duckdbWrite)} | ${rate(chdbWrite)} |`);
    const [onDuckdb, onChdb] = [runner(duckdb), runner(clickhouse)];
    for (const query of QUERIES) {
      const { baseline, candidate } = await timePaired(() => onDuckdb(query), () => onChdb(query), RUNS, 2);
      console.log(`| \`${query.replace('bench:cpu | ', '').replaceAll('|', '\\|')}\` | ${baseline.toFixed(1)} ms | ${candidate.toFixed(1)} ms |`);
    }
    console.log(`\nmedians of ${RUNS} runs after warm-up`);
  } finally {
    await duckdb.close();
    await clickhouse.close();
    await executor.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
