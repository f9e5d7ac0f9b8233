// The ClickHouse event store over ClickHouse embedded (chdb): the layout read back from
// ClickHouse alone, widening, text and time round trips, trim and vacuum, and two store
// instances over one engine, as two server instances over one ClickHouse: each sees the
// columns the other added, and their writes never collide.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_QUERY_SETTINGS } from '../../src/apl/dialect/clickhouse';
import { openRelationalStore, type SqliteRelationalStore } from '../../src/db/store';
import { ChdbExecutor } from '../../src/engines/clickhouse/chdb-executor';
import { ClickHouseEventStore } from '../../src/events/store/clickhouse-store';
import { DatasetEvents } from '../../src/ingest/dataset-events';
import { IngestService } from '../../src/ingest/ingest-service';
import { Timespan } from '../../src/ingest/timespan';
import { prepareEvents } from '../../src/ingest/prepare';
import { type DatasetRef, FieldRegistry } from '../../src/datasets/schema/field-registry';

let dir: string;
let executor: ChdbExecutor;
let relational: SqliteRelationalStore;

interface Instance {
  store: ClickHouseEventStore;
  registry: FieldRegistry;
  events: DatasetEvents;
  ingest: IngestService;
}

async function instance(): Promise<Instance> {
  const store = await ClickHouseEventStore.open(executor);
  const registry = new FieldRegistry(relational.repository, store);
  const events = new DatasetEvents(store, registry, 1024);
  return { store, registry, events, ingest: new IngestService(events, store) };
}

let a: Instance;
let b: Instance;
let datasets = 0;

async function dataset(): Promise<DatasetRef> {
  const name = `d${++datasets}`;
  const ref = { id: `id-${name}`, name, tableName: `ds_${name}` };
  relational.sqlite
    .prepare(`INSERT INTO datasets (id, org_id, name, table_name, created_by, updated_at) VALUES (?, 'org-test', ?, ?, 'test', ?)`)
    .run(ref.id, name, ref.tableName, new Date().toISOString());
  await a.events.createTable(ref.tableName);
  return ref;
}

const ndjson = (events: object[]) => ({ body: Buffer.from(events.map((event) => JSON.stringify(event)).join('\n')), contentType: 'application/x-ndjson' });

async function rows(ref: DatasetRef, fields: string[]): Promise<Record<string, unknown>[]> {
  const schema = await a.registry.schemaOf(ref);
  const columns = fields.map((name) => {
    const field = schema.fields.find((candidate) => candidate.name === name);
    return field ? `${a.store.columnIdentifier(field.column)} AS \`${name}\`` : `NULL AS \`${name}\``;
  });
  const result = await a.store.query(`SELECT ${columns.join(', ')} FROM ${ref.tableName} ORDER BY _rowId`);
  return result.rows.map((row) => Object.fromEntries(fields.map((name, i) => [name, row[i]])));
}

const userFields = async (instance: Instance, ref: DatasetRef) =>
  (await instance.registry.schemaOf(ref)).fields.filter((field) => !field.name.startsWith('_')).map((field) => `${field.name}:${field.type}`);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-clickhouse-'));
  executor = await ChdbExecutor.open(path.join(dir, 'chdb'), { ...CLICKHOUSE_QUERY_SETTINGS, alter_sync: 2, mutations_sync: 2 });
  relational = await openRelationalStore(path.join(dir, 'eventdeck.db'));
  relational.sqlite.prepare(`INSERT INTO organizations (id, name, updated_at) VALUES ('org-test', 'test', ?)`).run(new Date().toISOString());
  a = await instance();
  b = await instance();
}, 60_000);

afterAll(async () => {
  await executor?.close();
  await relational?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the ClickHouse event store', () => {
  it('keeps field names and types in the table, dots and case included', async () => {
    const ref = await dataset();
    await a.ingest.ingest(ref, ndjson([{ status: 200, Status: 'ok', req: { method: 'GET' }, ratio: 0.5, ok: true, tags: ['x', 'y'] }]));
    const described = await executor.query(`SELECT name, type, comment FROM system.columns WHERE table = '${ref.tableName}' ORDER BY position`);
    expect(described.rows.slice(3).map(([name, type]) => `${name} ${type}`)).toEqual([
      'status Nullable(Int64)',
      'Status#2 Nullable(String)',
      'req%2Emethod Nullable(String)',
      'ratio Nullable(Float64)',
      'ok Nullable(Bool)',
      'tags Nullable(String)',
    ]);
    // A store opened afresh reads the same schema from ClickHouse alone.
    const fresh = await instance();
    expect(await userFields(fresh, ref)).toEqual(['status:integer', 'Status:string', 'req.method:string', 'ratio:float', 'ok:boolean', 'tags:array']);
    expect(await rows(ref, ['status', 'Status', 'req.method', 'ratio', 'ok', 'tags'])).toEqual([
      { status: 200n, Status: 'ok', 'req.method': 'GET', ratio: 0.5, ok: true, tags: '["x","y"]' },
    ]);
  });

  it('round-trips text with tabs, newlines, backslashes, quotes and NUL, and times to the nanosecond', async () => {
    const ref = await dataset();
    const text = 'a\tb\nc\\d\'e"f\u0000g\r\u00e9\u{1f600}';
    await a.ingest.ingest(ref, ndjson([{ _time: '1969-07-20T20:17:40.123456789Z', text }, { _time: '2024-02-29T23:59:59.999999999Z', text: '\\N' }]));
    expect(await rows(ref, ['text'])).toEqual([{ text }, { text: '\\N' }]);
    const times = await a.store.query(`SELECT toUnixTimestamp64Nano(_time) FROM ${ref.tableName} ORDER BY _time`);
    expect(times.rows.map(([t]) => t)).toEqual([BigInt(Date.UTC(1969, 6, 20, 20, 17, 40)) * 1_000_000n + 123_456_789n, BigInt(Date.UTC(2024, 1, 29, 23, 59, 59)) * 1_000_000n + 999_999_999n]);
  });

  it('widens columns as values of other types arrive, keeping every value with its own type', async () => {
    const ref = await dataset();
    await a.ingest.ingest(ref, ndjson([{ n: 1, m: 2 }]));
    await a.ingest.ingest(ref, ndjson([{ n: 2.5 }]));
    await a.ingest.ingest(ref, ndjson([{ n: 'many', m: true }]));
    // Integers and floats meet at float; any other mix is a mixed field of JSON values.
    expect(await userFields(a, ref)).toEqual(['n:string|float', 'm:integer|boolean']);
    expect(await rows(ref, ['n', 'm'])).toEqual([
      { n: '1', m: '2' },
      { n: '2.5', m: null },
      { n: '"many"', m: 'true' },
    ]);
  });

  it('widens a timespan to its duration as a JSON string, and a string to JSON when a map field takes its name', async () => {
    const ref = await dataset();
    const batch = (events: Record<string, unknown>[], mapFields?: Set<string>) =>
      prepareEvents(events, { receivedAt: new Date(), receivedNs: BigInt(Date.now()) * 1_000_000n, ...(mapFields ? { mapFields } : {}) }, events.map(() => 10));
    const now = BigInt(Date.now()) * 1_000_000n;
    await a.events.write(ref, batch([{ took: Timespan.of(1.5, 'ms'), geo: 'Paris' }]), now);
    await a.events.write(ref, batch([{ took: 'slow', geo: { city: 'Oslo' } }], new Set(['geo'])), now);
    expect(await userFields(a, ref)).toEqual(['took:string|timespan', 'geo:map']);
    expect(await rows(ref, ['took', 'geo'])).toEqual([
      { took: '"1.5ms"', geo: '"Paris"' },
      { took: '"slow"', geo: '{"city":"Oslo"}' },
    ]);
  });

  it('trims old events and vacuums the fields no event holds any more', async () => {
    const ref = await dataset();
    await a.ingest.ingest(ref, ndjson([{ _time: '2020-01-01T00:00:00Z', old: 1 }, { _time: new Date().toISOString(), kept: 'yes' }]));
    expect(await a.events.trim(ref.id, ref.tableName, new Date(Date.now() - 86_400_000))).toBe(1);
    expect(await a.events.trim(ref.id, ref.tableName, new Date(Date.now() - 86_400_000))).toBe(0);
    expect(await a.events.vacuum(ref.id, ref.tableName)).toEqual(['old']);
    expect(await userFields(a, ref)).toEqual(['kept:string']);
  });
});

describe('two instances over one ClickHouse', () => {
  it('each sees the columns the other added, without a restart', async () => {
    const ref = await dataset();
    await a.ingest.ingest(ref, ndjson([{ first: 1 }]));
    expect(await userFields(b, ref)).toEqual(['first:integer']);
    await b.ingest.ingest(ref, ndjson([{ second: 'x', first: 2 }]));
    expect(await userFields(a, ref)).toEqual(['first:integer', 'second:string']);
    // a plans against the layout as it is now: `second` is text, so a number makes it mixed.
    await a.ingest.ingest(ref, ndjson([{ second: 3 }]));
    expect(await userFields(b, ref)).toEqual(['first:integer', 'second:string|integer']);
    expect(await rows(ref, ['first', 'second'])).toEqual([
      { first: 1n, second: null },
      { first: 2n, second: '"x"' },
      { first: null, second: '3' },
    ]);
  });

  it('stores concurrent batches that bring the same new field with different types, with distinct row ids', async () => {
    const ref = await dataset();
    const sends = Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).ingest.ingest(ref, ndjson([{ shared: i % 2 ? i : `text ${i}`, i }])));
    const statuses = await Promise.all(sends);
    expect(statuses.map((status) => status.ingested)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await userFields(a, ref)).toEqual(expect.arrayContaining(['shared:string|integer', 'i:integer']));
    const stored = await rows(ref, ['i', 'shared']);
    expect(stored.map((row) => row.i).sort()).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    // Each value as JSON of its own type; a text that another instance wrote, planned before the
    // field became mixed and landing while it did, may keep its plain form (docs/operations/scale.md, "Several
    // instances over one ClickHouse").
    for (const row of stored) {
      if (Number(row.i) % 2) expect(row.shared).toBe(String(row.i));
      else expect([`"text ${row.i}"`, `text ${row.i}`]).toContain(row.shared);
    }
    const ids = await a.store.query(`SELECT count(DISTINCT _rowId) FROM ${ref.tableName}`);
    expect(ids.rows[0]![0]).toBe(6n);
  });
});
