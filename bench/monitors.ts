// Monitors at scale: 500 monitors running every minute over a dataset of 1,000,000 events,
// on a server child process. Reports the scheduler's lag (how long after its due time each run
// started: p50, p99, max, apart for the runs due while ingest ran at full speed) and the ingest
// rate of the same server with the monitors running, beside its ingest rate without monitors
// measured in the same run before the monitors were created and after they were deleted.
//
//   npm run bench:monitors
//   BENCH_MONITORS=500 BENCH_EVENTS=1000000 BENCH_OBSERVE_S=180 BENCH_INGEST_S=30 npm run bench:monitors
//
// The minute is a real minute (MONITOR_MINUTE_MS is left at its default). 400 threshold monitors
// (four query shapes) and 100 match monitors read the last 5 minutes of the dataset; the
// dataset's events are spread over the 24 hours before the start, and the ingest phases add
// more with the current time, into the same dataset the monitors read.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { makeEvents, ndjsonBatches } from './ingest-events';
import { serverArgs } from './server-command';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MONITORS = Number(process.env.BENCH_MONITORS ?? 500);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const OBSERVE_S = Number(process.env.BENCH_OBSERVE_S ?? 180);
const INGEST_S = Number(process.env.BENCH_INGEST_S ?? 30);
const ADMIN_TOKEN = 'xapt-bench-admin-token-0123456789';
const DATASET = 'bench-events';

const QUERIES: { type: string; aplQuery: string; operator?: string; threshold?: number }[] = [
  { type: 'Threshold', aplQuery: `['${DATASET}'] | where status >= 500 | summarize count()`, operator: 'Above', threshold: 1e9 },
  { type: 'Threshold', aplQuery: `['${DATASET}'] | summarize count() by bin(_time, 1m)`, operator: 'Above', threshold: 1e9 },
  { type: 'Threshold', aplQuery: `['${DATASET}'] | summarize avg(duration) by region`, operator: 'Above', threshold: 1e9 },
  { type: 'Threshold', aplQuery: `['${DATASET}'] | where method == 'DELETE' | summarize percentile(duration, 99) by ['req.host']`, operator: 'Above', threshold: 1e9 },
  { type: 'MatchEvent', aplQuery: `['${DATASET}'] | where status == 599 | project uri, user` },
];

function post(agent: http.Agent, port: number, pathname: string, body: Buffer, contentType: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': contentType, 'content-length': body.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function startServer(dir: string): Promise<{ child: ChildProcess; port: number; url: string }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverArgs(ROOT), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', MODEL_CATALOG_SOURCE: path.join(ROOT, 'test/fixtures/litellm-small.json') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, port, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-monitors-'));
  const server = await startServer(dir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const json = async (pathname: string, body: unknown) => {
    const answer = await post(agent, server.port, pathname, Buffer.from(JSON.stringify(body)), 'application/json');
    if (answer.status !== 200) throw new Error(`${pathname}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text) as any;
  };
  const ingest = async (body: Buffer) => {
    const answer = await post(agent, server.port, `/v1/datasets/${DATASET}/ingest`, body, 'application/x-ndjson');
    if (answer.status !== 200) throw new Error(`ingest: ${answer.status} ${answer.text}`);
    return (JSON.parse(answer.text) as { ingested: number }).ingested;
  };
  try {
    await json('/v2/datasets', { name: DATASET });
    console.log(`Loading ${EVENTS.toLocaleString('en-US')} events spread over the last 24 hours...`);
    const start = Date.now() - 86_400_000;
    const step = 86_400_000 / EVENTS;
    for (let offset = 0; offset < EVENTS; offset += 100_000) {
      const events = makeEvents(Math.min(100_000, EVENTS - offset), 11 + offset);
      events.forEach((event, i) => (event._time = new Date(start + (offset + i) * step).toISOString()));
      await Promise.all(ndjsonBatches(events, 10_000).map((body) => ingest(body)));
    }

    // Events without _time take the receive time: they land in the monitors' windows.
    const live = makeEvents(100_000, 99).map(({ _time, ...event }) => event);
    const liveBodies = ndjsonBatches(live as never, 10_000);
    const ingestFor = async (seconds: number) => {
      let sent = 0;
      let next = 0;
      const deadline = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (performance.now() < deadline) sent += await ingest(liveBodies[next++ % liveBodies.length]!);
        }),
      );
      return sent / ((performance.now() - started) / 1000);
    };

    console.log(`Ingest without monitors (${INGEST_S} s, batches of 10,000, 4 clients)...`);
    const withoutMonitors = await ingestFor(INGEST_S);

    console.log(`Creating ${MONITORS} monitors (interval 1 minute, range 5 minutes)...`);
    const created = performance.now();
    for (let i = 0; i < MONITORS; i++) {
      const query = QUERIES[i % QUERIES.length]!;
      await json('/v2/monitors', { name: `bench ${i}`, intervalMinutes: 1, rangeMinutes: 5, ...query });
    }
    console.log(`  ${((performance.now() - created) / MONITORS).toFixed(1)} ms per POST /v2/monitors`);

    // Each run leaves (last_scheduled_at, last_run_at, last_duration_ms) in its monitor's state
    // row; reading them every 15 s sees every run of a 1-minute monitor. They are read from the
    // SQLite file through a read-only connection of this process, so that measuring costs the
    // server nothing (asking it through its API would cost more CPU than the monitors do).
    const runs = new Map<string, { due: number; delay: number; duration: number }>();
    const observeFrom = Date.now();
    const states = new Database(path.join(dir, 'eventdeck.db'), { readonly: true, fileMustExist: true });
    const lastRuns = states.prepare('SELECT monitor_id, last_scheduled_at, last_run_at, last_duration_ms, last_error FROM monitor_states');
    const timeOf = (value: unknown) => (typeof value === 'number' ? value : Date.parse(String(value)));
    const poll = async () => {
      for (const row of lastRuns.all() as { monitor_id: string; last_scheduled_at: unknown; last_run_at: unknown; last_duration_ms: number; last_error: string | null }[]) {
        if (row.last_scheduled_at === null || row.last_run_at === null) continue;
        if (row.last_error) throw new Error(`monitor ${row.monitor_id}: ${row.last_error}`);
        const due = timeOf(row.last_scheduled_at);
        // Steady state only: runs due while the monitors were still being created are left out.
        if (due < observeFrom) continue;
        runs.set(`${row.monitor_id} ${due}`, { due, delay: timeOf(row.last_run_at) - due, duration: row.last_duration_ms });
      }
    };
    const observeUntil = Date.now() + OBSERVE_S * 1000;
    let withMonitors = NaN;
    const polling = (async () => {
      while (Date.now() < observeUntil) {
        await poll();
        await sleep(15_000);
      }
      await poll();
    })();
    await sleep(Math.min(70, OBSERVE_S / 2) * 1000); // every monitor has run at least once
    console.log(`Ingest with ${MONITORS} monitors running (${INGEST_S} s)...`);
    const ingestFrom = Date.now();
    withMonitors = await ingestFor(INGEST_S);
    const ingestUntil = Date.now();
    await polling;
    states.close();
    const observedMinutes = (Date.now() - observeFrom) / 60_000;

    console.log(`Deleting the monitors, then ingest without monitors again (${INGEST_S} s)...`);
    const listed = await fetch(`${server.url}/v2/monitors`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    for (const { id } of (await listed.json()) as { id: string }[]) {
      await fetch(`${server.url}/v2/monitors/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    }
    const withoutMonitorsAfter = await ingestFor(INGEST_S);

    const all = [...runs.values()];
    const row = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `| ${label} | ${sorted.length} | ${percentile(sorted, 50)} ms | ${percentile(sorted, 99)} ms | ${sorted.at(-1)} ms |`;
    };
    const duringIngest = all.filter((run) => run.due >= ingestFrom && run.due <= ingestUntil);
    const otherwise = all.filter((run) => run.due < ingestFrom || run.due > ingestUntil);
    console.log(`\n${all.length.toLocaleString('en-US')} runs observed over ${observedMinutes.toFixed(1)} minutes (${(all.length / observedMinutes).toFixed(0)} a minute; ${MONITORS} expected)`);
    console.log('| measure | runs | p50 | p99 | max |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    console.log(row('start delay (due → started), all runs', all.map((run) => run.delay)));
    console.log(row('start delay, runs due while ingest ran at full speed', duringIngest.map((run) => run.delay)));
    console.log(row('start delay, the other runs', otherwise.map((run) => run.delay)));
    console.log(row('run duration (queries + commit)', all.map((run) => run.duration)));
    const without = (withoutMonitors + withoutMonitorsAfter) / 2;
    console.log(
      `\nIngest, same server, same run: ${Math.round(withoutMonitors).toLocaleString('en-US')} events/s before the monitors and ` +
        `${Math.round(withoutMonitorsAfter).toLocaleString('en-US')} after them (mean ${Math.round(without).toLocaleString('en-US')}), ` +
        `${Math.round(withMonitors).toLocaleString('en-US')} events/s with ${MONITORS} monitors running (ratio ${(withMonitors / without).toFixed(2)})`,
    );
  } finally {
    agent.destroy();
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
