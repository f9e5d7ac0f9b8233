// MPL engine speed: queries over 1,000,000 points of one metric (500 series: 100 hosts x 5
// cores, a point every 15 s for about 4 hours) in the metrics store, each beside the same
// question written by hand in DuckDB SQL on the same tables, in the same run.
//
//   npm run bench:mpl
//   BENCH_RUNS=30 BENCH_POINTS=1000000 npm run bench:mpl
//
// Engine time is the whole of executeMpl: parse, analyze, compile, run, lay the series out on
// the grid. Hand-written time is the statement run and its rows read. Reported: median of
// BENCH_RUNS runs after warm-up and the ratio engine / hand-written (target: within 1.5x).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { executeMpl, type MplDeps } from '../src/metrics/mpl/execution/execute';
import { metricsTablesOf, quoteIdentifier } from '../src/metrics/store/layout';
import { DuckDBMetricsStore } from '../src/metrics/store/metrics-store';
import { END, POINTS, pointBatches, PER_SERIES, SERIES, START, STEP } from './metric-points';
import { timePaired } from './paired-timing';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const DIR = path.join(tmpdir(), 'eventdeck-bench-mpl');
const FILE = path.join(DIR, `metrics-${POINTS}.duckdb`);
const TABLE = 'ds_bench';

async function prepare(): Promise<DuckDBMetricsStore> {
  mkdirSync(DIR, { recursive: true });
  const fresh = !existsSync(FILE);
  const store = await DuckDBMetricsStore.open(FILE);
  if (!fresh && store.hasDataset(TABLE)) return store;
  if (!fresh) {
    await store.close();
    rmSync(FILE, { force: true });
    return prepare();
  }
  console.log(`writing ${(SERIES * PER_SERIES).toLocaleString('en-US')} points in ${FILE} ...`);
  await store.createDataset(TABLE);
  for (const batch of pointBatches()) await store.write(TABLE, batch);
  await store.checkpoint();
  return store;
}

async function main() {
  const store = await prepare();
  const summary = (await store.metricsOf(TABLE)).get('cpu')!;
  const deps: MplDeps = {
    resolveDataset: (name) => ({
      name,
      table: TABLE,
      metric: () => ({ scalar: true, distribution: false, summary: false, types: [...summary.types], temporality: null, unit: '%' }),
    }),
    run: (sql, timeoutMs) => store.runMpl(sql, { timeoutMs }),
    timeoutMs: 120_000,
    maxSeries: 10_000,
    nowMs: END * 1000,
  };
  const range = { startTime: new Date(START * 1000).toISOString(), endTime: new Date(END * 1000).toISOString() };
  const mpl = (query: string) => executeMpl({ mpl: query, ...range }, deps);
  const tables = metricsTablesOf(TABLE);
  const series = quoteIdentifier(tables.series);
  const points = quoteIdentifier(tables.points);
  const sql = (text: string) => store.query(text);

  const cases = [
    {
      name: 'align to 1m using avg | group by host using sum',
      engine: () => mpl('bench:cpu | align to 1m using avg | group by host using sum'),
      // The fastest form found by hand: hosts of the metric's series first, then both levels.
      hand: () =>
        sql(`WITH h AS (SELECT id, union_extract(tags['host'], 's') AS host FROM ${series} WHERE metric = 'cpu')
             SELECT host, b, sum(a) FROM (
               SELECT h.host, p.series_id, (p.t // 60) * 60 AS b, avg(p.value) AS a FROM ${points} p JOIN h ON h.id = p.series_id
               WHERE p.t >= ${START} AND p.t < ${END} GROUP BY ALL)
             GROUP BY host, b ORDER BY host, b`),
    },
    {
      name: 'where host == "host-7" | align to 5m using max',
      engine: () => mpl('bench:cpu | where host == "host-7" | align to 5m using max'),
      hand: () =>
        sql(`SELECT p.series_id, (p.t // 300) * 300 AS b, max(p.value) FROM ${points} p
             WHERE p.t >= ${START} AND p.t < ${END}
               AND p.series_id IN (SELECT id FROM ${series} WHERE metric = 'cpu' AND union_extract(tags['host'], 's') = 'host-7')
             GROUP BY ALL ORDER BY 1, 2`),
    },
    {
      name: 'align to 5m using prom::rate | group by dc using sum',
      engine: () => mpl('bench:cpu | align to 5m using prom::rate | group by dc using sum'),
      hand: () =>
        sql(`SELECT union_extract(s.tags['dc'], 's') AS dc, r.b, sum(r.rate) FROM (
               SELECT series_id, (t // 300) * 300 AS b, sum(CASE WHEN d >= 0 THEN d ELSE value END) / 300 AS rate FROM (
                 SELECT series_id, t, value, value - lag(value) OVER (PARTITION BY series_id ORDER BY t) AS d FROM ${points}
                 WHERE t >= ${START - 300} AND t < ${END}) WHERE d IS NOT NULL GROUP BY ALL) r
             JOIN ${series} s ON s.id = r.series_id WHERE s.metric = 'cpu' GROUP BY ALL ORDER BY 1, 2`),
    },
  ];

  console.log(`\n${(SERIES * PER_SERIES).toLocaleString('en-US')} points in ${SERIES} series (a point every ${STEP} s); median of ${RUNS} runs after warm-up\n`);
  console.log(`| query | hand-written SQL | MPL engine | ratio |`);
  console.log(`| --- | ---: | ---: | ---: |`);
  for (const c of cases) {
    const { baseline: h, candidate: e } = await timePaired(c.hand, c.engine, RUNS);
    console.log(`| \`${c.name}\` | ${h.toFixed(1)} ms | ${e.toFixed(1)} ms | ${(e / h).toFixed(2)}x |`);
  }
  await store.close();
}

await main();
