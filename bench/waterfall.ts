// The trace page in Debian's Chromium against a server holding one trace of 10,000 spans (a
// tree of a few services, up to ten levels deep, with errors and span events), a few thousand
// spans of other traces and 200,000 other events in the same dataset, all ingested through the
// API (the spans as OTLP/JSON on /v1/traces). Measured, median of several fresh page loads:
//   - navigation to the first waterfall row painted: from the navigation's start (the page's
//     time origin) to the frame after the first row is in the document, and of it the page's
//     own part after the spans arrive (reading them, building the tree, the render and paint);
//   - the spans query alone: the request the page sends for the spans (its first query), posted
//     from Node to the tabular query API (wall time, and the server's own elapsed time).
// Target: the first row painted within 1 s.
//
//   npm run bench:waterfall
//   BENCH_RUNS=3 BENCH_EVENTS=20000 npm run bench:waterfall
//   BENCH_SHOW_SQL=1 npm run bench:waterfall      # also prints the SQL the spans query runs
//   BENCH_TIMELINE=1 npm run bench:waterfall      # and the last load's requests on the page's clock
//   BENCH_PROFILE=1 npm run bench:waterfall       # and where the last load spent the page's CPU
//   BENCH_LATENCY_MS=50 npm run bench:waterfall   # each request of the page 50 ms longer, as over a network
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { DuckDBEventStore } from '../src/events/store/event-store';
import { ingestBodies, spreadBodies } from './ingest-events';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const TRACE_SPANS = Number(process.env.BENCH_SPANS ?? 10_000);
const OTHER_TRACES = 60;
const OTHER_TRACE_SPANS = 50;
const TARGET_MS = 1000;
/** A round trip added to every request of the page (Chromium's network emulation), as between a browser and a distant server. */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const TOKEN = 'xapt-bench-waterfall-token-000000000';
const PASSWORD = 'bench-waterfall-password';
const DATASET = 'bench-traces';
const CHROMIUM = '/usr/bin/chromium';
const DIST = process.env.CONSOLE_DIST_DIR ?? fileURLToPath(new URL('../console/dist', import.meta.url));
const START_MS = Date.parse('2024-01-01T00:00:00Z');
const DAY_MS = 24 * 3_600_000;
/** The big trace starts in the middle of the day the other events cover. */
const TRACE_START_MS = START_MS + DAY_MS / 2;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A small fast PRNG so every run sends the same trace. */
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

const SERVICES: { name: string; operations: string[] }[] = [
  { name: 'frontend', operations: ['GET /checkout', 'render cart', 'GET /api/cart', 'load session'] },
  { name: 'checkout', operations: ['POST /orders', 'validate order', 'reserve stock', 'queue email'] },
  { name: 'payments', operations: ['charge card', 'call bank', 'fraud check', 'write ledger'] },
  { name: 'inventory', operations: ['SELECT stock', 'UPDATE stock', 'cache get', 'cache set'] },
  { name: 'search', operations: ['query index', 'rank results', 'fetch facets'] },
];

interface PlannedSpan {
  spanId: string;
  parentSpanId: string;
  depth: number;
  startNs: bigint;
  endNs: bigint;
  service: number;
}

const otlpValue = (value: string | number | boolean) =>
  typeof value === 'string' ? { stringValue: value } : typeof value === 'number' ? (Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value }) : { boolValue: value };
const otlpAttributes = (attributes: Record<string, string | number | boolean>) => Object.entries(attributes).map(([key, value]) => ({ key, value: otlpValue(value) }));

/**
 * A trace of `count` spans as OTLP/JSON resourceSpans (one per service): each span hangs under
 * a recent one no deeper than `maxDepth - 1`, starts inside its parent and ends before it.
 * About 2% fail, about 5% carry span events; every span has a few attributes.
 */
function traceRequest(traceId: string, count: number, startMs: number, seed: number, maxDepth: number, errorShare = 0.02) {
  const next = random(seed);
  const hex16 = () => Array.from({ length: 2 }, () => Math.floor(next() * 2 ** 32).toString(16).padStart(8, '0')).join('');
  const rootStart = BigInt(startMs) * 1_000_000n;
  const planned: PlannedSpan[] = [{ spanId: hex16(), parentSpanId: '', depth: 0, startNs: rootStart, endNs: rootStart + 8_000_000_000n, service: 0 }];
  while (planned.length < count) {
    // Recent spans are likelier parents, which makes the tree deep as well as wide.
    let parent = planned[planned.length - 1 - Math.floor(next() ** 3 * planned.length)]!;
    while (parent.depth >= maxDepth - 1) parent = planned.find((candidate) => candidate.spanId === parent.parentSpanId)!;
    const room = Number(parent.endNs - parent.startNs);
    const startNs = parent.startNs + BigInt(Math.floor(next() * room * 0.7));
    const endNs = startNs + BigInt(Math.max(1000, Math.floor(next() * Number(parent.endNs - startNs))));
    const service = next() < 0.6 ? parent.service : Math.floor(next() * SERVICES.length);
    planned.push({ spanId: hex16(), parentSpanId: parent.spanId, depth: parent.depth + 1, startNs, endNs, service });
  }
  const byService = SERVICES.map(() => [] as Record<string, unknown>[]);
  planned.forEach((span, index) => {
    const service = SERVICES[span.service]!;
    const failed = index > 0 && next() < errorShare;
    const withEvents = next() < 0.05;
    byService[span.service]!.push({
      traceId,
      spanId: span.spanId,
      ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
      name: service.operations[Math.floor(next() * service.operations.length)]!,
      kind: index === 0 ? 2 : 1 + Math.floor(next() * 3),
      startTimeUnixNano: String(span.startNs),
      endTimeUnixNano: String(span.endNs),
      attributes: otlpAttributes({
        'http.request.method': next() < 0.7 ? 'GET' : 'POST',
        'url.path': `/api/v1/items/${Math.floor(next() * 5000)}`,
        'db.query.text': `SELECT id, name, price, stock FROM items WHERE id = ${Math.floor(next() * 100_000)} AND region = 'eu-west-1'`,
        'app.user.id': `user${Math.floor(next() * 20_000)}`,
        'app.retry.count': Math.floor(next() * 3),
      }),
      ...(withEvents
        ? { events: [{ name: failed ? 'exception' : 'cache miss', timeUnixNano: String(span.startNs + (span.endNs - span.startNs) / 2n), attributes: otlpAttributes({ 'exception.message': 'timeout talking to upstream', attempt: 2 }) }] }
        : {}),
      status: failed ? { code: 2, message: 'upstream timed out' } : { code: 1 },
    });
  });
  return {
    resourceSpans: SERVICES.map((service, index) => ({
      resource: { attributes: otlpAttributes({ 'service.name': service.name, 'service.version': '2.4.1', 'host.name': `${service.name}-7f9c`, 'deployment.environment': 'production' }) },
      scopeSpans: [{ scope: { name: 'shop', version: '1.0.0' }, spans: byService[index]! }],
    })).filter((resource) => resource.scopeSpans[0]!.spans.length > 0),
  };
}

// In-page code is plain JavaScript text (tsx's helpers exist only in Node). Installed before
// the page's own scripts: resolves, on the page's clock (0 = navigation start), the frame after
// the first waterfall row is in the document.
const FIRST_ROW_WATCH = `(() => {
  window.__firstRowPainted = new Promise((resolve) => {
    const seen = () => document.querySelector('[role="tree"][aria-label="Spans"] [role="treeitem"]');
    const done = () => requestAnimationFrame(() => resolve(performance.now()));
    const observer = new MutationObserver(() => {
      if (seen()) {
        observer.disconnect();
        done();
      }
    });
    const start = () => observer.observe(document.documentElement, { childList: true, subtree: true });
    if (document.documentElement) start();
    else document.addEventListener('DOMContentLoaded', start);
  });
})()`;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions the page spent most of its own time in, from a Chromium CPU profile. */
function printProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
  });
  console.log('page CPU, self time:');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(7)} ms ${name.slice(0, 100)}`);
}

interface SpansRequest {
  apl: string;
  startTime?: string;
  endTime?: string;
  limit?: number;
}

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  if (!existsSync(path.join(DIST, 'index.html'))) throw new Error(`the console is not built in ${DIST}: npm run build:console`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-waterfall-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN, ADMIN_PASSWORD: PASSWORD, MODEL_CATALOG_SOURCE: '/nonexistent', CONSOLE_DIST_DIR: DIST });
  const app = await createApp(config);
  const url = await app.server.listen({ host: '127.0.0.1', port: 0 });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await post(`${url}/v2/datasets`, { name: DATASET }, headers);
    const traceHeaders = { ...headers, 'x-axiom-dataset': DATASET };
    const started = performance.now();
    // Other traces around the big one, before and after it in time.
    for (let other = 0; other < OTHER_TRACES; other++) {
      const at = TRACE_START_MS + (other - OTHER_TRACES / 2) * 30_000;
      await post(`${url}/v1/traces`, traceRequest(randomBytes(16).toString('hex'), OTHER_TRACE_SPANS, at, 1000 + other, 6, 0.05), traceHeaders);
    }
    const traceId = randomBytes(16).toString('hex');
    await post(`${url}/v1/traces`, traceRequest(traceId, TRACE_SPANS, TRACE_START_MS, 7, 10), traceHeaders);
    await ingestBodies(url, TOKEN, DATASET, spreadBodies(EVENTS, 10_000, START_MS, DAY_MS));
    const spanCount = TRACE_SPANS + OTHER_TRACES * OTHER_TRACE_SPANS;
    console.log(`ingested ${spanCount.toLocaleString('en-US')} spans and ${EVENTS.toLocaleString('en-US')} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const orgs = (await (await fetch(`${url}/v2/orgs`, { headers })).json()) as { id: string }[];
    const org = orgs[0]!.id;
    const range = { start: new Date(START_MS).toISOString(), end: new Date(START_MS + DAY_MS).toISOString() };
    const pageUrl = `${url}/app/${org}/traces/${traceId}?${new URLSearchParams({ dataset: DATASET, ...range })}`;

    // Sign in once; each load is a fresh context (empty cache) with the session cookie.
    const first = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const signInPage = await first.newPage();
    await signInPage.goto(`${url}/app/`);
    await signInPage.getByLabel('Email').fill('admin@localhost');
    await signInPage.getByLabel('Password').fill(PASSWORD);
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    await signInPage.getByRole('navigation', { name: 'Main' }).waitFor();
    const storageState = await first.storageState();
    await first.close();

    const firstRows: number[] = [];
    let summary = '';
    let spansRequest: SpansRequest | undefined;
    const phases: { queryStart: number; queryEnd: number; treeBuilt: number; painted: number }[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, storageState });
      await context.addInitScript(FIRST_ROW_WATCH);
      const page = await context.newPage();
      if (LATENCY_MS > 0) {
        const network = await context.newCDPSession(page);
        await network.send('Network.enable');
        await network.send('Network.emulateNetworkConditions', { offline: false, latency: LATENCY_MS, downloadThroughput: -1, uploadThroughput: -1 });
      }
      const profiler = process.env.BENCH_PROFILE && run === RUNS ? await context.newCDPSession(page) : undefined;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await profiler.send('Profiler.start');
      }
      // The page's first query is the spans' (the logs wait for the waterfall).
      if (run === 0) page.on('request', (request) => (spansRequest ??= request.url().includes('/v1/datasets/_apl') ? (JSON.parse(request.postData() ?? '{}') as SpansRequest) : undefined));
      await page.goto(pageUrl);
      page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
      const paintedAt = (await page.evaluate('Promise.race([window.__firstRowPainted, new Promise((resolve) => setTimeout(() => resolve(-1), 30000))])')) as number;
      if (paintedAt < 0) throw new Error(`no waterfall row within 30 s; the page shows: ${await page.locator('main').textContent()}`);
      // Where the time went, on the same clock: the spans query's request (the first query) start and end.
      const [queryStart, queryEnd, treeBuilt] = (await page.evaluate(
        `(() => {
          const entry = performance.getEntriesByType('resource').find((candidate) => candidate.name.includes('/v1/datasets/_apl'));
          const built = performance.getEntriesByName('trace tree built')[0];
          return entry ? [entry.startTime, entry.responseEnd, built ? built.duration : -1] : [-1, -1, -1];
        })()`,
      )) as [number, number, number];
      if (run > 0) phases.push({ queryStart, queryEnd, treeBuilt, painted: paintedAt });
      if (process.env.BENCH_TIMELINE && run === RUNS) {
        const timeline = (await page.evaluate(
          `performance.getEntriesByType('resource').map((entry) => [Math.round(entry.startTime), Math.round(entry.responseEnd), entry.transferSize, entry.name.replace(location.origin, '')])`,
        )) as [number, number, number, string][];
        for (const [from, to, bytes, name] of timeline) console.log(`  ${String(from).padStart(5)} - ${String(to).padStart(5)} ms ${String(bytes).padStart(8)} B ${name.slice(0, 90)}`);
        console.log(`  first row painted at ${paintedAt.toFixed(0)} ms`);
      }
      if (profiler) printProfile(((await profiler.send('Profiler.stop')) as { profile: CpuProfile }).profile);
      // The page's later queries (the logs) finish before the next load starts.
      await page.waitForLoadState('networkidle');
      if (run === 0) {
        summary = (await page.locator('.trace-summary').textContent()) ?? '';
        if (!summary.includes(`${TRACE_SPANS.toLocaleString('en-US')} spans`)) throw new Error(`the page shows "${summary}"`);
      } else firstRows.push(paintedAt); // the first load warms the server's caches
      await context.close();
    }

    // The spans query alone, from Node, as the page sent it.
    if (!spansRequest) throw new Error('the page sent no query');
    const { apl } = spansRequest;
    // The event store's own time for the statement (what is left of the server's time is
    // compiling, reading the rows into values and shaping the answer).
    const statementTimes: number[] = [];
    const query = DuckDBEventStore.prototype.query;
    DuckDBEventStore.prototype.query = async function timed(this: DuckDBEventStore, ...args: Parameters<typeof query>) {
      if (process.env.BENCH_SHOW_SQL && statementTimes.length === 0) console.log(`SQL: ${args[0]}\nparameters: ${JSON.stringify(args[1])}`);
      const begin = performance.now();
      const result = await query.apply(this, args);
      statementTimes.push(performance.now() - begin);
      return result;
    };
    const wallTimes: number[] = [];
    const serverTimes: number[] = [];
    let rows = 0;
    for (let run = 0; run <= RUNS; run++) {
      const begin = performance.now();
      const answer = (await post(`${url}/v1/datasets/_apl?format=tabular`, spansRequest, { ...headers, 'accept-encoding': process.env.BENCH_ENCODING ?? 'gzip, deflate, br, zstd' })) as {
        status: { elapsedTime: number };
        tables: { columns: unknown[][] }[];
      };
      if (run === 0) {
        rows = answer.tables[0]?.columns[0]?.length ?? 0;
        continue;
      }
      wallTimes.push(performance.now() - begin);
      serverTimes.push(answer.status.elapsedTime / 1000);
    }

    const [load1, load5] = (await import('node:os')).loadavg();
    console.log(`\none trace of ${TRACE_SPANS.toLocaleString('en-US')} spans among ${spanCount.toLocaleString('en-US')} spans and ${EVENTS.toLocaleString('en-US')} events; ${RUNS} runs each; load average ${load1!.toFixed(2)}, ${load5!.toFixed(2)}`);
    console.log(`page: ${summary}`);
    console.log(`spans query: ${apl}  (${rows.toLocaleString('en-US')} rows)`);
    const report: [string, string, string][] = [
      ['navigation to the first waterfall row painted (median)', `${median(firstRows).toFixed(0)} ms`, `<= ${TARGET_MS} ms`],
      ['  the page sends the spans query at (median)', `${median(phases.map((phase) => phase.queryStart)).toFixed(0)} ms`, ''],
      ['  the page has its answer at (median)', `${median(phases.map((phase) => phase.queryEnd)).toFixed(0)} ms`, ''],
      ['  reading the spans and building the tree (median)', `${median(phases.map((phase) => phase.treeBuilt)).toFixed(0)} ms`, ''],
      ['  from the answer to the first row painted (median)', `${median(phases.map((phase) => phase.painted - phase.queryEnd)).toFixed(0)} ms`, ''],
      ['  the spans query from Node, wall time (median)', `${median(wallTimes).toFixed(0)} ms`, ''],
      ['  the spans query, server elapsed time (median)', `${median(serverTimes).toFixed(0)} ms`, ''],
      ['    of which the event store statement (median)', `${median(statementTimes.slice(1)).toFixed(0)} ms`, ''],
    ];
    for (const [what, figure, target] of report) console.log(`${what.padEnd(56)} ${figure.padEnd(10)} ${target ? `target ${target}` : ''}`);
    console.log(`first rows: ${firstRows.map((ms) => ms.toFixed(0)).join(', ')} ms; spans query: ${wallTimes.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
