// Metrics ingest speed and size: 1,000,000 points into a metrics dataset beside NDJSON events
// into an events dataset, in the same run on the same machine.
//
//   npm run bench:metrics               # in-process: the metrics store's write path vs IngestService (NDJSON)
//   BENCH_POINTS=1000000 BENCH_EVENTS=200000 npm run bench:metrics
//
// Points arrive as exporters send them: every series of a host each export, one point each
// (10,000 points a request: 1,000 series of 10 tags, 10 exports a request). Reported: points/s
// and events/s, and bytes on disk per point and per event after a checkpoint (target: 1,000,000
// points in under 60 MB, and points/s at least the events/s).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SeriesPoints, TagValue } from '../src/metrics/model';
import { MetricsStore } from '../src/metrics/store/metrics-store';
import { makeEvents, ndjsonBatches } from './ingest-events';

const POINTS = Number(process.env.BENCH_POINTS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const SERIES_PER_REQUEST = 1000;
const EXPORTS_PER_REQUEST = 10;
const CLIENTS = 4;
const START = 1_714_435_200;

const str = (value: string): TagValue => ({ type: 'string', value });
const int = (value: number): TagValue => ({ type: 'int', value: BigInt(value) });

/** One request: 1,000 series (50 hosts x 20 metrics... of a service) with ten exports each. */
function metricsRequest(index: number): SeriesPoints[] {
  const batch: SeriesPoints[] = [];
  for (let s = 0; s < SERIES_PER_REQUEST; s++) {
    const host = (index * 7 + s) % 200;
    const times: number[] = [];
    const values: number[] = [];
    for (let e = 0; e < EXPORTS_PER_REQUEST; e++) {
      times.push(START + (index * EXPORTS_PER_REQUEST + e) * 10);
      values.push(Math.round(Math.sin(index + s + e) * 1000) / 10 + 100);
    }
    batch.push({
      metric: { name: `system.metric.${s % 20}`, type: 'gauge', temporality: null, monotonic: null, unit: '1' },
      tags: new Map([
        ['service.name', str(`svc-${host % 10}`)],
        ['host.name', str(`host-${host}`)],
        ['host.arch', str('amd64')],
        ['os.type', str('linux')],
        ['telemetry.sdk.language', str('go')],
        ['telemetry.sdk.name', str('opentelemetry')],
        ['telemetry.sdk.version', str('1.30.0')],
        ['cpu', int(s % 8)],
        ['state', str(['user', 'system', 'idle', 'wait'][s % 4]!)],
        ['region', str(['eu-west-1', 'us-east-1'][host % 2]!)],
      ]),
      times,
      values,
      distributions: [],
    });
  }
  return batch;
}

async function drive<T>(items: T[], clients: number, send: (item: T) => Promise<number>): Promise<{ rate: number; total: number }> {
  let next = 0;
  let total = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) {
        const count = await send(items[next++]!);
        total += count;
      }
    }),
  );
  return { rate: total / ((performance.now() - started) / 1000), total };
}

async function metricsInProcess(): Promise<{ rate: number; bytesPerPoint: number; points: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-metrics-'));
  try {
    const file = path.join(dir, 'metrics.duckdb');
    const store = await MetricsStore.open(file);
    await store.createDataset('ds_bench');
    const requests = Math.ceil(POINTS / (SERIES_PER_REQUEST * EXPORTS_PER_REQUEST));
    const bodies = Array.from({ length: requests }, (_, i) => i);
    // Building the request (as decoding would) is part of the work measured.
    const { rate, total } = await drive(bodies, CLIENTS, async (index) => (await store.write('ds_bench', metricsRequest(index))).points);
    await store.close();
    return { rate, bytesPerPoint: statSync(file).size / total, points: total };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function eventsInProcess(): Promise<{ rate: number; bytesPerEvent: number; events: number }> {
  const { openRelationalStore } = await import('../src/db/store');
  const { DatasetEvents } = await import('../src/events/dataset-events');
  const { IngestService } = await import('../src/events/ingest/ingest-service');
  const { FieldRegistry } = await import('../src/events/schema/field-registry');
  const { EventStore } = await import('../src/events/store/event-store');
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-events-'));
  try {
    const relational = await openRelationalStore(path.join(dir, 'eventdeck.db'));
    const store = await EventStore.open(path.join(dir, 'events.duckdb'));
    const registry = new FieldRegistry(relational.repository, store);
    const writer = new DatasetEvents(store, registry, 1024);
    const service = new IngestService(writer, store);
    const now = new Date().toISOString();
    relational.sqlite.prepare(`INSERT INTO organizations (id, name, updated_at) VALUES ('bench', 'bench', ?)`).run(now);
    relational.sqlite.prepare(`INSERT INTO datasets (id, org_id, name, table_name, created_by, updated_at) VALUES ('e', 'bench', 'e', 'ds_e', 'bench', ?)`).run(now);
    await writer.createTable('ds_e');
    const dataset = { id: 'e', name: 'e', tableName: 'ds_e' };
    const bodies = ndjsonBatches(makeEvents(EVENTS), 10_000);
    const { rate, total } = await drive(bodies, CLIENTS, async (body) => (await service.ingest(dataset, { body, contentType: 'application/x-ndjson' })).ingested);
    await store.close();
    await relational.close();
    return { rate, bytesPerEvent: statSync(path.join(dir, 'events.duckdb')).size / total, events: total };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rate = (value: number) => Math.round(value).toLocaleString('en-US');

async function main() {
  console.log(`In process (no HTTP), ${CLIENTS} concurrent writers, same run:\n`);
  const events = await eventsInProcess();
  const metrics = await metricsInProcess();
  console.log('| what | items | items/s | bytes on disk per item |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(`| NDJSON events (12 fields, 10,000 a request) | ${events.events.toLocaleString('en-US')} | ${rate(events.rate)} | ${events.bytesPerEvent.toFixed(1)} |`);
  console.log(`| metric points (10 tags, 10,000 a request) | ${metrics.points.toLocaleString('en-US')} | ${rate(metrics.rate)} | ${metrics.bytesPerPoint.toFixed(1)} |`);
  console.log(`\npoints/s over events/s: ${(metrics.rate / events.rate).toFixed(2)}x; ${((metrics.bytesPerPoint * 1_000_000) / 1024 / 1024).toFixed(1)} MB per 1,000,000 points`);
}

await main();
