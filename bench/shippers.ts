// Shipper ingest speed: OTLP/HTTP protobuf traces and Elasticsearch bulk documents through the
// product, beside NDJSON ingest of the same number of events, in the same run, against one server
// child process. The ratio to NDJSON is the figure that matters (target: at least 0.7).
//
//   npm run bench:shippers
//   BENCH_EVENTS=200000 npm run bench:shippers
//
// Each shipper's door is compared with NDJSON carrying the same events: bulk documents are the
// ingest benchmark's 12-field events; spans are sent as OTLP and, for the baseline, as NDJSON of
// the events they are stored as (21 fields: _time, ids, kind, duration, status, service and resource,
// scope, five convention attributes, and the attributes.custom map).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeEvents, ndjsonBatches } from './ingest-events';
import { bulkBatches, makeSpans, spanNdjsonBatches, traceBatches } from './shipper-bodies';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const BATCH_SIZES = [1000, 10_000];
const CLIENTS = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ADMIN_TOKEN = 'xapt-bench-admin-token-0123456789';

const formatRate = (rate: number) => Math.round(rate).toLocaleString('en-US');

// -- the server --------------------------------------------------------------------------------

async function startServer(attempts = 3): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  try {
    return await startServerOnce();
  } catch (error) {
    // A random port may be taken by another process on a shared machine: try another.
    if (attempts <= 1) throw error;
    return startServer(attempts - 1);
  }
}

async function startServerOnce(): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-shippers-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', MODEL_CATALOG_SOURCE: path.join(ROOT, 'test/fixtures/litellm-small.json') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`server exited with ${child.exitCode}`);
    }
    if (attempt > 300) throw new Error('server did not become healthy');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    child,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function post(agent: http.Agent, port: number, pathname: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: pathname, method: 'POST', agent, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-length': body.length, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

interface Door {
  label: string;
  /** Sends one body; throws unless every event of it was stored. */
  send(agent: http.Agent, port: number, dataset: string, body: Buffer): Promise<void>;
}

const ndjson: Door = {
  label: 'NDJSON, POST /v1/datasets/{dataset}/ingest',
  async send(agent, port, dataset, body) {
    const { status, body: answer } = await post(agent, port, `/v1/datasets/${dataset}/ingest`, { 'content-type': 'application/x-ndjson' }, body);
    if (status !== 200 || (JSON.parse(answer.toString()) as { failed: number }).failed !== 0) throw new Error(`ndjson: ${status} ${answer}`);
  },
};

const otlpTraces: Door = {
  label: 'OTLP/HTTP protobuf, POST /v1/traces',
  async send(agent, port, dataset, body) {
    const { status, body: answer } = await post(agent, port, '/v1/traces', { 'content-type': 'application/x-protobuf', 'x-axiom-dataset': dataset }, body);
    // A full success is an empty ExportTraceServiceResponse.
    if (status !== 200 || answer.length !== 0) throw new Error(`otlp: ${status} ${answer.toString('hex')}`);
  },
};

const elasticBulk: Door = {
  label: 'Elasticsearch bulk, POST /v1/ingest/{dataset}/elastic/_bulk (filter_path as Beats send it)',
  async send(agent, port, dataset, body) {
    const path = `/v1/ingest/${dataset}/elastic/_bulk?filter_path=errors,items.*.error,items.*.status`;
    const { status, body: answer } = await post(agent, port, path, { 'content-type': 'application/x-ndjson' }, body);
    if (status !== 200 || (JSON.parse(answer.toString()) as { errors: boolean }).errors) throw new Error(`bulk: ${status} ${answer.toString().slice(0, 300)}`);
  },
};

/** A shipper's door beside the NDJSON path, both carrying the same events. */
interface Comparison {
  events: string;
  /** Map fields the datasets declare (OTLP declares `attributes.custom` itself; NDJSON's is declared for it). */
  mapFields: string[];
  baseline: { door: Door; bodies: (batchSize: number) => Buffer[] };
  shipper: { door: Door; bodies: (batchSize: number) => Buffer[] };
}

/** CPU seconds the server process has used (all its threads, DuckDB's included). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function drive(bodies: Buffer[], send: (body: Buffer) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < bodies.length) await send(bodies[next++]!);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function main() {
  const events = makeEvents(EVENTS);
  const spans = makeSpans(events);
  const comparisons: Comparison[] = [
    {
      events: 'HTTP server spans (21 fields stored)',
      mapFields: ['attributes.custom'],
      baseline: { door: ndjson, bodies: (size) => spanNdjsonBatches(spans, size) },
      shipper: { door: otlpTraces, bodies: (size) => traceBatches(spans, size) },
    },
    {
      events: 'log documents (12 fields stored)',
      mapFields: [],
      baseline: { door: ndjson, bodies: (size) => ndjsonBatches(events, size) },
      shipper: { door: elasticBulk, bodies: (size) => bulkBatches(events, size) },
    },
  ];
  const server = await startServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const createDataset = async (name: string) => {
    const response = await fetch(`http://127.0.0.1:${server.port}/v2/datasets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    if (!response.ok) throw new Error(`creating ${name}: ${response.status} ${await response.text()}`);
  };
  let run = 0;
  /** Events per second of wall time, and per CPU second of the server. */
  const measure = async (door: Door, bodies: Buffer[], mapFields: string[]) => {
    const dataset = `bench-${++run}`;
    await createDataset(dataset);
    for (const name of mapFields) {
      const response = await fetch(`http://127.0.0.1:${server.port}/v2/datasets/${dataset}/mapfields`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (!response.ok) throw new Error(`declaring ${name}: ${response.status} ${await response.text()}`);
    }
    const cpuBefore = cpuSecondsOf(server.child.pid!);
    const seconds = await drive(bodies, (body) => door.send(agent, server.port, dataset, body));
    return { wall: EVENTS / seconds, cpu: EVENTS / (cpuSecondsOf(server.child.pid!) - cpuBefore) };
  };
  try {
    console.log(`${EVENTS.toLocaleString('en-US')} events per run, ${CLIENTS} concurrent clients, one server child process, best of ${ROUNDS} rounds\n`);
    console.log('| events | batch | door | bytes/event | events/s | ratio | events per server CPU-second | ratio |');
    console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const comparison of comparisons) {
      for (const batchSize of BATCH_SIZES) {
        const baselineBodies = comparison.baseline.bodies(batchSize);
        const shipperBodies = comparison.shipper.bodies(batchSize);
        // The two take turns, each run into a fresh dataset, so that neither gains from going
        // first into a smaller store; the best of the rounds counts (the machine is shared).
        const baseline = { wall: 0, cpu: 0 };
        const shipper = { wall: 0, cpu: 0 };
        for (let round = 0; round < ROUNDS; round++) {
          for (const [door, bodies, best] of [
            [comparison.baseline.door, baselineBodies, baseline],
            [comparison.shipper.door, shipperBodies, shipper],
          ] as const) {
            const rates = await measure(door, bodies, comparison.mapFields);
            best.wall = Math.max(best.wall, rates.wall);
            best.cpu = Math.max(best.cpu, rates.cpu);
          }
        }
        const size = (bodies: Buffer[]) => (bodies.reduce((sum, body) => sum + body.length, 0) / EVENTS).toFixed(0);
        const batch = batchSize.toLocaleString('en-US');
        const row = (door: Door, bodies: Buffer[], rates: { wall: number; cpu: number }) =>
          `| ${comparison.events} | ${batch} | ${door.label} | ${size(bodies)} | ${formatRate(rates.wall)} | ${(rates.wall / baseline.wall).toFixed(2)} | ${formatRate(rates.cpu)} | ${(rates.cpu / baseline.cpu).toFixed(2)} |`;
        console.log(row(comparison.baseline.door, baselineBodies, baseline));
        console.log(row(comparison.shipper.door, shipperBodies, shipper));
      }
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

await main();
