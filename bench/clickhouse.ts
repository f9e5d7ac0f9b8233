// The ClickHouse store on the chdb executor beside the DuckDB store, in the same run: NDJSON
// ingest over HTTP (10,000 events a request, one client) and the four reference questions of
// `npm run bench:query` plus its 10-page cursor walk, through POST /v1/datasets/_apl, on the same
// 1,000,000 events (twelve fields over 24 hours). Medians after warm-up; the last column is
// chdb's time over DuckDB's. Both engines share the 2-core development machine with the server.
//
//   npm run bench:clickhouse
//   BENCH_EVENTS=200000 BENCH_RUNS=9 npm run bench:clickhouse
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ingestBodies, spreadBodies } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const BATCH = 10_000;
const TOKEN = 'xapt-bench-clickhouse-token-0000000000';
const START_MS = Date.parse('2024-01-01T00:00:00Z');
const SPAN_MS = 24 * 3_600_000;
const QUERIES = [
  "['bench'] | summarize count() by bin(_time, 1h)",
  "['bench'] | where status >= 500 | summarize count() by uri | top 10 by count_",
  "['bench'] | where uri contains \"api\" | take 100",
  "['bench'] | summarize dcount(user), percentile(duration, 99) by method",
];
const WALK = '10-page cursor walk, 1,000 rows a page';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Measured {
  ingestPerSecond: number;
  medians: Map<string, number>;
  diskBytes: number;
}

async function measure(store: 'duckdb' | 'chdb'): Promise<Measured> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `eventdeck-bench-${store}-`));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN, MODEL_CATALOG_SOURCE: '/nonexistent', QUERY_TIMEOUT_MS: '120000', EVENT_STORE: store });
  const app = await createApp(config);
  const url = await app.server.listen({ host: '127.0.0.1', port: 0 });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  try {
    await fetch(`${url}/v2/datasets`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) });
    // The bodies are made before the clock starts: the client's work is not the server's.
    const bodies = spreadBodies(EVENTS, BATCH, START_MS, SPAN_MS);
    const started = performance.now();
    await ingestBodies(url, TOKEN, 'bench', bodies);
    const ingestPerSecond = EVENTS / ((performance.now() - started) / 1000);

    const window = { startTime: new Date(START_MS).toISOString(), endTime: new Date(START_MS + SPAN_MS).toISOString() };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = new URL(url);
    const viaHttp = (apl: string, cursor?: string, parse = false) =>
      new Promise<{ status: { minCursor?: string } }>((resolve, reject) => {
        const body = JSON.stringify({ apl, ...window, ...(cursor ? { cursor } : {}) });
        const request = http.request(
          { host: '127.0.0.1', port, path: '/v1/datasets/_apl?format=tabular', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const text = parse || response.statusCode !== 200 ? Buffer.concat(chunks).toString() : '';
              if (response.statusCode !== 200) reject(new Error(`${response.statusCode}: ${text}`));
              else resolve(parse ? JSON.parse(text) : { status: {} });
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const walk = async () => {
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) cursor = (await viaHttp("['bench'] | sort by _time desc | take 1000", cursor, true)).status.minCursor;
    };
    const cases: [string, () => Promise<unknown>][] = [...QUERIES.map((apl): [string, () => Promise<unknown>] => [apl, () => viaHttp(apl)]), [WALK, walk]];
    const medians = new Map<string, number>();
    for (const [name, run] of cases) {
      for (let i = 0; i < 3; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
      medians.set(name, median(times));
    }
    agent.destroy();
    const diskBytes = await app.services.eventStore.diskBytes();
    return { ingestPerSecond, medians, diskBytes };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const duckdb = await measure('duckdb');
  const chdb = await measure('chdb');
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`\n${EVENTS.toLocaleString('en-US')} events, 24 hours; ingest over HTTP, ${BATCH.toLocaleString('en-US')} a request; query medians of ${RUNS} runs through HTTP\n`);
  console.log(`| | DuckDB | ClickHouse (chdb) | chdb / DuckDB |\n| --- | ---: | ---: | ---: |`);
  const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')} events/s`;
  console.log(`| ingest | ${rate(duckdb.ingestPerSecond)} | ${rate(chdb.ingestPerSecond)} | ${(chdb.ingestPerSecond / duckdb.ingestPerSecond).toFixed(2)}× the rate |`);
  for (const [name, time] of duckdb.medians) {
    const other = chdb.medians.get(name)!;
    console.log(`| \`${name.replace("['bench'] | ", '').replaceAll('|', '\\|')}\` | ${ms(time)} | ${ms(other)} | ${(other / time).toFixed(2)} |`);
  }
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(`| events on disk | ${mb(duckdb.diskBytes)} | ${mb(chdb.diskBytes)} | ${(chdb.diskBytes / duckdb.diskBytes).toFixed(2)} |`);
}

await main();
