import { DuckDBScalarFunction, DuckDBTimestampNanosecondsValue, VARCHAR } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { Timespan } from '../../../src/ingest/timespan';
import type { DatasetRef } from '../../../src/datasets/schema/field-registry';
import { type EventsHarness, openEventsHarness } from '../../helpers/events/harness';

const harnesses: EventsHarness[] = [];
async function open(options: Parameters<typeof openEventsHarness>[0] = {}) {
  const harness = await openEventsHarness(options);
  harnesses.push(harness);
  return harness;
}
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.destroy();
});

function ndjson(events: object[]) {
  return { body: Buffer.from(events.map((event) => JSON.stringify(event)).join('\n')), contentType: 'application/x-ndjson' };
}

async function userFields(h: EventsHarness, dataset: DatasetRef) {
  return (await h.registry.schemaOf(dataset)).fields.filter((field) => !field.name.startsWith('_'))
    .map((field) => `${field.name}:${field.type}@${field.column}`);
}

function registryRows(h: EventsHarness, dataset: DatasetRef) {
  return (
    h.relational.sqlite.prepare('SELECT name, type, column_name FROM dataset_fields WHERE dataset_id = ? ORDER BY name').all(dataset.id) as {
      name: string;
      type: string;
      column_name: string;
    }[]
  ).map((row) => `${row.name}:${row.type}@${row.column_name}`);
}

describe('schema evolution', () => {
  it('adds a column per new field, in the table and in the registry', async () => {
    const h = await open();
    const dataset = await h.createDataset('evolve');
    await h.ingest.ingest(dataset, ndjson([{ a: 1, b: 'x' }]));
    await h.ingest.ingest(dataset, ndjson([{ a: 2, c: true, d: { e: 1.5 } }]));
    expect(await userFields(h, dataset)).toEqual(['a:integer@a', 'b:string@b', 'c:boolean@c', 'd.e:float@d.e']);
    expect(registryRows(h, dataset)).toEqual(['a:integer@a', 'b:string@b', 'c:boolean@c', 'd.e:float@d.e']);
    const columns = await h.rows(`SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = '${dataset.tableName}'`);
    expect(columns.map((c) => `${c.column_name} ${c.data_type}`)).toEqual([
      '_time TIMESTAMP_NS',
      '_sysTime TIMESTAMP_NS',
      '_rowId BIGINT',
      'a BIGINT',
      'b VARCHAR',
      'c BOOLEAN',
      'd.e DOUBLE',
    ]);
    expect(await h.rows(`SELECT a, b, c, "d.e" FROM ${dataset.tableName} ORDER BY _rowId`)).toEqual([
      { a: 1n, b: 'x', c: null, 'd.e': null },
      { a: 2n, b: null, c: true, 'd.e': 1.5 },
    ]);
  });

  it('widens integer to float, and a mix of other types to a mixed field keeping the type of each value', async () => {
    const h = await open();
    const dataset = await h.createDataset('widen');
    await h.ingest.ingest(dataset, ndjson([{ n: 1 }, { n: 2 }]));
    await h.ingest.ingest(dataset, ndjson([{ n: 2.5 }]));
    expect(await userFields(h, dataset)).toEqual(['n:float@n']);
    expect((await h.rows(`SELECT n FROM ${dataset.tableName} ORDER BY _rowId`)).map((r) => r.n)).toEqual([1, 2, 2.5]);
    await h.ingest.ingest(dataset, ndjson([{ n: 'many' }, { n: 7 }]));
    expect(await userFields(h, dataset)).toEqual(['n:string|integer|float@n']);
    expect(registryRows(h, dataset)).toEqual(['n:string|integer|float@n']);
    const rows = await h.rows(`SELECT CAST(n AS VARCHAR) AS n, json_type(n) AS type FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows).toEqual([
      { n: '1.0', type: 'DOUBLE' },
      { n: '2.0', type: 'DOUBLE' },
      { n: '2.5', type: 'DOUBLE' },
      { n: '"many"', type: 'VARCHAR' },
      { n: '7', type: 'UBIGINT' },
    ]);
    const [column] = await h.rows(`SELECT data_type, comment FROM duckdb_columns() WHERE table_name = '${dataset.tableName}' AND column_name = 'n'`);
    expect(column).toEqual({ data_type: 'JSON', comment: '{"field":"n","type":"string|integer|float"}' });
  });

  it('keeps booleans, arrays and absent values apart in mixed fields, within a batch and across batches', async () => {
    const h = await open();
    const dataset = await h.createDataset('mixed');
    await h.ingest.ingest(dataset, ndjson([{ flag: true, list: [1, 'two'] }]));
    expect(await userFields(h, dataset)).toEqual(['flag:boolean@flag', 'list:array@list']);
    await h.ingest.ingest(dataset, ndjson([{ flag: 3, list: 'plain' }, { flag: false, list: [3] }, { other: 1 }]));
    expect(await userFields(h, dataset)).toEqual(['flag:integer|boolean@flag', 'list:string|array@list', 'other:integer@other']);
    await h.ingest.ingest(dataset, ndjson([{ flag: 'yes', list: -4 }]));
    expect(await userFields(h, dataset)).toEqual(['flag:string|integer|boolean@flag', 'list:string|integer|array@list', 'other:integer@other']);
    const rows = await h.rows(`SELECT CAST(flag AS VARCHAR) AS flag, CAST(list AS VARCHAR) AS list, flag IS NULL AS absent FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows).toEqual([
      { flag: 'true', list: '[1,"two"]', absent: false },
      { flag: '3', list: '"plain"', absent: false },
      { flag: 'false', list: '[3]', absent: false },
      { flag: null, list: null, absent: true },
      { flag: '"yes"', list: '-4', absent: false },
    ]);
  });

  it('keeps fields that differ only in case in separate columns', async () => {
    const h = await open();
    const dataset = await h.createDataset('cases');
    await h.ingest.ingest(dataset, ndjson([{ status: 200, Status: 'OK' }, { STATUS: 'up', status: 404 }]));
    expect(await userFields(h, dataset)).toEqual(['status:integer@status', 'Status:string@Status#2', 'STATUS:string@STATUS#3']);
    expect(await h.rows(`SELECT "status", "Status#2", "STATUS#3" FROM ${dataset.tableName} ORDER BY _rowId`)).toEqual([
      { status: 200n, 'Status#2': 'OK', 'STATUS#3': null },
      { status: 404n, 'Status#2': null, 'STATUS#3': 'up' },
    ]);
  });

  it('stores _time with nanoseconds, _sysTime as the receive time and a rising _rowId', async () => {
    const h = await open();
    const dataset = await h.createDataset('system');
    const before = BigInt(Date.now()) * 1_000_000n;
    await h.ingest.ingest(dataset, ndjson([{ _time: '2024-01-02T03:04:05.123456789Z' }, { _time: 1_704_164_645 }]));
    const rows = await h.rows(`SELECT epoch_ns(_time) AS t, epoch_ns(_sysTime) AS s, _rowId FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows.map((row) => row.t)).toEqual([1_704_164_645_123_456_789n, 1_704_164_645_000_000_000n]);
    expect(rows[0]!.s).toBe(rows[1]!.s);
    expect(rows[0]!.s as bigint).toBeGreaterThanOrEqual(before - 1_000_000n);
    expect(rows[1]!._rowId).toBe((rows[0]!._rowId as bigint) + 1n);
  });
});

describe('timespans', () => {
  it('stores them as nanoseconds in a column whose comment says timespan, and reads that back after a restart', async () => {
    const first = await openEventsHarness();
    const dataset = await first.createDataset('spans');
    await first.ingest.ingestEvents(dataset, [
      { duration: Timespan.of(1500, 'us'), Duration: Timespan.of(2, 's') },
      { duration: Timespan.of(-3n), count: 1 },
    ]);
    expect(await userFields(first, dataset)).toEqual(['duration:timespan@duration', 'Duration:timespan@Duration#2', 'count:integer@count']);
    expect(registryRows(first, dataset)).toEqual(['Duration:timespan@Duration#2', 'count:integer@count', 'duration:timespan@duration']);
    const columns = await first.rows(`SELECT column_name, data_type, comment FROM duckdb_columns() WHERE table_name = '${dataset.tableName}' AND NOT starts_with(column_name, '_')`);
    expect(columns).toEqual([
      { column_name: 'duration', data_type: 'BIGINT', comment: '{"field":"duration","type":"timespan"}' },
      { column_name: 'Duration#2', data_type: 'BIGINT', comment: '{"field":"Duration","type":"timespan"}' },
      { column_name: 'count', data_type: 'BIGINT', comment: null },
    ]);
    expect(await first.rows(`SELECT duration, "Duration#2" FROM ${dataset.tableName} ORDER BY _rowId`)).toEqual([
      { duration: 1_500_000n, 'Duration#2': 2_000_000_000n },
      { duration: -3n, 'Duration#2': null },
    ]);
    await first.close();

    const second = await open({ dir: first.dir });
    expect(await userFields(second, dataset)).toEqual(['duration:timespan@duration', 'Duration:timespan@Duration#2', 'count:integer@count']);
  });

  it('widens a timespan field that meets other types to a mixed field, timespans as their duration text', async () => {
    const h = await open();
    const dataset = await h.createDataset('spanmix');
    await h.ingest.ingestEvents(dataset, [{ took: Timespan.of(90, 's') }, { took: Timespan.of(250, 'ms') }]);
    await h.ingest.ingestEvents(dataset, [{ took: 'slow' }, { took: Timespan.of(1500n) }]);
    expect(await userFields(h, dataset)).toEqual(['took:string|timespan@took']);
    expect(registryRows(h, dataset)).toEqual(['took:string|timespan@took']);
    const rows = await h.rows(`SELECT CAST(took AS JSON) AS took FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows.map((row) => row.took)).toEqual(['"1m30s"', '"250ms"', '"slow"', '"1.5µs"']);
  });
});

describe('mixed fields kept as VARIANT', () => {
  it('stores each value as a VARIANT of its own type, widening other columns into it, and reads that back after a restart', async () => {
    const first = await openEventsHarness({ mixedColumns: 'VARIANT' });
    const dataset = await first.createDataset('variants');
    await first.ingest.ingest(dataset, ndjson([{ v: 'text', list: [1, 'a'], t: 1 }]));
    await first.ingest.ingest(dataset, ndjson([{ v: true, list: 'plain', t: 2 }, { v: 1.5 }, { t: 3 }]));
    expect(await userFields(first, dataset)).toEqual(['v:string|float|boolean@v', 'list:string|array@list', 't:integer@t']);
    const columns = await first.rows(`SELECT column_name, data_type, comment FROM duckdb_columns() WHERE table_name = '${dataset.tableName}' AND column_name IN ('v', 'list')`);
    expect(columns).toEqual([
      { column_name: 'v', data_type: 'VARIANT', comment: '{"field":"v","type":"string|float|boolean"}' },
      { column_name: 'list', data_type: 'VARIANT', comment: '{"field":"list","type":"string|array"}' },
    ]);
    const rows = await first.rows(`SELECT variant_typeof(v) AS v, variant_typeof(list) AS list, v IS NULL AS absent FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows).toEqual([
      { v: 'VARCHAR', list: 'ARRAY(2)', absent: false },
      { v: 'BOOL_TRUE', list: 'VARCHAR', absent: false },
      { v: 'DOUBLE', list: 'VARIANT_NULL', absent: false },
      { v: 'VARIANT_NULL', list: 'VARIANT_NULL', absent: true },
    ]);
    await first.close();

    const second = await open({ dir: first.dir, mixedColumns: 'VARIANT' });
    expect((await second.registry.schemaOf(dataset)).fields.find((field) => field.name === 'v')).toEqual({ name: 'v', column: 'v', type: 'string|float|boolean', storedAs: 'VARIANT' });
    await second.ingest.ingest(dataset, ndjson([{ v: [7] }]));
    expect((await userFields(second, dataset))[0]).toBe('v:string|float|boolean|array@v');
    const [last] = await second.rows(`SELECT CAST(v AS JSON) AS v FROM ${dataset.tableName} ORDER BY _rowId DESC LIMIT 1`);
    expect(last).toEqual({ v: '[7]' });
  });
});

describe('map fields', () => {
  it('store objects under a map field whole as JSON, outside the field limit, typed map after a restart', async () => {
    const first = await openEventsHarness({ maxFields: 2 });
    const dataset = await first.createDataset('maps');
    await first.mapFields.add(dataset.id, 'attrs');
    const attrs = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key.${i}`, i]));
    const status = await first.ingest.ingest(dataset, ndjson([{ attrs, a: 1, b: 2 }, { attrs: { nested: { x: [1, 'y'] } } }]));
    expect(status.failed).toBe(0);
    expect(await userFields(first, dataset)).toEqual(['attrs:map@attrs', 'a:integer@a', 'b:integer@b']);
    expect(registryRows(first, dataset)).toEqual(['a:integer@a', 'attrs:map@attrs', 'b:integer@b']);
    const [column] = await first.rows(`SELECT data_type, comment FROM duckdb_columns() WHERE table_name = '${dataset.tableName}' AND column_name = 'attrs'`);
    expect(column).toEqual({ data_type: 'JSON', comment: '{"field":"attrs","type":"map"}' });
    const stored = await first.rows(`SELECT CAST(attrs AS VARCHAR) AS attrs FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(stored.map((row) => JSON.parse(row.attrs as string))).toEqual([attrs, { nested: { x: [1, 'y'] } }]);
    // The limit still holds for ordinary fields.
    expect((await first.ingest.ingest(dataset, ndjson([{ c: 3 }]))).failed).toBe(1);
    await first.close();

    const second = await open({ dir: first.dir });
    expect(await userFields(second, dataset)).toEqual(['attrs:map@attrs', 'a:integer@a', 'b:integer@b']);
  });

  it('turn an existing field of that name into a map, keeping each old value as JSON of its type', async () => {
    const h = await open();
    const dataset = await h.createDataset('remap');
    await h.ingest.ingest(dataset, ndjson([{ geo: 'unknown', loc: 7 }, { geo: 'x', loc: 8 }]));
    await h.mapFields.add(dataset.id, 'geo');
    await h.mapFields.add(dataset.id, 'loc');
    await h.ingest.ingest(dataset, ndjson([{ geo: { city: 'Oslo' }, loc: { lat: 1.5 } }]));
    expect(await userFields(h, dataset)).toEqual(['geo:map@geo', 'loc:map@loc']);
    const rows = await h.rows(`SELECT CAST(geo AS VARCHAR) AS geo, CAST(loc AS VARCHAR) AS loc FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows).toEqual([
      { geo: '"unknown"', loc: '7' },
      { geo: '"x"', loc: '8' },
      { geo: '{"city":"Oslo"}', loc: '{"lat":1.5}' },
    ]);
  });

  it('flatten objects again once the map field is removed, beside the map column', async () => {
    const h = await open();
    const dataset = await h.createDataset('unmap');
    await h.mapFields.add(dataset.id, 'geo');
    await h.ingest.ingest(dataset, ndjson([{ geo: { city: 'Oslo' } }]));
    expect(await h.mapFields.remove(dataset.id, 'geo')).toBe(true);
    await h.ingest.ingest(dataset, ndjson([{ geo: { city: 'Rome' } }]));
    expect(await userFields(h, dataset)).toEqual(['geo:map@geo', 'geo.city:string@geo.city']);
  });
});

describe('concurrent ingest into one dataset', () => {
  it('loses nothing, even while new fields keep appearing', async () => {
    const h = await open();
    const dataset = await h.createDataset('busy');
    const batches = Array.from({ length: 16 }, (_, batch) =>
      Array.from({ length: 250 }, (_, i) => ({ batch, i, [`field${batch % 5}`]: i, shared: batch % 2 === 0 ? i : `text${i}` })),
    );
    const statuses = await Promise.all(batches.map((events) => h.ingest.ingest(dataset, ndjson(events))));
    expect(statuses.map((status) => status.ingested)).toEqual(batches.map(() => 250));
    const [summary] = await h.rows(`SELECT count(*) AS n, count(DISTINCT _rowId) AS ids, count(DISTINCT (batch, i)) AS pairs FROM ${dataset.tableName}`);
    expect(summary).toEqual({ n: 4000n, ids: 4000n, pairs: 4000n });
    expect((await userFields(h, dataset)).sort()).toEqual(
      ['batch:integer@batch', 'i:integer@i', 'shared:string|integer@shared', ...[0, 1, 2, 3, 4].map((n) => `field${n}:integer@field${n}`)].sort(),
    );
    expect(registryRows(h, dataset).sort()).toEqual((await userFields(h, dataset)).sort());
  });

  it('writes different datasets side by side', async () => {
    const h = await open();
    const [one, two] = [await h.createDataset('one'), await h.createDataset('two')];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => h.ingest.ingest(i % 2 ? one : two, ndjson(Array.from({ length: 100 }, (_, j) => ({ [`f${i}`]: j }))))),
    );
    expect(await h.rows(`SELECT (SELECT count(*) FROM ${one.tableName}) AS one, (SELECT count(*) FROM ${two.tableName}) AS two`)).toEqual([
      { one: 300n, two: 300n },
    ]);
  });
});

describe('field limit', () => {
  it('fails the events whose new fields would pass the limit and stores the rest', async () => {
    const h = await open({ maxFields: 3 });
    const dataset = await h.createDataset('limited');
    const status = await h.ingest.ingest(
      dataset,
      ndjson([{ a: 1, b: 2 }, { c: 3, d: 4 }, { c: 5 }, { a: 6, e: 7 }, { a: 8, b: 9, c: 10 }]),
    );
    expect(status.ingested).toBe(3);
    expect(status.failed).toBe(2);
    expect(status.failures.map((failure) => failure.error)).toEqual([
      `adding fields "c", "d" would pass the dataset's limit of 3 fields`,
      `adding field "e" would pass the dataset's limit of 3 fields`,
    ]);
    expect(await userFields(h, dataset)).toEqual(['a:integer@a', 'b:integer@b', 'c:integer@c']);
  });
});

describe('field limit with one new field per event', () => {
  it('stores the events that fit, in order, and fails the rest', async () => {
    const h = await open({ maxFields: 100 });
    const dataset = await h.createDataset('sparse');
    await h.ingest.ingest(dataset, ndjson([{ common: 0 }]));
    const events = Array.from({ length: 5000 }, (_, i) => ({ common: i, [`key${i}`]: i }));
    const status = await h.ingest.ingest(dataset, ndjson(events));
    expect(status.ingested).toBe(99);
    expect(status.failed).toBe(4901);
    expect(status.failures[0]!.error).toBe(`adding field "key99" would pass the dataset's limit of 100 fields`);
    expect(await h.registry.userColumns(dataset.tableName)).toHaveLength(100);
    const [row] = await h.rows(`SELECT count(*) AS n, max(common) AS last, max("key98") AS k FROM ${dataset.tableName}`);
    expect(row).toEqual({ n: 100n, last: 98n, k: 98n });
  });
});

describe('trim and vacuum', () => {
  it('deletes events older than the cut, then vacuum drops fields no event holds', async () => {
    const h = await open();
    const dataset = await h.createDataset('aging');
    await h.ingest.ingest(
      dataset,
      ndjson([
        { _time: '2020-01-01T00:00:00Z', old: 'x', kept: 1 },
        { _time: '2020-01-02T00:00:00Z', old: 'y', kept: 2 },
        { _time: '2024-01-01T00:00:00Z', kept: 3, Kept: 'case' },
      ]),
    );
    expect(await h.events.trim(dataset.id, dataset.tableName, new Date('2023-01-01T00:00:00Z'))).toBe(2);
    expect((await h.rows(`SELECT kept FROM ${dataset.tableName}`)).map((row) => row.kept)).toEqual([3n]);
    expect(await h.events.vacuum(dataset.id, dataset.tableName)).toEqual(['old']);
    expect(await userFields(h, dataset)).toEqual(['kept:integer@kept', 'Kept:string@Kept#2']);
    expect(registryRows(h, dataset)).toEqual(['Kept:string@Kept#2', 'kept:integer@kept']);
    expect(await h.events.vacuum(dataset.id, dataset.tableName)).toEqual([]);
    // A vacuumed field can come back, with a new type.
    await h.ingest.ingest(dataset, ndjson([{ old: true }]));
    expect(await userFields(h, dataset)).toContain('old:boolean@old');
  });

  it('refuses a batch for a dataset deleted while the batch was on its way', async () => {
    const h = await open();
    const dataset = await h.createDataset('deleted');
    await h.events.dropTable(dataset.id, dataset.tableName);
    await expect(h.ingest.ingest(dataset, ndjson([{ a: 1 }]))).rejects.toThrow('dataset "deleted" not found');
    expect(h.store.hasTable(dataset.tableName)).toBe(false);
  });

  it('drops the table of a deleted dataset', async () => {
    const h = await open();
    const dataset = await h.createDataset('gone');
    await h.ingest.ingest(dataset, ndjson([{ a: 1 }]));
    await h.events.dropTable(dataset.id, dataset.tableName);
    expect(h.store.hasTable(dataset.tableName)).toBe(false);
    expect(await h.rows(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = '${dataset.tableName}'`)).toEqual([{ n: 0n }]);
  });
});

describe('restart', () => {
  it('rebuilds schemas from the stored state and continues _rowId', async () => {
    const first = await openEventsHarness();
    const dataset = await first.createDataset('durable');
    await first.ingest.ingest(dataset, ndjson([{ status: 1, Status: 'a' }, { nested: { x: [1] } }]));
    const schemaBefore = await first.registry.schemaOf(dataset);
    const [{ last }] = (await first.rows(`SELECT max(_rowId) AS last FROM ${dataset.tableName}`)) as [{ last: bigint }];
    await first.close();

    const second = await open({ dir: first.dir });
    expect(await second.registry.schemaOf(dataset)).toEqual(schemaBefore);
    await second.ingest.ingest(dataset, ndjson([{ status: 2 }]));
    const rows = await second.rows(`SELECT _rowId, status, "Status#2" FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows).toHaveLength(3);
    expect(rows[2]!._rowId as bigint).toBeGreaterThan(last);
  });

  it('brings registry rows back in step with the table at start', async () => {
    const first = await openEventsHarness();
    const dataset = await first.createDataset('repair');
    await first.ingest.ingest(dataset, ndjson([{ a: 1, b: 'x' }]));
    const sqlite = first.relational.sqlite;
    sqlite.prepare(`UPDATE dataset_fields SET unit = 'ms', description = 'kept' WHERE name = 'a'`).run();
    // As if the process died between the DuckDB commit and the registry write:
    sqlite.prepare(`DELETE FROM dataset_fields WHERE name = 'b'`).run();
    sqlite.prepare(`UPDATE dataset_fields SET type = 'float' WHERE name = 'a'`).run();
    sqlite
      .prepare(`INSERT INTO dataset_fields (dataset_id, name, type, column_name, created_at) VALUES (?, 'ghost', 'string', 'ghost', ?)`)
      .run(dataset.id, new Date().toISOString());
    await first.close();

    const second = await open({ dir: first.dir });
    expect(registryRows(second, dataset)).toEqual(['a:integer@a', 'b:string@b']);
    const a = second.relational.sqlite.prepare(`SELECT unit, description FROM dataset_fields WHERE name = 'a'`).get();
    expect(a).toEqual({ unit: 'ms', description: 'kept' });
  });

  it('creates the table of a registered dataset that has none', async () => {
    const first = await openEventsHarness();
    const dataset = await first.createDataset('tableless');
    await first.store.dropTable(dataset.tableName);
    await first.close();
    const second = await open({ dir: first.dir });
    expect(second.store.hasTable(dataset.tableName)).toBe(true);
  });
});

describe('queries', () => {
  it('run with parameters and report column names and types', async () => {
    const h = await open();
    const dataset = await h.createDataset('q');
    await h.ingest.ingest(dataset, ndjson([{ a: 1, b: 'x' }, { a: 2, b: 'y' }]));
    const result = await h.store.query(`SELECT a, b, _time FROM ${dataset.tableName} WHERE a > $1`, [1]);
    expect(result.columns).toEqual([
      { name: 'a', type: 'BIGINT' },
      { name: 'b', type: 'VARCHAR' },
      { name: '_time', type: 'TIMESTAMP_NS' },
    ]);
    expect(result.rows.map((row) => row.slice(0, 2))).toEqual([[2n, 'y']]);
    expect(result.rows[0]![2]).toBeInstanceOf(Date);
    const raw = await h.store.query(`SELECT a, _time FROM ${dataset.tableName} WHERE a = 1`, undefined, { rowValues: 'duckdb' });
    expect(raw.rows[0]![0]).toBe(1n);
    expect(raw.rows[0]![1]).toBeInstanceOf(DuckDBTimestampNanosecondsValue);
  });

  it('lend a connection whose registered functions serve later queries', async () => {
    const h = await open();
    await h.store.useConnection((connection) =>
      connection.registerScalarFunction(
        DuckDBScalarFunction.create({
          name: 'shout',
          returnType: VARCHAR,
          parameterTypes: [VARCHAR],
          mainFunction: (_info, input, output) => {
            const values = input.getColumnVector(0);
            for (let row = 0; row < input.rowCount; row++) output.setItem(row, `${String(values.getItem(row))}!`);
            output.flush();
          },
        }),
      ),
    );
    const results = await Promise.all([1, 2, 3].map(() => h.store.query(`SELECT shout('hey') AS s`)));
    expect(results.map((result) => result.rows)).toEqual([[['hey!']], [['hey!']], [['hey!']]]);
  });

  const slowQuery = 'SELECT count(DISTINCT (a.range * 7919 + b.range) % 1000003) FROM range(100000) a, range(100000) b';

  it('interrupt a statement that runs past its time budget', async () => {
    const h = await open();
    const started = Date.now();
    const error = await h.store.query(slowQuery, undefined, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    // The connection is usable afterwards.
    expect((await h.store.query('SELECT 42 AS x')).rows).toEqual([[42]]);
  });

  it('interrupt a statement when the caller aborts', async () => {
    const h = await open();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client went away')), 100);
    await expect(h.store.query(slowQuery, undefined, { signal: controller.signal })).rejects.toThrow('client went away');
  });

  it('do not hold up ingest', async () => {
    const h = await open();
    const dataset = await h.createDataset('parallel');
    let queryDone = false;
    const controller = new AbortController();
    const query = h.store.query(slowQuery, undefined, { timeoutMs: 20_000, signal: controller.signal }).then(
      () => (queryDone = true),
      () => (queryDone = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const status = await h.ingest.ingest(dataset, ndjson(Array.from({ length: 1000 }, (_, i) => ({ i }))));
    expect(status.ingested).toBe(1000);
    expect(queryDone).toBe(false);
    controller.abort();
    await query;
  });
});
