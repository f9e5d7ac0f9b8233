// Mixed load: ingest, APL and legacy queries, catalog REST and GraphQL, GraphQL event pages and
// health checks sent at once by many keep-alive connections for a fixed time, against the
// server as its own process. Reports the latency percentiles of each kind of request, the
// answers that were not 2xx, and the server's resident memory (sampled, and its peak).
//
//   npm run bench:load                                   # 60 s, 32 connections, this checkout
//   npm run bench:load -- --seconds 20 --connections 8
//   npm run bench:load -- --root /path/to/other/checkout # the same load against another tree
//   npm run bench:load -- --only ingest,apl              # only these kinds of request
//
// `--root` runs the server of another checkout (with its own node_modules) so two versions
// can be compared on the same machine in the same session.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeEvents, ndjsonBody } from './ingest-events';
import { serverArgs } from './server-command';

const HERE = fileURLToPath(new URL('..', import.meta.url));

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

const ROOT = path.resolve(option('root', HERE));
const SECONDS = Number(option('seconds', '60'));
const CONNECTIONS = Number(option('connections', '32'));
const ADMIN_TOKEN = 'xapt-bench-admin-token-0123456789';
const DATASETS = ['load-a', 'load-b', 'load-c', 'load-d'];
const REAL_CATALOG = path.resolve(HERE, '../shared/data/litellm/model_prices_and_context_window.json');
const CATALOG = existsSync(REAL_CATALOG) ? REAL_CATALOG : path.join(HERE, 'test/fixtures/litellm-small.json');

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  body?: Buffer;
  contentType?: string;
}

/** A small fast PRNG so every run sends the same sequence. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const graphql = (query: string): Sent => ({ method: 'POST', path: '/graphql', body: json({ query }), contentType: 'application/json' });

// Ingest bodies of 200 events, prepared once so the client spends its time sending.
const INGEST_BODIES = Array.from({ length: 50 }, (_, i) => ndjsonBody(makeEvents(200, 100 + i).map((event) => ({ ...event, _time: new Date().toISOString() }))));

const APL = [
  "['load-a'] | summarize count() by bin(_time, 1m)",
  "['load-b'] | where status >= 500 | summarize count() by uri | top 10 by count_",
  "['load-c'] | where uri contains '/items/1' | take 100",
  "['load-d'] | summarize dcount(user), percentile(duration, 99) by method",
];

/** The kinds of request and how often each is sent (weights). */
const KINDS: { name: string; weight: number; make(next: () => number): Sent }[] = [
  {
    name: 'ingest',
    weight: 30,
    make: (next) => ({
      method: 'POST',
      path: `/v1/datasets/${DATASETS[Math.floor(next() * DATASETS.length)]}/ingest`,
      body: INGEST_BODIES[Math.floor(next() * INGEST_BODIES.length)]!,
      contentType: 'application/x-ndjson',
    }),
  },
  {
    name: 'apl',
    weight: 20,
    make: (next) => ({
      method: 'POST',
      path: '/v1/datasets/_apl?format=tabular',
      body: json({ apl: APL[Math.floor(next() * APL.length)], startTime: 'now-1d', endTime: 'now' }),
      contentType: 'application/json',
    }),
  },
  {
    name: 'legacy query',
    weight: 10,
    make: (next) => ({
      method: 'POST',
      path: `/v1/datasets/${DATASETS[Math.floor(next() * DATASETS.length)]}/query`,
      body: json({
        startTime: 'now-1d',
        endTime: 'now',
        resolution: 'auto',
        groupBy: ['method'],
        aggregations: [{ op: 'count', field: '*' }, { op: 'avg', field: 'duration' }],
        filter: { op: '>=', field: 'status', value: 400 },
      }),
      contentType: 'application/json',
    }),
  },
  {
    name: 'catalog REST',
    weight: 15,
    make: (next) => {
      const paths = ['/api/v1/models?providers=openai,anthropic', '/api/v1/models/gpt-4o', '/api/v1/providers?filter=xai', '/api/v1/metadata', '/api/v1/models?format=csv&headers=true&type=embedding'];
      return { method: 'GET', path: paths[Math.floor(next() * paths.length)]! };
    },
  },
  {
    name: 'catalog GraphQL',
    weight: 10,
    make: (next) =>
      graphql(
        next() < 0.5
          ? '{ models(first: 20, filter: { providers: ["openai"] }) { totalCount edges { node { modelId inputCostPerMillion } } } }'
          : '{ providers(first: 5) { edges { node { providerId models(first: 3) { edges { node { modelId } } } } } } }',
      ),
  },
  {
    name: 'GraphQL events',
    weight: 10,
    make: (next) => graphql(`{ events(dataset: "${DATASETS[Math.floor(next() * DATASETS.length)]}", first: 50, filter: "status >= 400") { edges { node { rowId data } } } }`),
  },
  { name: 'healthz', weight: 5, make: () => ({ method: 'GET', path: '/healthz' }) },
];

/** `--only ingest,apl`: send only these kinds (to see what one kind costs). */
const ONLY = option('only', '')
  .split(',')
  .filter(Boolean);
const SENT_KINDS = ONLY.length ? KINDS.filter((kind) => ONLY.includes(kind.name)) : KINDS;

function pickKind(next: () => number) {
  const total = SENT_KINDS.reduce((sum, kind) => sum + kind.weight, 0);
  let roll = next() * total;
  for (const kind of SENT_KINDS) {
    roll -= kind.weight;
    if (roll < 0) return kind;
  }
  return SENT_KINDS.at(-1)!;
}

function send(agent: http.Agent, port: number, sent: Sent, auth = true): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (auth) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
    if (sent.body) {
      headers['content-type'] = sent.contentType ?? 'application/json';
      headers['content-length'] = sent.body.length;
    }
    const request = http.request({ host: '127.0.0.1', port, path: sent.path, method: sent.method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(sent.body);
  });
}

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function startServer(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, serverArgs(ROOT), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', MODEL_CATALOG_SOURCE: CATALOG },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-load-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  console.log(`Server: ${ROOT}, catalog ${path.basename(CATALOG)}; ${CONNECTIONS} connections for ${SECONDS} s`);
  const child = await startServer(dir, port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    for (const name of DATASETS) {
      const created = await send(agent, port, { method: 'POST', path: '/v2/datasets', body: json({ name }), contentType: 'application/json' });
      if (created.status !== 200) throw new Error(`creating ${name}: ${created.status} ${created.body}`);
      // 10,000 events each before the clock starts, so queries have something to read.
      for (const body of INGEST_BODIES.slice(0, 100)) await send(agent, port, { method: 'POST', path: `/v1/datasets/${name}/ingest`, body, contentType: 'application/x-ndjson' });
    }
    const before = memoryOf(child.pid!);
    const latencies = new Map<string, number[]>(KINDS.map((kind) => [kind.name, []]));
    const failures = new Map<string, Map<number | string, number>>();
    let maxRss = 0;
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, memoryOf(child.pid!).rss);
    }, 200);
    const deadline = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, worker) => {
        const next = random(1000 + worker);
        while (performance.now() < deadline) {
          const kind = pickKind(next);
          const sent = kind.make(next);
          const started = performance.now();
          let outcome: number | string;
          try {
            outcome = (await send(agent, port, sent, kind.name !== 'healthz' && !kind.name.startsWith('catalog'))).status;
          } catch (error) {
            outcome = (error as NodeJS.ErrnoException).code ?? 'error';
          }
          latencies.get(kind.name)!.push(performance.now() - started);
          if (typeof outcome !== 'number' || outcome >= 300) {
            const byOutcome = failures.get(kind.name) ?? new Map<number | string, number>();
            byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
            failures.set(kind.name, byOutcome);
          }
        }
      }),
    );
    clearInterval(sampler);
    const after = memoryOf(child.pid!);

    console.log('\n| request | count | not 2xx | p50 ms | p99 ms | max ms |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    let total = 0;
    for (const kind of KINDS) {
      const sorted = latencies.get(kind.name)!.sort((a, b) => a - b);
      total += sorted.length;
      const failed = [...(failures.get(kind.name)?.entries() ?? [])].map(([outcome, count]) => `${count} × ${outcome}`).join(', ') || '0';
      console.log(`| ${kind.name} | ${sorted.length} | ${failed} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${(sorted.at(-1) ?? 0).toFixed(1)} |`);
    }
    console.log(`\n${total} requests in ${SECONDS} s (${Math.round(total / SECONDS)}/s).`);
    console.log(
      `Server RSS: ${(before.rss / 2 ** 20).toFixed(0)} MB before the load, up to ${(maxRss / 2 ** 20).toFixed(0)} MB sampled during it, ` +
        `${(after.rss / 2 ** 20).toFixed(0)} MB after; peak (VmHWM) ${(after.peak / 2 ** 20).toFixed(0)} MB.`,
    );
  } finally {
    agent.destroy();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
