// The two MPL dialects side by side: the fixture written to a DuckDB metrics store and to a
// ClickHouse one (chdb), the same queries compiled by each store's dialect and run on it, and
// the answers compared whole (series, their order, tags with their types, every value). The
// suites over HTTP compare each store with answers computed by hand; this one shows that the two
// stores agree where no hand-computed answer was written. Runs in the chdb project.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbExecutor } from '../../../src/engines/clickhouse/chdb-executor';
import { executeMpl } from '../../../src/metrics/mpl/execution/execute';
import type { MetricsAnswer } from '../../../src/metrics/mpl/execution/result';
import { datasetBinding } from '../../../src/metrics/service';
import { ClickHouseMetricsStore } from '../../../src/metrics/store/clickhouse/clickhouse-metrics-store';
import { DuckDBMetricsStore } from '../../../src/metrics/store/metrics-store';
import type { MetricsStore } from '../../../src/metrics/store/store';
import { ON_CHDB } from '../../helpers/server';
import { END, fixture, START, toSeriesPoints } from '../../helpers/metrics/fixture';

const TABLE = 'ds_m';
let dir: string;
let duckdb: DuckDBMetricsStore;
let executor: ChdbExecutor;
let clickhouse: ClickHouseMetricsStore;

beforeAll(async () => {
  if (!ON_CHDB) return;
  dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-mpl-dialects-'));
  duckdb = await DuckDBMetricsStore.open(path.join(dir, 'metrics.duckdb'));
  executor = await ChdbExecutor.open(path.join(dir, 'chdb'));
  clickhouse = await ClickHouseMetricsStore.open(executor);
  const points = toSeriesPoints(fixture());
  for (const store of [duckdb, clickhouse]) {
    await store.createDataset(TABLE);
    await store.write(TABLE, points);
  }
});

afterAll(async () => {
  await duckdb?.close();
  await clickhouse?.close();
  await executor?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(store: MetricsStore, mpl: string): Promise<MetricsAnswer> {
  const metrics = await store.metricsOf(TABLE);
  return executeMpl(
    { mpl, startTime: START, endTime: END },
    {
      resolveDataset: (name) => datasetBinding(name, TABLE, metrics),
      run: (sql, timeoutMs) => store.runMpl(sql, { timeoutMs }),
      timeoutMs: 30_000,
      maxSeries: 1000,
      dialect: store.dialect,
    },
  );
}

/** Numbers to 10 significant digits: the engines may add the same values in another order. */
function rounded(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? Number(value.toPrecision(10)) : value;
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

// `sample` is left out: each engine picks series by its own hash.
const QUERIES = [
  'm:cpu | align to 1m using avg',
  'm:cpu | align to 1m using last',
  'm:cpu | align to 1m using count',
  'm:cpu | align using max',
  'm:cpu | where host == "b" | align to 1m over 5m using avg',
  'm:cpu | align to 1m over 3m using last',
  'm:requests | align to 5m using prom::rate',
  'm:requests | align to 1m over 5m using prom::rate',
  'm:requests | where code == 200 | align to 5m using sum',
  'm:requests | where code == "200" | align to 5m using sum',
  'm:requests | where code >= 300 or host != "a" | align to 5m using max',
  'm:requests | where host == #/[ab]/ and not code < 250 | align to 5m using min',
  'm:requests | where code is string | align to 10m using count',
  'm:flags | where ratio > 0.3 | align to 30m using max',
  'm:flags | where canary == true | align to 30m using max',
  'm:flags | where ratio == #/0\\.2.*/ | align to 30m using max',
  'm:cpu | align to 1m using avg | group by dc using sum',
  'm:cpu | align to 5m using max | group by core using count',
  'm:cpu | align to 10m using last | group using avg',
  'm:temp | align to 1m using last | map abs',
  'm:temp | align to 5m using avg | map filter::gt(0)',
  'm:temp | align to 5m using avg | map is::lte(-3)',
  'm:temp | align to 5m using avg | map min(2) | map + 1.5',
  'm:requests | where host == "b" | map rate | align to 5m using max',
  'm:requests | map increase | align to 5m using sum',
  'm:queue | align to 1m using last | map fill::const(0)',
  'm:queue | align to 1m using last | map fill::prev',
  'm:queue | align to 1m using last | map interpolate::linear',
  'm:latency | bucket by service to 5m using interpolate_delta_histogram(0.5, 0.99, count, avg, sum, min, max)',
  'm:latency_total | bucket to 5m using interpolate_cumulative_histogram(rate, 0.9, count, sum)',
  'm:latency_total | bucket to 5m using interpolate_cumulative_histogram(increase, 0.5, count)',
  'm:rpc_bucket | bucket by svc to 5m using histogram(0.5, 0.9, count)',
  'm:cpu | bucket by dc to 10m using histogram(0.5, 0.95, max, avg)',
  'm:latency | where `axiom.histogram` == "count" | align to 5m using sum',
  'm:latency | align to 30m using max',
  'm:rpc_time | align to 10m using last',
  'm:cpu as load | align to 30m using max | group using max | as peak',
  '( m:requests | where code >= 500 | align to 5m using prom::rate | group by host using sum, m:requests | align to 5m using prom::rate | group by host using sum ) | compute ratio using /',
  '( m:cpu | align to 5m using avg, m:mem | align to 5m using avg ) | compute both using max',
  'm:pod_ready | align to 30m using sum | join node from m:pod_info by pod | group by node using sum',
  'm:cpu | where host == "c" | align to 30m using max | extend env = "prod", zone = 3, url = "http://${host}.${dc}:80"',
  'm:cpu | align to 30m using max | replace host ~ #s/(.)/host-$1/',
  'm:cpu | align to 30m using max | replace machine = host',
  'm:cpu | align to 30m using max | replace short = dc ~ #s/(..).*/$1/',
  'm:flags | align to 30m using max',
  'm:flags | align to 30m using sum | group by canary using sum',
  'm:queue | align to 1m using last | map rate',
  'm:cpu | where host != "a" | align to 1m using avg | group by dc using min',
  'm:rpc_time | where quantile == 0.9 | align to 10m using avg',
  'm:latency | where `axiom.histogram` == "sum" | align to 5m using prom::rate',
  'm:nothing_here | align to 5m using avg',
];

describe.runIf(ON_CHDB)('MPL on DuckDB and on ClickHouse', () => {
  it.each(QUERIES)('answers alike: %s', async (mpl) => {
    const [onDuckdb, onClickhouse] = [await run(duckdb, mpl), await run(clickhouse, mpl)];
    expect(rounded(onClickhouse)).toEqual(rounded(onDuckdb));
    if (!mpl.includes('nothing_here')) expect(onDuckdb.series.length).toBeGreaterThan(0);
  });
});
