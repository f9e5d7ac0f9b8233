// Metrics ingest speed and size: OTLP/HTTP protobuf metric points into a metrics dataset beside
// NDJSON events into an events dataset, through the product, against one server child process
// in the same run.
//
//   npm run bench:metrics
//   BENCH_POINTS=1000000 BENCH_EVENTS=200000 npm run bench:metrics
//
// Points arrive as exporters send them: each request carries 10,000 points, 1,000 series of a
// host (10 metrics x 100 label sets; 5 resource and 2 point attributes) at 10 collection times.
// Reported: points/s and events/s (wall time, 4 clients; and per CPU-second of the server),
// bytes sent per item, and bytes on disk per item after the server's final checkpoint (targets:
// 1,000,000 points in under 60 MB, and points/s at least the events/s).
import http from 'node:http';
import { loadProtoRoot } from '../src/shippers/protobuf';
import { cpuSecondsOf, createDataset, drive, post, startServer } from './bench-server';
import { makeEvents, ndjsonBatches } from './ingest-events';

const POINTS = Number(process.env.BENCH_POINTS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const CLIENTS = 4;
const METRICS = 10;
const LABEL_SETS = 100;
const TIMES_PER_REQUEST = 10;
const POINTS_PER_REQUEST = METRICS * LABEL_SETS * TIMES_PER_REQUEST;
const HOSTS = 20;
const START_NS = 1_714_435_200_000_000_000n;

const otlp = loadProtoRoot(new URL('../src/shippers/otlp/proto/', import.meta.url), ['common.proto', 'metrics.proto']);
const ExportMetricsServiceRequest = otlp.lookupType('opentelemetry.proto.metrics.v1.ExportMetricsServiceRequest');

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const integer = (key: string, value: number) => ({ key, value: { intValue: value } });

/** Export request `index`: one host's 1,000 series at 10 collection times (10 s apart). */
function metricsRequest(index: number): Buffer {
  const host = index % HOSTS;
  const round = Math.floor(index / HOSTS);
  const metrics = Array.from({ length: METRICS }, (_, m) => ({
    name: `system.metric.${m}`,
    unit: '1',
    gauge: {
      dataPoints: Array.from({ length: LABEL_SETS * TIMES_PER_REQUEST }, (_, k) => {
        const labels = k % LABEL_SETS;
        const time = round * TIMES_PER_REQUEST + Math.floor(k / LABEL_SETS);
        return {
          timeUnixNano: (START_NS + BigInt(time) * 10_000_000_000n).toString(),
          asDouble: Math.round(Math.abs(Math.sin(index * 31 + m * 7 + k)) * 10_000) / 100,
          attributes: [integer('cpu', labels % 16), text('state', ['user', 'system', 'idle', 'wait', 'steal', 'nice'][labels % 6]!)],
        };
      }),
    },
  }));
  const message = ExportMetricsServiceRequest.fromObject({
    resourceMetrics: [
      {
        resource: { attributes: [text('service.name', `svc-${host % 5}`), text('host.name', `host-${host}`), text('host.arch', 'amd64'), text('os.type', 'linux'), text('cloud.region', ['eu-west-1', 'us-east-1'][host % 2]!)] },
        scopeMetrics: [{ scope: { name: 'hostmetrics', version: '1.0.0' }, metrics }],
      },
    ],
  });
  return Buffer.from(ExportMetricsServiceRequest.encode(message).finish());
}

const rate = (value: number) => Math.round(value).toLocaleString('en-US');

async function main() {
  console.log(`building ${POINTS.toLocaleString('en-US')} points as OTLP protobuf and ${EVENTS.toLocaleString('en-US')} NDJSON events ...`);
  const metricsBodies = Array.from({ length: Math.ceil(POINTS / POINTS_PER_REQUEST) }, (_, i) => metricsRequest(i));
  const points = metricsBodies.length * POINTS_PER_REQUEST;
  const eventBodies = ndjsonBatches(makeEvents(EVENTS), 10_000);
  const server = await startServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  try {
    await createDataset(server.port, 'events');
    await createDataset(server.port, 'metrics', 'otel:metrics:v1');
    const measure = async (count: number, bodies: Buffer[], send: (body: Buffer) => Promise<void>) => {
      const cpuBefore = cpuSecondsOf(server.child.pid!);
      const seconds = await drive(bodies, CLIENTS, send);
      return { wall: count / seconds, cpu: count / (cpuSecondsOf(server.child.pid!) - cpuBefore) };
    };
    const events = await measure(EVENTS, eventBodies, async (body) => {
      const { status, body: answer } = await post(agent, server.port, '/v1/datasets/events/ingest', { 'content-type': 'application/x-ndjson' }, body);
      if (status !== 200 || (JSON.parse(answer.toString()) as { failed: number }).failed !== 0) throw new Error(`ndjson: ${status} ${answer}`);
    });
    const metrics = await measure(points, metricsBodies, async (body) => {
      const { status, body: answer } = await post(agent, server.port, '/v1/metrics', { 'content-type': 'application/x-protobuf', 'x-axiom-metrics-dataset': 'metrics' }, body);
      // A full success is an empty ExportMetricsServiceResponse.
      if (status !== 200 || answer.length !== 0) throw new Error(`otlp: ${status} ${answer.toString('hex')}`);
    });
    agent.destroy();
    const sizes = await server.stop();
    const sent = (bodies: Buffer[], count: number) => (bodies.reduce((sum, body) => sum + body.length, 0) / count).toFixed(1);
    console.log(`\n${CLIENTS} concurrent clients, one server child process, same run\n`);
    console.log('| what | items | sent per item | items/s | items per server CPU-second | on disk per item |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    console.log(
      `| NDJSON events (12 fields, 10,000 a request) | ${EVENTS.toLocaleString('en-US')} | ${sent(eventBodies, EVENTS)} B | ${rate(events.wall)} | ${rate(events.cpu)} | ${(sizes['events.duckdb']! / EVENTS).toFixed(1)} B |`,
    );
    console.log(
      `| OTLP protobuf metric points (7 tags, 10,000 a request) | ${points.toLocaleString('en-US')} | ${sent(metricsBodies, points)} B | ${rate(metrics.wall)} | ${rate(metrics.cpu)} | ${(sizes['metrics.duckdb']! / points).toFixed(1)} B |`,
    );
    console.log(`\npoints/s over events/s: ${(metrics.wall / events.wall).toFixed(2)}x; metrics.duckdb: ${(sizes['metrics.duckdb']! / 1024 / 1024).toFixed(1)} MB for ${points.toLocaleString('en-US')} points`);
  } catch (error) {
    agent.destroy();
    await server.stop();
    throw error;
  }
}

await main();
