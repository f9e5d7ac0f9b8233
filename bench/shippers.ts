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
import http from 'node:http';
import { ADMIN_TOKEN, cpuSecondsOf, drive, post, startServer } from './bench-server';
import { makeEvents, ndjsonBatches } from './ingest-events';
import { bulkBatches, makeSpans, spanNdjsonBatches, traceBatches } from './shipper-bodies';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const BATCH_SIZES = [1000, 10_000];
const CLIENTS = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const formatRate = (rate: number) => Math.round(rate).toLocaleString('en-US');

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
    const seconds = await drive(bodies, CLIENTS, (body) => door.send(agent, server.port, dataset, body));
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
