// Mixed-type fields: the two DuckDB types the store can keep them in, a JSON column (the
// default) and a VARIANT (`mixedColumns: 'VARIANT'`), beside a plain VARCHAR column holding the
// same values as text (the cost of a single-typed field, for reference). Each runs in its own
// store, in process, in the same run: NDJSON ingest through the IngestService, the file size
// after a checkpoint, and three APL queries over the field through the engine.
//
//   npm run bench:mixed
//   BENCH_EVENTS=500000 BENCH_RUNS=11 npm run bench:mixed
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EngineDeps, executeApl, registerAplFunctions, runnerOver } from '../src/apl';
import { openRelationalStore } from '../src/db/store';
import { DatasetEvents } from '../src/ingest/dataset-events';
import { IngestService } from '../src/ingest/ingest-service';
import { FieldRegistry } from '../src/datasets/schema/field-registry';
import { DuckDBEventStore } from '../src/events/store/event-store';
import { makeEvents } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const BATCH = 10_000;

type Kind = 'VARIANT' | 'JSON' | 'VARCHAR (text)';

/** The mixed value of event `i`: strings, integers, floats, booleans and arrays, deterministic. */
function mixedValue(i: number): unknown {
  const h = (i * 2654435761) >>> 0;
  switch (h % 20) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      return `user-${h % 5000}`;
    case 8:
    case 9:
    case 10:
    case 11:
    case 12:
    case 13:
      return h % 100_000;
    case 14:
    case 15:
    case 16:
      return (h % 100_000) / 8;
    case 17:
    case 18:
      return h % 3 === 0;
    default:
      return [`tag-${h % 50}`, h % 7];
  }
}

function bodies(kind: Kind): Buffer[] {
  const events = makeEvents(EVENTS).map((event, i) => {
    const value = mixedValue(i);
    return { ...event, v: kind === 'VARCHAR (text)' ? (typeof value === 'string' ? value : JSON.stringify(value)) : value };
  });
  const result: Buffer[] = [];
  for (let offset = 0; offset < events.length; offset += BATCH) {
    result.push(Buffer.from(events.slice(offset, offset + BATCH).map((event) => JSON.stringify(event)).join('\n')));
  }
  return result;
}

const QUERIES = [
  "['d'] | where tostring(v) == 'user-42' | count",
  "['d'] | summarize n = count() by t = gettype(v)",
  "['d'] | summarize n = count() by v | top 10 by n",
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(kind: Kind) {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-mixed-'));
  const relational = await openRelationalStore(path.join(dir, 'eventdeck.db'));
  const store = await DuckDBEventStore.open(path.join(dir, 'events.duckdb'), { mixedColumns: kind === 'VARIANT' ? 'VARIANT' : 'JSON' });
  const registry = new FieldRegistry(relational.repository, store);
  const writer = new DatasetEvents(store, registry, 1024);
  const ingest = new IngestService(writer, store);
  const now = new Date().toISOString();
  relational.sqlite.prepare(`INSERT INTO organizations (id, name, updated_at) VALUES ('bench', 'bench', ?)`).run(now);
  relational.sqlite
    .prepare(`INSERT INTO datasets (id, org_id, name, table_name, created_by, updated_at) VALUES ('d', 'bench', 'd', 'ds_d', 'bench', ?)`)
    .run(now);
  const dataset = { id: 'd', name: 'd', tableName: 'ds_d' };
  await writer.createTable(dataset.tableName);
  try {
    const input = bodies(kind);
    const started = performance.now();
    for (const body of input) {
      const status = await ingest.ingest(dataset, { body, contentType: 'application/x-ndjson' });
      if (status.failed > 0) throw new Error(status.failures[0]!.error);
    }
    const rate = EVENTS / ((performance.now() - started) / 1000);
    const type = (await registry.schemaOf(dataset)).fields.find((field) => field.name === 'v')!.type;
    await store.checkpoint();
    await store.useConnection(registerAplFunctions);
    const deps: EngineDeps = {
      resolveDatasets: async () => [await registry.schemaOf(dataset)],
      runner: runnerOver(store),
      maxQueryRows: 65_000,
      queryTimeoutMs: 60_000,
      cursorKey: 'bench',
      now: () => BigInt(Date.parse('2024-01-03T00:00:00Z')) * 1_000_000n,
    };
    const times: number[] = [];
    const answers: unknown[] = [];
    for (const apl of QUERIES) {
      const runs: number[] = [];
      let answer: unknown;
      for (let run = 0; run <= RUNS; run++) {
        const queryStarted = performance.now();
        const result = await executeApl({ apl, startTime: '2023-12-01T00:00:00Z', endTime: '2024-02-01T00:00:00Z' }, deps);
        if (run > 0) runs.push(performance.now() - queryStarted);
        answer = result.table.columns.map((column) => column.length);
      }
      times.push(median(runs));
      answers.push(answer);
    }
    await store.close();
    await relational.close();
    const diskBytes = statSync(path.join(dir, 'events.duckdb')).size;
    return { kind, type, rate, diskBytes, times, answers };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const kind of ['VARIANT', 'JSON', 'VARCHAR (text)'] as Kind[]) {
  console.log(`measuring ${kind} ...`);
  results.push(await measure(kind));
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`\n${EVENTS.toLocaleString('en-US')} events of 13 fields (one of them mixed: 40% strings, 30% integers, 15% floats, 10% booleans, 5% arrays), ${BATCH.toLocaleString('en-US')} per request; query times are medians of ${RUNS} runs\n`);
console.log(`| column | field type | ingest events/s | file after checkpoint | ${QUERIES.map((q) => `\`${q.replace("['d'] | ", '').replaceAll('|', '\\|')}\``).join(' | ')} |`);
console.log(`| --- | --- | ---: | ---: |${QUERIES.map(() => ' ---: |').join('')}`);
for (const r of results) {
  console.log(
    `| ${r.kind} | \`${r.type.replaceAll('|', '\\|')}\` | ${Math.round(r.rate).toLocaleString('en-US')} | ${mb(r.diskBytes)} | ${r.times.map((t) => `${t.toFixed(1)} ms`).join(' | ')} |`,
  );
}
