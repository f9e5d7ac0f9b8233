// Points for the metrics guide's snippets: OTLP protobuf gauges of the metrics its examples name
// (`http.server.duration` by route, status and service, and `cpu`), sent as a shipper would.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import type { TestServer } from '../server';

const root = new protobuf.Root();
for (const file of ['common.proto', 'metrics.proto']) {
  protobuf.parse(readFileSync(new URL(`../../../src/shippers/otlp/proto/${file}`, import.meta.url), 'utf8'), root, { keepCase: false });
}
root.resolveAll();
const ExportRequest = root.lookupType('opentelemetry.proto.metrics.v1.ExportMetricsServiceRequest');

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const integer = (key: string, value: number) => ({ key, value: { intValue: value } });

function exportBody(): Uint8Array<ArrayBuffer> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const at = (minutesAgo: number) => String(now - BigInt(minutesAgo) * 60_000_000_000n);
  const durationPoints = [0, 5, 10].flatMap((minutesAgo) => [
    { timeUnixNano: at(minutesAgo), asDouble: 12 + minutesAgo, attributes: [text('http.route', '/api'), integer('http.status_code', 200)] },
    { timeUnixNano: at(minutesAgo), asDouble: 40 + minutesAgo, attributes: [text('http.route', '/pay'), integer('http.status_code', 500)] },
  ]);
  const message = ExportRequest.fromObject({
    resourceMetrics: [
      {
        resource: { attributes: [text('service.name', 'checkout'), text('host.name', 'web-1')] },
        scopeMetrics: [
          {
            metrics: [
              { name: 'http.server.duration', unit: 'ms', gauge: { dataPoints: durationPoints } },
              { name: 'cpu', gauge: { dataPoints: [0, 5, 10].map((minutesAgo) => ({ timeUnixNano: at(minutesAgo), asDouble: 0.25 })) } },
            ],
          },
        ],
      },
    ],
  });
  return new Uint8Array(ExportRequest.encode(message).finish());
}

/** Creates the metrics dataset `otel-metrics` and sends it a few points. */
export async function prepareMetrics(server: TestServer): Promise<void> {
  const created = await server.request('/v2/datasets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'otel-metrics', kind: 'otel:metrics:v1' }),
  });
  if (created.status !== 200) throw new Error(`creating otel-metrics: ${created.status} ${await created.text()}`);
  const sent = await server.request('/v1/metrics', {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf', 'x-axiom-metrics-dataset': 'otel-metrics' },
    body: exportBody(),
  });
  if (sent.status !== 200) throw new Error(`sending metrics: ${sent.status} ${await sent.text()}`);
}
