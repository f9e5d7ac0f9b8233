import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import type { DatasetRef } from '../../../src/datasets/schema/field-registry';
import { parseCsvFieldsHeader, parseLabelsHeader } from '../../../src/ingest/ingest-service';
import { type EventsHarness, openEventsHarness } from '../../helpers/events/harness';

let h: EventsHarness;
let datasetCount = 0;
beforeAll(async () => {
  h = await openEventsHarness();
});
afterAll(() => h.destroy());

async function freshDataset(): Promise<DatasetRef> {
  return h.createDataset(`ingest-${++datasetCount}`);
}

async function count(dataset: DatasetRef): Promise<bigint> {
  return (await h.rows(`SELECT count(*) AS n FROM ${dataset.tableName}`))[0]!.n as bigint;
}

async function domainError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return `${(error as DomainError).kind}: ${(error as DomainError).message}`;
}

describe('IngestService.ingest', () => {
  it('answers with the IngestStatus of Axiom', async () => {
    const dataset = await freshDataset();
    const body = Buffer.from('[{"a":1},{"a":2}]');
    const status = await h.ingest.ingest(dataset, { body, contentType: 'application/json' });
    expect(status).toEqual({
      ingested: 2,
      failed: 0,
      failures: [],
      processedBytes: body.length,
      blocksCreated: 1,
      walLength: expect.any(Number),
    });
    expect(status.walLength).toBeGreaterThan(0);
  });

  it('reads each format and encoding into the same events', async () => {
    const events = [
      { user: 'alice', status: 200, ok: true },
      { user: 'bob', status: 500, ok: false },
    ];
    const json = Buffer.from(JSON.stringify(events));
    const ndjson = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n'));
    const csv = Buffer.from('user,status,ok\nalice,200,true\nbob,500,false\n');
    const requests = [
      { body: json, contentType: 'application/json' },
      { body: ndjson, contentType: 'application/x-ndjson' },
      { body: ndjson, contentType: 'application/nd-json' },
      { body: csv, contentType: 'text/csv' },
      { body: zlib.gzipSync(ndjson), contentType: 'application/x-ndjson', contentEncoding: 'gzip' },
      { body: zlib.deflateSync(csv), contentType: 'text/csv', contentEncoding: 'deflate' },
    ];
    for (const request of requests) {
      const dataset = await freshDataset();
      const status = await h.ingest.ingest(dataset, request);
      expect(status.ingested, request.contentType).toBe(2);
      expect(status.processedBytes).toBe(request === requests[0] ? json.length : request.contentType === 'text/csv' ? csv.length : ndjson.length);
      expect(await h.rows(`SELECT "user", status, ok FROM ${dataset.tableName} ORDER BY _rowId`)).toEqual([
        { user: 'alice', status: 200n, ok: true },
        { user: 'bob', status: 500n, ok: false },
      ]);
    }
  });

  it('stores the good events of a batch and reports each failed one with its reason', async () => {
    const dataset = await freshDataset();
    const body = [
      JSON.stringify({ n: 1 }),
      JSON.stringify({ _time: 'tomorrow', n: 2 }),
      JSON.stringify({ n: 3, [`${'x'.repeat(201)}`]: 1 }),
      JSON.stringify({ _time: '2024-01-02T03:04:05Z', n: 4, blob: 'y'.repeat(1024 * 1024) }),
      JSON.stringify({ n: 5 }),
    ].join('\n');
    const status = await h.ingest.ingest(dataset, { body: Buffer.from(body), contentType: 'application/x-ndjson' });
    expect(status.ingested).toBe(2);
    expect(status.failed).toBe(3);
    expect(status.failures.map((f) => f.error)).toEqual([
      'invalid _time: "tomorrow" is neither RFC 3339 / ISO 8601 nor an epoch',
      `field name "${'x'.repeat(64)}…" is longer than 200 bytes`,
      expect.stringMatching(/^event is 1048\d{3} bytes, more than the 1048576 bytes an event may take$/),
    ]);
    expect(status.failures[2]!.timestamp).toBe('2024-01-02T03:04:05.000Z');
    expect((await h.rows(`SELECT n FROM ${dataset.tableName} ORDER BY _rowId`)).map((r) => r.n)).toEqual([1n, 5n]);
  });

  it('measures events of large JSON bodies to find the ones over 1 MB', async () => {
    const dataset = await freshDataset();
    const body = JSON.stringify([{ blob: 'z'.repeat(1024 * 1024) }, { small: 1 }]);
    const status = await h.ingest.ingest(dataset, { body: Buffer.from(body), contentType: 'application/json' });
    expect(status.ingested).toBe(1);
    expect(status.failures[0]!.error).toMatch(/^event is \d+ bytes/);
  });

  it('refuses unreadable bodies and oversized batches whole, storing nothing', async () => {
    const dataset = await freshDataset();
    const tooMany = Array.from({ length: 10_001 }, (_, i) => JSON.stringify({ i, novel: true })).join('\n');
    expect(await domainError(h.ingest.ingest(dataset, { body: Buffer.from(tooMany), contentType: 'application/x-ndjson' }))).toMatch(
      /^payload_too_large: a request may carry at most 10000 events/,
    );
    expect(await domainError(h.ingest.ingest(dataset, { body: Buffer.from('{"a":1}\n{"a":'), contentType: 'application/x-ndjson' }))).toMatch(
      /^invalid_input: line 2 is not valid JSON/,
    );
    expect(await domainError(h.ingest.ingest(dataset, { body: Buffer.from('{"a":1}'), contentType: 'text/plain' }))).toMatch(/^unsupported_media_type/);
    expect(
      await domainError(h.ingest.ingest(dataset, { body: Buffer.from('{"a":1}'), contentType: 'application/json', contentEncoding: 'br' })),
    ).toMatch(/^unsupported_media_type: unsupported content encoding "br"/);
    expect(await domainError(h.ingest.ingest(dataset, { body: Buffer.from('{}'), contentType: 'application/json' }, { timestampFormat: 'dd/mm' }))).toMatch(
      /^invalid_input: timestamp-format "dd\/mm" has no date or time elements/,
    );
    expect(await count(dataset)).toBe(0n);
    expect(await h.registry.userColumns(dataset.tableName)).toEqual([]);
  });

  it('applies timestamp-field, timestamp-format, csv-delimiter, CSV field names and labels', async () => {
    const dataset = await freshDataset();
    const status = await h.ingest.ingest(
      dataset,
      { body: Buffer.from('24/12/2023 18:30;GET\n25/12/2023 08:00;POST\n'), contentType: 'text/csv' },
      {
        timestampField: 'when',
        timestampFormat: '02/01/2006 15:04',
        csvDelimiter: ';',
        csvFields: parseCsvFieldsHeader('when, method'),
        labels: parseLabelsHeader('{"source":"import","method":"overridden"}'),
      },
    );
    expect(status.failures).toEqual([]);
    const rows = await h.rows(`SELECT _time, "when", method, source FROM ${dataset.tableName} ORDER BY _rowId`);
    expect(rows).toEqual([
      { _time: new Date('2023-12-24T18:30:00Z'), when: '24/12/2023 18:30', method: 'GET', source: 'import' },
      { _time: new Date('2023-12-25T08:00:00Z'), when: '25/12/2023 08:00', method: 'POST', source: 'import' },
    ]);
  });

  it('refuses labels that are not a JSON object', () => {
    expect(() => parseLabelsHeader('[1]')).toThrow('X-Axiom-Event-Labels must be a JSON object');
    expect(() => parseLabelsHeader('{')).toThrow('X-Axiom-Event-Labels must be a JSON object');
    expect(parseLabelsHeader(undefined)).toBeUndefined();
  });
});

describe('IngestService.ingestEvents', () => {
  it('stores parsed events with the same rules', async () => {
    const dataset = await freshDataset();
    const status = await h.ingest.ingestEvents(dataset, [{ a: { b: 1 } }, { _time: 'bad' }]);
    expect(status.ingested).toBe(1);
    expect(status.failed).toBe(1);
    expect(status.processedBytes).toBe(JSON.stringify({ a: { b: 1 } }).length + JSON.stringify({ _time: 'bad' }).length);
    expect(await h.rows(`SELECT "a.b" FROM ${dataset.tableName}`)).toEqual([{ 'a.b': 1n }]);
  });

  it('refuses values that are not objects and too many events, storing nothing', async () => {
    const dataset = await freshDataset();
    expect(await domainError(h.ingest.ingestEvents(dataset, [{ a: 1 }, 'text']))).toBe('invalid_input: event 1 is not an object');
    expect(await domainError(h.ingest.ingestEvents(dataset, Array.from({ length: 10_001 }, () => ({})))) ).toMatch(/^payload_too_large/);
    expect(await count(dataset)).toBe(0n);
  });
});
