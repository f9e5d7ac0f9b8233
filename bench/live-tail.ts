// Live tail cost on ingest: NDJSON ingest throughput over HTTP with no live tail open, then with
// 100 subscribers on the dataset being written (70 unfiltered, 30 spread over three filters),
// then with none again, in one run against one server process. Reported: events/s of each phase,
// the ratio with subscribers to without (the target: within 10%), what the subscribers received
// and the server's CPU seconds per phase.
//
//   npm run bench:live-tail
//   BENCH_EVENTS=400000 BENCH_SUBSCRIBERS=100 npm run bench:live-tail
import http from 'node:http';
import { ADMIN_TOKEN, type BenchServer, cpuSecondsOf, createDataset, drive, post, startServer } from './bench-server';
import { makeEvents, ndjsonBatches } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const BATCH = 1000;
const CLIENTS = 4;
const FILTERS = ['status >= 500', 'method == "POST"', 'region == "eu-west-1" and duration > 100'];

const LIVE_EVENTS = 'subscription($dataset: String!, $filter: String) { liveEvents(dataset: $dataset, filter: $filter) { skipped events } }';

/** One SSE subscription read by a plain HTTP client that counts what it receives. */
interface Listener {
  received: number;
  skipped: number;
  errors: number;
  close(): void;
}

function subscribe(port: number, dataset: string, filter: string | undefined): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const listener: Listener = { received: 0, skipped: 0, errors: 0, close: () => request.destroy() };
    let buffer = '';
    const request = http.request(
      { host: '127.0.0.1', port, path: '/graphql', method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`subscribing: ${response.statusCode}`));
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: {'));
            if (!data) continue;
            const payload = JSON.parse(data.slice(6));
            if (payload.errors) listener.errors++;
            listener.received += payload.data?.liveEvents?.events.length ?? 0;
            listener.skipped += payload.data?.liveEvents?.skipped ?? 0;
          }
        });
        response.on('error', () => undefined);
        resolve(listener);
      },
    );
    request.on('error', (error) => (listener.received === 0 ? reject(error) : undefined));
    request.end(JSON.stringify({ query: LIVE_EVENTS, variables: { dataset, ...(filter ? { filter } : {}) } }));
  });
}

async function ingestPhase(server: BenchServer, agent: http.Agent, dataset: string, bodies: Buffer[]) {
  const cpuBefore = cpuSecondsOf(server.child.pid!);
  const seconds = await drive(bodies, CLIENTS, async (body) => {
    const answer = await post(agent, server.port, `/v1/datasets/${dataset}/ingest`, { 'content-type': 'application/x-ndjson' }, body);
    if (answer.status !== 200) throw new Error(`ingest: ${answer.status} ${answer.body.toString()}`);
  });
  return { rate: EVENTS / seconds, cpu: cpuSecondsOf(server.child.pid!) - cpuBefore };
}

async function main() {
  // The caps must let one token hold every subscriber of the bench.
  process.env.LIVE_TAIL_MAX_PER_TOKEN = String(SUBSCRIBERS);
  process.env.LIVE_TAIL_MAX_SUBSCRIPTIONS = String(Math.max(500, SUBSCRIBERS));
  const server = await startServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const events = makeEvents(EVENTS);
    const bodies = ndjsonBatches(events, BATCH);
    const matching = FILTERS.map(() => 0);
    // Expected counts per filter, computed here from the events themselves.
    for (const event of events) {
      if (event.status >= 500) matching[0]!++;
      if (event.method === 'POST') matching[1]!++;
      if (event.region === 'eu-west-1' && event.duration > 100) matching[2]!++;
    }
    for (const name of ['warmup', 'none-before', 'tailed', 'none-after']) await createDataset(server.port, name);
    // Warm up the server (JIT, the store) on a dataset of its own.
    await ingestPhase(server, agent, 'warmup', bodies.slice(0, 50));
    // Seeded so that the filters bind to existing fields.
    await post(agent, server.port, '/v1/datasets/tailed/ingest', { 'content-type': 'application/x-ndjson' }, bodies[0]!.subarray(0, bodies[0]!.indexOf('\n')));

    const before = await ingestPhase(server, agent, 'none-before', bodies);

    const unfiltered = Math.round(SUBSCRIBERS * 0.7);
    const listeners: { filter: number | undefined; listener: Listener }[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const filter = i < unfiltered ? undefined : (i - unfiltered) % FILTERS.length;
      listeners.push({ filter, listener: await subscribe(server.port, 'tailed', filter === undefined ? undefined : FILTERS[filter]) });
    }
    const tailed = await ingestPhase(server, agent, 'tailed', bodies);
    const expected = (filter: number | undefined) => (filter === undefined ? EVENTS : matching[filter]!);
    const settled = Date.now();
    while (Date.now() - settled < 30_000 && listeners.some(({ filter, listener }) => listener.received + listener.skipped < expected(filter))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const drained = (Date.now() - settled) / 1000;
    const after = await ingestPhase(server, agent, 'none-after', bodies);
    for (const { listener } of listeners) listener.close();

    const without = (before.rate + after.rate) / 2;
    const complete = listeners.filter(({ filter, listener }) => listener.received + listener.skipped === expected(filter)).length;
    const skipped = listeners.reduce((sum, { listener }) => sum + listener.skipped, 0);
    const errors = listeners.reduce((sum, { listener }) => sum + listener.errors, 0);
    const rate = (value: number) => Math.round(value).toLocaleString('en-US');
    console.log(`NDJSON ingest, ${EVENTS.toLocaleString('en-US')} events in batches of ${BATCH}, ${CLIENTS} clients:`);
    console.log(`  no live tail (before):        ${rate(before.rate)} events/s  (server CPU ${before.cpu.toFixed(1)} s)`);
    console.log(`  ${SUBSCRIBERS} subscribers (${unfiltered} unfiltered, ${SUBSCRIBERS - unfiltered} over ${FILTERS.length} filters): ${rate(tailed.rate)} events/s  (server CPU ${tailed.cpu.toFixed(1)} s)`);
    console.log(`  no live tail (after):         ${rate(after.rate)} events/s  (server CPU ${after.cpu.toFixed(1)} s)`);
    console.log(`  ratio with subscribers / without: ${(tailed.rate / without).toFixed(3)} (target >= 0.90)`);
    console.log(`  subscribers complete (received + skipped = expected): ${complete}/${SUBSCRIBERS}, skipped ${skipped}, errors ${errors}, last events ${drained.toFixed(1)} s after the last ingest answer`);
  } finally {
    agent.destroy();
    await server.stop();
  }
}

await main();
