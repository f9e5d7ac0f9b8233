// The official Axiom JavaScript SDK, unchanged, pointed at this server.
import { gzipSync } from 'node:zlib';
import { Axiom, AxiomWithoutBatching, ContentEncoding, ContentType } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlEpochMillis, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let token: string;
const errors: unknown[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const response = await server.request('/v2/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'sdk',
      datasetCapabilities: { '*': { ingest: ['create'], query: ['read'] } },
      orgCapabilities: { datasets: ['create', 'read'] },
    }),
  });
  expect(response.status).toBe(200);
  token = ((await response.json()) as { token: string }).token;
});
afterAll(() => server.close());

function client() {
  return new Axiom({ url: server.url, token, onError: (error) => errors.push(error) });
}

async function rows(dataset: string, sql: (table: string, column: (name: string) => string) => string) {
  const { services } = server.app;
  const admin = await services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
  const record = await services.datasets.resolveFor(admin, dataset, 'query', 'read');
  const column = (name: string) => services.eventStore.columnIdentifier(name);
  return (await services.eventStore.query(sql(`"${record.tableName}"`, column))).rows;
}

describe('@axiomhq/js against this server', () => {
  it('creates a dataset through the datasets API', async () => {
    const created = await client().datasets.create({ name: 'sdk-events', description: 'from the SDK' });
    expect(created).toMatchObject({ name: 'sdk-events', description: 'from the SDK' });
    expect(errors).toEqual([]);
  });

  it('ingests with ingest + flush (batched, gzip-compressed NDJSON)', async () => {
    const axiom = client();
    for (let i = 0; i < 2500; i++) axiom.ingest('sdk-events', { i, kind: i % 2 ? 'odd' : 'even', nested: { at: i * 2 } });
    await axiom.flush();
    expect(errors).toEqual([]);
    expect(await rows('sdk-events', (table, column) => `SELECT count(*), count(DISTINCT i), sum(${column('nested.at')}) FROM ${table}`)).toEqual([[2500n, 2500n, 6_247_500n]]);
  });

  it('ingests raw JSON, NDJSON and CSV, compressed and not, and answers with the ingest status', async () => {
    await client().datasets.create({ name: 'sdk-raw' });
    const axiom = new AxiomWithoutBatching({ url: server.url, token, onError: (error) => errors.push(error) });
    const cases: [string, string | Uint8Array, ContentType, ContentEncoding][] = [
      ['json', JSON.stringify([{ source: 'json', n: 1 }, { source: 'json', n: 2 }]), ContentType.JSON, ContentEncoding.Identity],
      ['ndjson', '{"source":"ndjson","n":3}\n{"source":"ndjson","n":4}', ContentType.NDJSON, ContentEncoding.Identity],
      ['csv', 'source,n\ncsv,5\ncsv,6\n', ContentType.CSV, ContentEncoding.Identity],
      ['auto', '{"source":"auto","n":7}\n{"source":"auto","n":8}', ContentType.NDJSON, ContentEncoding.Auto],
      ['gzip', gzipSync('[{"source":"gzip","n":9},{"source":"gzip","n":10}]'), ContentType.JSON, ContentEncoding.GZIP],
    ];
    for (const [label, data, contentType, encoding] of cases) {
      const status = await axiom.ingestRaw('sdk-raw', data, contentType, encoding);
      expect(status, label).toMatchObject({ ingested: 2, failed: 0, failures: [], blocksCreated: 1 });
      expect(status.processedBytes, label).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
    expect(await rows('sdk-raw', (table) => `SELECT source, n FROM ${table} ORDER BY _rowId`)).toEqual(
      ['json', 'json', 'ndjson', 'ndjson', 'csv', 'csv', 'auto', 'auto', 'gzip', 'gzip'].map((source, i) => [source, BigInt(i + 1)]),
    );
  });

  it('passes timestamp-field and csv-delimiter through its ingest options', async () => {
    await client().datasets.create({ name: 'sdk-options' });
    const axiom = new AxiomWithoutBatching({ url: server.url, token, onError: (error) => errors.push(error) });
    const status = await axiom.ingestRaw('sdk-options', 'ts;msg\n2024-03-04T05:06:07Z;hello\n', ContentType.CSV, ContentEncoding.Identity, {
      timestampField: 'ts',
      csvDelimiter: ';',
    });
    expect(status).toMatchObject({ ingested: 1, failed: 0 });
    expect(await rows('sdk-options', (table) => `SELECT ${sqlEpochMillis('_time')}, msg FROM ${table}`)).toEqual([[BigInt(Date.parse('2024-03-04T05:06:07Z')), 'hello']]);
  });

  it('reports per-event failures as the SDK expects them', async () => {
    const axiom = new AxiomWithoutBatching({ url: server.url, token, onError: (error) => errors.push(error) });
    const status = await axiom.ingest('sdk-options', [{ msg: 'ok' }, { _time: 'never', msg: 'bad' }]);
    expect(status.ingested).toBe(1);
    expect(status.failed).toBe(1);
    expect(status.failures?.[0]?.error).toMatch(/invalid _time/);
    expect(errors).toEqual([]);
  });

  it('surfaces refusals through onError', async () => {
    const seen: unknown[] = [];
    const axiom = new AxiomWithoutBatching({ url: server.url, token, onError: (error) => seen.push(error) });
    await axiom.ingestRaw('no-such-dataset', '{"a":1}', ContentType.JSON, ContentEncoding.Identity);
    expect(seen).toHaveLength(1);
    expect(String(seen[0])).toMatch(/not found/);
  });
});
