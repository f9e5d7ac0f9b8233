// Live tail cost on ingest: NDJSON ingest throughput over HTTP with no live tail open, and with
// 100 subscribers on the dataset being written (70 unfiltered, 30 spread over three filters),
// alternating over BENCH_ROUNDS rounds in one run against one server process. Reported: events/s
// of each phase, the ratio of each tailed phase to the untailed ones beside it and their median
// (the target: within 10%), what the subscribers received and the server's CPU seconds per phase.
//
// A phase writes 400,000 events by default: the store checkpoints every 16 MB of its log (about
// 40,000 of these events), and each checkpoint stalls writes for about 0.2 s; in phases half as
// long, which phase a checkpoint lands in moved a round's ratio by more than the tails did.
//
//   npm run bench:live-tail
//   BENCH_EVENTS=200000 BENCH_SUBSCRIBERS=100 BENCH_ROUNDS=3 npm run bench:live-tail
import http from 'node:http';
import { ADMIN_TOKEN, type BenchServer, cpuSecondsOf, createDataset, drive, post, startServer } from './bench-server';
import { makeEvents, ndjsonBatches } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 400_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const BATCH = 1000;
const CLIENTS = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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

interface Phase {
  rate: number;
  /** The server's CPU seconds. */
  cpu: number;
  /** This process's CPU seconds (the ingest clients and the subscribers reading their streams). */
  clientCpu: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function ingestPhase(server: BenchServer, agent: http.Agent, dataset: string, bodies: Buffer[]): Promise<Phase> {
  const cpuBefore = cpuSecondsOf(server.child.pid!);
  const clientBefore = process.cpuUsage();
  const seconds = await drive(bodies, CLIENTS, async (body) => {
    const answer = await post(agent, server.port, `/v1/datasets/${dataset}/ingest`, { 'content-type': 'application/x-ndjson' }, body);
    if (answer.status !== 200) throw new Error(`ingest: ${answer.status} ${answer.body.toString()}`);
  });
  const client = process.cpuUsage(clientBefore);
  return { rate: EVENTS / seconds, cpu: cpuSecondsOf(server.child.pid!) - cpuBefore, clientCpu: (client.user + client.system) / 1e6 };
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
    await createDataset(server.port, 'warmup');
    // Warm up the server (JIT, the store) on a dataset of its own.
    await ingestPhase(server, agent, 'warmup', bodies.slice(0, 50));

    // Rounds of [no tail, tailed], then a last untailed phase: each tailed phase is compared with
    // the untailed phases on either side of it, and the median of the rounds is reported, since
    // one phase on this machine varies by more than the effect measured.
    const untailed: Phase[] = [];
    const tailedPhases: Phase[] = [];
    const unfiltered = Math.round(SUBSCRIBERS * 0.7);
    const expected = (filter: number | undefined) => (filter === undefined ? EVENTS : matching[filter]!);
    let complete = 0;
    let skipped = 0;
    let errors = 0;
    let drained = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await createDataset(server.port, `none-${round}`);
      untailed.push(await ingestPhase(server, agent, `none-${round}`, bodies));
      const dataset = `tailed-${round}`;
      await createDataset(server.port, dataset);
      // Seeded so that the filters bind to existing fields.
      await post(agent, server.port, `/v1/datasets/${dataset}/ingest`, { 'content-type': 'application/x-ndjson' }, bodies[0]!.subarray(0, bodies[0]!.indexOf('\n')));
      const listeners: { filter: number | undefined; listener: Listener }[] = [];
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const filter = i < unfiltered ? undefined : (i - unfiltered) % FILTERS.length;
        listeners.push({ filter, listener: await subscribe(server.port, dataset, filter === undefined ? undefined : FILTERS[filter]) });
      }
      tailedPhases.push(await ingestPhase(server, agent, dataset, bodies));
      const settled = Date.now();
      while (Date.now() - settled < 30_000 && listeners.some(({ filter, listener }) => listener.received + listener.skipped < expected(filter))) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      drained = Math.max(drained, (Date.now() - settled) / 1000);
      complete += listeners.filter(({ filter, listener }) => listener.received + listener.skipped === expected(filter)).length;
      skipped += listeners.reduce((sum, { listener }) => sum + listener.skipped, 0);
      errors += listeners.reduce((sum, { listener }) => sum + listener.errors, 0);
      for (const { listener } of listeners) listener.close();
    }
    await createDataset(server.port, `none-${ROUNDS}`);
    untailed.push(await ingestPhase(server, agent, `none-${ROUNDS}`, bodies));

    const ratios = tailedPhases.map((phase, round) => phase.rate / ((untailed[round]!.rate + untailed[round + 1]!.rate) / 2));
    const rate = (value: number) => Math.round(value).toLocaleString('en-US');
    const cpu = (phases: Phase[]) => `${phases.map((phase) => phase.cpu.toFixed(1)).join(', ')} s; bench process ${phases.map((phase) => phase.clientCpu.toFixed(1)).join(', ')}`;
    console.log(`NDJSON ingest, ${EVENTS.toLocaleString('en-US')} events in batches of ${BATCH}, ${CLIENTS} clients, ${ROUNDS} rounds:`);
    console.log(`  no live tail:  ${untailed.map((phase) => rate(phase.rate)).join(', ')} events/s  (server CPU ${cpu(untailed)} s)`);
    console.log(`  ${SUBSCRIBERS} subscribers (${unfiltered} unfiltered, ${SUBSCRIBERS - unfiltered} over ${FILTERS.length} filters): ${tailedPhases.map((phase) => rate(phase.rate)).join(', ')} events/s  (server CPU ${cpu(tailedPhases)} s)`);
    console.log(`  ratio with subscribers / without, per round: ${ratios.map((ratio) => ratio.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)} (target >= 0.90)`);
    console.log(`  subscribers complete (received + skipped = expected): ${complete}/${SUBSCRIBERS * ROUNDS}, skipped ${skipped}, errors ${errors}, last events at most ${drained.toFixed(1)} s after the last ingest answer`);
  } finally {
    agent.destroy();
    await server.stop();
  }
}

await main();
