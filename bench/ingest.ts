// Ingest speed: NDJSON events (12 fields) through the product, beside DuckDB's own appender
// loading the same already-typed rows directly, in the same run on the same machine.
//
//   npm run bench:ingest                 # HTTP: spawns the server, measures events/s and memory
//   npm run bench:ingest -- --service    # the IngestService in-process (no HTTP), for comparison
//   BENCH_EVENTS=200000 BENCH_MEMORY_EVENTS=1000000 npm run bench:ingest
//   BENCH_SERVER_NODE_ARGS='--cpu-prof' npm run bench:ingest   # flags for the server's node
//
// Reported: events/s per batch size (1000, 10000) and client count (1, 4), the ratio to the raw
// appender, bytes on disk per event, and the server's peak RSS while ingesting
// BENCH_MEMORY_EVENTS events (the target: under 400 MB for 1,000,000).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, DuckDBTimestampNanosecondsValue } from '@duckdb/node-api';
import { quoteIdentifier } from '../src/engines/duckdb/layout';
import { makeEvents, ndjsonBatches, RAW_COLUMNS, type TypedRow, typedRows } from './ingest-events';
import { serverArgs } from './server-command';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const MEMORY_EVENTS = Number(process.env.BENCH_MEMORY_EVENTS ?? 1_000_000);
const BATCH_SIZES = [1000, 10_000];
const CLIENTS = [1, 4];
const serviceMode = process.argv.includes('--service');

const formatRate = (rate: number) => `${Math.round(rate).toLocaleString('en-US')}`;

/** DuckDB's appender, value by value, in transactions of `transactionRows`: the store's raw limit. */
async function rawAppenderRate(rows: TypedRow[], transactionRows = 10_000): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-raw-'));
  try {
    const instance = await DuckDBInstance.create(path.join(dir, 'raw.duckdb'));
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE raw (${RAW_COLUMNS.map(([name, type]) => `${quoteIdentifier(name)} ${type}`).join(', ')})`);
    const started = performance.now();
    for (let offset = 0; offset < rows.length; offset += transactionRows) {
      await connection.run('BEGIN TRANSACTION');
      const appender = await connection.createAppender('raw');
      for (const row of rows.slice(offset, offset + transactionRows)) {
        appender.appendTimestampNanoseconds(new DuckDBTimestampNanosecondsValue(row[0]));
        appender.appendTimestampNanoseconds(new DuckDBTimestampNanosecondsValue(row[1]));
        appender.appendBigInt(row[2]);
        appender.appendVarchar(row[3]);
        appender.appendVarchar(row[4]);
        appender.appendBigInt(row[5]);
        appender.appendDouble(row[6]);
        appender.appendVarchar(row[7]);
        appender.appendVarchar(row[8]);
        appender.appendVarchar(row[9]);
        appender.appendBigInt(row[10]);
        appender.appendBoolean(row[11]);
        appender.appendVarchar(row[12]);
        appender.appendVarchar(row[13]);
        appender.appendVarchar(row[14]);
        appender.endRow();
      }
      appender.closeSync();
      await connection.run('COMMIT');
    }
    const seconds = (performance.now() - started) / 1000;
    connection.closeSync();
    instance.closeSync();
    return rows.length / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends every body with `clients` concurrent senders; returns events/s. */
async function drive(bodies: Buffer[], eventsPerBody: number, clients: number, send: (body: Buffer) => Promise<number>): Promise<number> {
  let next = 0;
  let ingested = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const count = await send(body);
        ingested += count;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (ingested !== bodies.length * eventsPerBody) throw new Error(`expected ${bodies.length * eventsPerBody} events ingested, got ${ingested}`);
  return ingested / seconds;
}

interface Target {
  label: string;
  createDataset(name: string): Promise<void>;
  ingest(dataset: string, body: Buffer): Promise<number>;
  /** Bytes of the events database (after a checkpoint), and the peak RSS so far (bytes), if known. */
  finish(): Promise<{ diskBytes: number; peakRss?: number }>;
}

// -- in-process IngestService ------------------------------------------------------------------

async function serviceTarget(): Promise<Target> {
  const { openRelationalStore } = await import('../src/db/store');
  const { DatasetEvents } = await import('../src/ingest/dataset-events');
  const { IngestService } = await import('../src/ingest/ingest-service');
  const { FieldRegistry } = await import('../src/datasets/schema/field-registry');
  const { DuckDBEventStore } = await import('../src/events/store/event-store');
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-service-'));
  const relational = await openRelationalStore(path.join(dir, 'eventdeck.db'));
  const store = await DuckDBEventStore.open(path.join(dir, 'events.duckdb'));
  const registry = new FieldRegistry(relational.repository, store);
  const writer = new DatasetEvents(store, registry, 1024);
  const service = new IngestService(writer, store);
  const now = new Date().toISOString();
  relational.sqlite.prepare(`INSERT INTO organizations (id, name, updated_at) VALUES ('bench', 'bench', ?)`).run(now);
  const datasets = new Map<string, { id: string; name: string; tableName: string }>();
  return {
    label: 'IngestService (in-process, no HTTP)',
    async createDataset(name) {
      const dataset = { id: name, name, tableName: `ds_${name.replaceAll('-', '_')}` };
      relational.sqlite
        .prepare(`INSERT INTO datasets (id, org_id, name, table_name, created_by, updated_at) VALUES (?, 'bench', ?, ?, 'bench', ?)`)
        .run(dataset.id, name, dataset.tableName, now);
      await writer.createTable(dataset.tableName);
      datasets.set(name, dataset);
    },
    async ingest(dataset, body) {
      const status = await service.ingest(datasets.get(dataset)!, { body, contentType: 'application/x-ndjson' });
      return status.ingested;
    },
    async finish() {
      await store.close();
      await relational.close();
      const diskBytes = statSync(path.join(dir, 'events.duckdb')).size;
      rmSync(dir, { recursive: true, force: true });
      return { diskBytes, peakRss: process.resourceUsage().maxRSS * 1024 };
    },
  };
}

// -- the server as a child process, over HTTP --------------------------------------------------

const ADMIN_TOKEN = 'xapt-bench-admin-token-0123456789';

function peakRssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

// A plain keep-alive HTTP client: lighter than fetch, so the client steals less CPU from the
// server on a small machine.
function post(agent: http.Agent, port: number, pathname: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson', 'content-length': body.length },
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

async function httpTarget(): Promise<Target> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-http-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverArgs(ROOT), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', MODEL_CATALOG_SOURCE: path.join(ROOT, 'test/fixtures/litellm-small.json') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(url, child);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  return {
    label: 'HTTP (server child process, NDJSON POST /v1/datasets/:dataset/ingest)',
    async createDataset(name) {
      const response = await fetch(`${url}/v2/datasets`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      if (!response.ok) throw new Error(`creating dataset ${name}: ${response.status} ${await response.text()}`);
    },
    async ingest(dataset, body) {
      const { status, text } = await post(agent, port, `/v1/datasets/${dataset}/ingest`, body);
      if (status !== 200) throw new Error(`ingest: ${status} ${text}`);
      return (JSON.parse(text) as { ingested: number }).ingested;
    },
    async finish() {
      const peakRss = peakRssOf(child.pid!);
      agent.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM'); // graceful: checkpoints the store
      await exited;
      const diskBytes = statSync(path.join(dir, 'events.duckdb')).size;
      rmSync(dir, { recursive: true, force: true });
      return { diskBytes, peakRss };
    },
  };
}

// -- run ---------------------------------------------------------------------------------------

async function main() {
  console.log(`Generating ${EVENTS.toLocaleString('en-US')} events of 12 fields...`);
  const events = makeEvents(EVENTS);
  const rows = typedRows(events);
  const bytesPerEvent = ndjsonBatches(events.slice(0, 1000), 1000)[0]!.length / 1000;
  console.log(`NDJSON: ${bytesPerEvent.toFixed(0)} bytes per event\n`);

  // The machine may be busy; the better of two raw runs is the (stricter) baseline.
  const raw = Math.max(await rawAppenderRate(rows), await rawAppenderRate(rows));
  console.log(`DuckDB appender, typed rows, 10,000-row transactions: ${formatRate(raw)} rows/s (best of 2; the baseline)`);
  // For context: what committing every 1,000 rows costs DuckDB itself.
  const raw1000 = await rawAppenderRate(rows, 1000);
  console.log(`DuckDB appender, typed rows, 1,000-row transactions: ${formatRate(raw1000)} rows/s\n`);

  const target = serviceMode ? await serviceTarget() : await httpTarget();
  console.log(target.label);
  console.log('| batch | clients | events/s | ratio to raw appender |');
  console.log('| ---: | ---: | ---: | ---: |');
  let dataset = 0;
  for (const batchSize of BATCH_SIZES) {
    const bodies = ndjsonBatches(events, batchSize);
    for (const clients of CLIENTS) {
      const name = `bench-${batchSize}-${clients}-${++dataset}`;
      await target.createDataset(name);
      const rate = await drive(bodies, batchSize, clients, (body) => target.ingest(name, body));
      console.log(`| ${batchSize.toLocaleString('en-US')} | ${clients} | ${formatRate(rate)} | ${(rate / raw).toFixed(2)} |`);
    }
  }

  const matrix = await target.finish();
  const matrixEvents = EVENTS * BATCH_SIZES.length * CLIENTS.length;
  report('the runs above', matrix, matrixEvents);

  if (MEMORY_EVENTS > 0) {
    // A fresh server that does nothing but take MEMORY_EVENTS events into one dataset.
    const fresh = serviceMode ? await serviceTarget() : await httpTarget();
    console.log(`\nA fresh server ingesting ${MEMORY_EVENTS.toLocaleString('en-US')} events (batches of 10,000, 4 clients) into one dataset...`);
    await fresh.createDataset('bench-memory');
    const bodies = ndjsonBatches(makeEvents(100_000, 7), 10_000);
    let sent = 0;
    const started = performance.now();
    while (sent < MEMORY_EVENTS) {
      const round = bodies.slice(0, Math.min(bodies.length, Math.ceil((MEMORY_EVENTS - sent) / 10_000)));
      await drive(round, 10_000, 4, (body) => fresh.ingest('bench-memory', body));
      sent += round.length * 10_000;
    }
    const rate = sent / ((performance.now() - started) / 1000);
    console.log(`${formatRate(rate)} events/s over the whole run`);
    report('this run', await fresh.finish(), sent);
  }
}

function report(what: string, { diskBytes, peakRss }: { diskBytes: number; peakRss?: number }, events: number) {
  const disk = `${(diskBytes / 1024 / 1024).toFixed(1)} MB on disk for ${events.toLocaleString('en-US')} events = ${(diskBytes / events).toFixed(1)} bytes per event (after checkpoint)`;
  const rss = peakRss ? `; peak RSS of the ${serviceMode ? 'benchmark process' : 'server process'}: ${(peakRss / 1024 / 1024).toFixed(0)} MB` : '';
  console.log(`After ${what}: ${disk}${rss}`);
}

await main();
