// OTLP metrics export requests in protobuf, built from the .proto files the server reads, for
// tests that need points in a metrics dataset without the OpenTelemetry SDK.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

const root = new protobuf.Root();
for (const file of ['common.proto', 'metrics.proto']) {
  protobuf.parse(readFileSync(new URL(`../../src/shippers/otlp/proto/${file}`, import.meta.url), 'utf8'), root, { keepCase: false });
}
root.resolveAll();
const ExportRequest = root.lookupType('opentelemetry.proto.metrics.v1.ExportMetricsServiceRequest');

/** One gauge point of `metric` at the present time, from a resource with `service.name`. */
export function otlpGaugeBody(metric: string, value: number, service = 'test'): Uint8Array<ArrayBuffer> {
  const point = { timeUnixNano: String(BigInt(Date.now()) * 1_000_000n), asDouble: value };
  const message = ExportRequest.fromObject({
    resourceMetrics: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeMetrics: [{ metrics: [{ name: metric, gauge: { dataPoints: [point] } }] }] }],
  });
  return new Uint8Array(ExportRequest.encode(message).finish());
}
