import { connect } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlEpochNanos, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let datasetCount = 0;
async function createDataset(name = `ingest-${++datasetCount}`): Promise<string> {
  const response = await server.request('/v2/datasets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  return name;
}

async function createToken(datasetCapabilities: Record<string, Record<string, string[]>>): Promise<string> {
  const response = await server.request('/v2/tokens', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `token-${Math.random()}`, datasetCapabilities, orgCapabilities: {} }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

interface PostOptions {
  contentType?: string;
  encoding?: string;
  headers?: Record<string, string>;
  auth?: string | false;
}

async function post(path: string, body: string | Buffer, options: PostOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.encoding) headers['content-encoding'] = options.encoding;
  const response = await server.request(path, { method: 'POST', headers, body: body as BodyInit, auth: options.auth });
  return { status: response.status, body: (await response.json()) as any };
}

async function datasetRecord(dataset: string) {
  const { services } = server.app;
  const admin = await services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
  return services.datasets.resolveFor(admin, dataset, 'query', 'read');
}

/** Stored rows of a dataset, via the event store (user columns by field name). */
async function storedRows(dataset: string, fields: string[]): Promise<Record<string, unknown>[]> {
  const { services } = server.app;
  const record = await datasetRecord(dataset);
  const schema = await services.fields.schemaOf(record);
  const columns = fields.map((name) => {
    const field = schema.fields.find((candidate) => candidate.name === name);
    return field ? `${services.eventStore.columnIdentifier(field.column)} AS "${name}"` : `NULL AS "${name}"`;
  });
  const result = await services.eventStore.query(`SELECT ${columns.join(', ')} FROM "${record.tableName}" ORDER BY _rowId`);
  return result.rows.map((row) => Object.fromEntries(fields.map((name, index) => [name, row[index]])));
}

const twoEvents = [
  { user: 'alice', status: 200, ok: true, req: { method: 'GET' } },
  { user: 'bob', status: 500, ok: false, req: { method: 'POST' } },
];
const expectedRows = [
  { user: 'alice', status: 200n, ok: true, 'req.method': 'GET' },
  { user: 'bob', status: 500n, ok: false, 'req.method': 'POST' },
];
const ndjsonText = twoEvents.map((event) => JSON.stringify(event)).join('\n');

describe('POST /v1/datasets/:dataset/ingest, each format and encoding', () => {
  const jsonText = JSON.stringify(twoEvents);
  it.each([
    ['a JSON array', 'application/json', jsonText, undefined, jsonText],
    ['NDJSON', 'application/x-ndjson', ndjsonText, undefined, ndjsonText],
    ['NDJSON as application/nd-json', 'application/nd-json', ndjsonText, undefined, ndjsonText],
    ['gzip NDJSON', 'application/x-ndjson', zlib.gzipSync(ndjsonText), 'gzip', ndjsonText],
    ['deflate JSON', 'application/json; charset=utf-8', zlib.deflateSync(jsonText), 'deflate', jsonText],
  ])('stores %s and answers with the ingest status', async (_, contentType, body, encoding, plain) => {
    const dataset = await createDataset();
    const response = await post(`/v1/datasets/${dataset}/ingest`, body, { contentType, encoding });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ingested: 2,
      failed: 0,
      failures: [],
      processedBytes: Buffer.byteLength(plain),
      blocksCreated: 1,
      walLength: expect.any(Number),
    });
    expect(await storedRows(dataset, ['user', 'status', 'ok', 'req.method'])).toEqual(expectedRows);
  });

  it('stores one JSON object as one event', async () => {
    const dataset = await createDataset();
    const response = await post(`/v1/datasets/${dataset}/ingest`, JSON.stringify(twoEvents[0]), { contentType: 'application/json' });
    expect(response.body.ingested).toBe(1);
    expect(await storedRows(dataset, ['user'])).toEqual([{ user: 'alice' }]);
  });

  it('merges the labels of {labels, events} groups into their events', async () => {
    const dataset = await createDataset();
    const body = JSON.stringify([{ labels: { host: 'web-1' }, events: [{ msg: 'a' }, { msg: 'b', host: 'own' }] }]);
    const response = await post(`/v1/datasets/${dataset}/ingest`, body, { contentType: 'application/json' });
    expect(response.body.ingested).toBe(2);
    expect(await storedRows(dataset, ['msg', 'host'])).toEqual([
      { msg: 'a', host: 'web-1' },
      { msg: 'b', host: 'own' },
    ]);
  });

  it('reads CSV with quoting, the csv-delimiter parameter and X-Axiom-CSV-Fields', async () => {
    const dataset = await createDataset();
    let response = await post(`/v1/datasets/${dataset}/ingest?csv-delimiter=%3B`, 'user;note;status\nalice;"semi; colon";200\nbob;"say ""hi""";500\n', {
      contentType: 'text/csv',
    });
    expect(response.body.ingested).toBe(2);
    response = await post(`/v1/datasets/${dataset}/ingest`, 'carol,plain,404\n', {
      contentType: 'text/csv',
      headers: { 'x-axiom-csv-fields': 'user,note,status' },
    });
    expect(response.body.ingested).toBe(1);
    expect(await storedRows(dataset, ['user', 'note', 'status'])).toEqual([
      { user: 'alice', note: 'semi; colon', status: 200n },
      { user: 'bob', note: 'say "hi"', status: 500n },
      { user: 'carol', note: 'plain', status: 404n },
    ]);
  });

  it('applies timestamp-field, timestamp-format and X-Axiom-Event-Labels', async () => {
    const dataset = await createDataset();
    const response = await post(
      `/v1/datasets/${dataset}/ingest?timestamp-field=at&timestamp-format=${encodeURIComponent('02/01/2006 15:04:05')}`,
      '{"at":"24/12/2023 18:30:00","msg":"x"}',
      { contentType: 'application/x-ndjson', headers: { 'x-axiom-event-labels': '{"env":"prod"}' } },
    );
    expect(response.body).toMatchObject({ ingested: 1, failed: 0 });
    const { rows } = await server.app.services.eventStore.query(`SELECT ${sqlEpochNanos('_time')} AS t FROM "${(await datasetRecord(dataset)).tableName}"`);
    expect(rows).toEqual([[BigInt(Date.parse('2023-12-24T18:30:00Z')) * 1_000_000n]]);
    expect(await storedRows(dataset, ['msg', 'env', 'at'])).toEqual([{ msg: 'x', env: 'prod', at: '24/12/2023 18:30:00' }]);
  });

  it('lists the discovered fields with their types', async () => {
    const dataset = await createDataset();
    await post(`/v1/datasets/${dataset}/ingest`, ndjsonText, { contentType: 'application/x-ndjson' });
    const response = await server.request(`/v2/datasets/${dataset}/fields`);
    const fields = ((await response.json()) as { name: string; type: string }[]).map((field) => `${field.name}:${field.type}`);
    expect(fields.sort()).toEqual(['ok:boolean', 'req.method:string', 'status:integer', 'user:string']);
  });
});

describe('per-event failures over HTTP', () => {
  it('stores the good events and reports the others with a timestamp and a reason', async () => {
    const dataset = await createDataset();
    const body = [
      JSON.stringify({ n: 1 }),
      JSON.stringify({ n: 2, _time: 'later' }),
      JSON.stringify({ n: 3, [`${'k'.repeat(201)}`]: true }),
      JSON.stringify({ n: 4, _time: '2024-05-06T07:08:09.5Z' }),
    ].join('\n');
    const response = await post(`/v1/datasets/${dataset}/ingest`, body, { contentType: 'application/x-ndjson' });
    expect(response.status).toBe(200);
    expect(response.body.ingested).toBe(2);
    expect(response.body.failed).toBe(2);
    expect(response.body.failures).toEqual([
      { timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), error: 'invalid _time: "later" is neither RFC 3339 / ISO 8601 nor an epoch', index: 1 },
      { timestamp: expect.any(String), error: expect.stringMatching(/^field name "k+…" is longer than 200 bytes$/), index: 2 },
    ]);
    expect(await storedRows(dataset, ['n'])).toEqual([{ n: 1n }, { n: 4n }]);
  });

  it('fails events whose new fields pass MAX_FIELDS_PER_DATASET', async () => {
    const limited = await startTestServer({ MAX_FIELDS_PER_DATASET: '2' });
    try {
      await limited.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'small' }) });
      const response = await limited.request('/v1/datasets/small/ingest', {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: '{"a":1,"b":2}\n{"c":3}\n{"a":4}',
      });
      const status = (await response.json()) as any;
      expect(status.ingested).toBe(2);
      expect(status.failures.map((failure: { error: string }) => failure.error)).toEqual([`adding field "c" would pass the dataset's limit of 2 fields`]);
    } finally {
      await limited.close();
    }
  });
});

describe('requests refused whole', () => {
  it.each([
    ['invalid JSON', 'application/json', '[{"a":1},', undefined, {}, 400, /^request body is not valid JSON/],
    ['an NDJSON line that is not an object', 'application/x-ndjson', '{"a":1}\n[1]', undefined, {}, 400, /^line 2 is an array/],
    ['a CSV record of the wrong width', 'text/csv', 'a,b\n1,2,3\n', undefined, {}, 400, /^request body is not valid CSV/],
    ['an unknown content type', 'text/plain', '{"a":1}', undefined, {}, 415, /^unsupported content type "text\/plain"/],
    ['an unknown encoding', 'application/json', '{"a":1}', 'br', {}, 415, /^unsupported content encoding "br"/],
    ['corrupt gzip', 'application/json', '{"a":1}', 'gzip', {}, 400, /^request body is not valid gzip data/],
    ['labels that are not an object', 'application/json', '{"a":1}', undefined, { 'x-axiom-event-labels': '[1]' }, 400, /X-Axiom-Event-Labels/],
  ])('%s', async (_, contentType, body, encoding, headers, status, message) => {
    const dataset = await createDataset();
    const response = await post(`/v1/datasets/${dataset}/ingest`, body, { contentType, encoding, headers });
    expect(response.status).toBe(status);
    expect(response.body.error).toMatch(message);
    expect(await storedRows(dataset, ['a'])).toEqual([]);
  });

  it('refuses a timestamp-format without date or time elements', async () => {
    const dataset = await createDataset();
    const response = await post(`/v1/datasets/${dataset}/ingest?timestamp-format=yyyy`, '{"a":1}', { contentType: 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/timestamp-format "yyyy" has no date or time elements/);
  });

  it('refuses more than 10000 events with 413 and stores none', async () => {
    const dataset = await createDataset();
    const body = Array.from({ length: 10_001 }, (_, i) => JSON.stringify({ a: i })).join('\n');
    const response = await post(`/v1/datasets/${dataset}/ingest`, zlib.gzipSync(body), { contentType: 'application/x-ndjson', encoding: 'gzip' });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/at most 10000 events/);
    expect(await storedRows(dataset, ['a'])).toEqual([]);
  });

  it('answers 404 for an unknown dataset', async () => {
    const response = await post('/v1/datasets/no-such-dataset/ingest', '{"a":1}', { contentType: 'application/json' });
    expect(response.status).toBe(404);
  });
});

describe('paths and how the dataset is named', () => {
  it('serves /api/v1/datasets/:dataset/ingest and the edge form /v1/ingest/:dataset', async () => {
    const dataset = await createDataset();
    expect((await post(`/api/v1/datasets/${dataset}/ingest`, '{"n":1}', { contentType: 'application/json' })).body.ingested).toBe(1);
    expect((await post(`/v1/ingest/${dataset}`, '{"n":2}', { contentType: 'application/json' })).body.ingested).toBe(1);
    expect(await storedRows(dataset, ['n'])).toEqual([{ n: 1n }, { n: 2n }]);
  });

  it('takes the legacy /api/v1/ingest dataset from ?dataset=, X-Axiom-Dataset, or a token of one dataset', async () => {
    const dataset = await createDataset();
    expect((await post(`/api/v1/ingest?dataset=${dataset}`, '{"n":1}', { contentType: 'application/json' })).body.ingested).toBe(1);
    expect((await post('/api/v1/ingest/', '{"n":2}', { contentType: 'application/json', headers: { 'x-axiom-dataset': dataset } })).body.ingested).toBe(1);
    const scoped = await createToken({ [dataset]: { ingest: ['create'] } });
    expect((await post('/api/v1/ingest', '{"n":3}', { contentType: 'application/json', auth: scoped })).body.ingested).toBe(1);
    expect(await storedRows(dataset, ['n'])).toEqual([{ n: 1n }, { n: 2n }, { n: 3n }]);
  });

  it('answers 400 on the legacy path when the dataset cannot be told', async () => {
    const response = await post('/api/v1/ingest', '{"n":1}', { contentType: 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/name the dataset/);
  });
});

describe('tokens', () => {
  it('answers 401 without a token or with an unknown one, before reading the body', async () => {
    const dataset = await createDataset();
    expect((await post(`/v1/datasets/${dataset}/ingest`, '{"a":1}', { contentType: 'application/json', auth: false })).status).toBe(401);
    expect((await post(`/v1/datasets/${dataset}/ingest`, '{"a":1}', { contentType: 'application/json', auth: 'xaat-00000000-0000-0000-0000-000000000000' })).status).toBe(401);
  });

  it('lets an ingest-only token ingest into its dataset and nothing else', async () => {
    const mine = await createDataset();
    const other = await createDataset();
    const token = await createToken({ [mine]: { ingest: ['create'] } });
    expect((await post(`/v1/datasets/${mine}/ingest`, '{"a":1}', { contentType: 'application/json', auth: token })).status).toBe(200);
    // Another dataset answers as if it did not exist: names cannot be probed.
    const refused = await post(`/v1/datasets/${other}/ingest`, '{"a":1}', { contentType: 'application/json', auth: token });
    const missing = await post('/v1/datasets/never-created/ingest', '{"a":1}', { contentType: 'application/json', auth: token });
    expect([refused.status, missing.status]).toEqual([404, 404]);
    expect(refused.body).toEqual({ ...missing.body, error: `dataset "${other}" not found`, message: `dataset "${other}" not found` });
    expect(await storedRows(other, ['a'])).toEqual([]);
  });

  it('refuses a token that may only query', async () => {
    const dataset = await createDataset();
    const token = await createToken({ [dataset]: { query: ['read'] } });
    expect((await post(`/v1/datasets/${dataset}/ingest`, '{"a":1}', { contentType: 'application/json', auth: token })).status).toBe(403);
    expect(await storedRows(dataset, ['a'])).toEqual([]);
  });
});

describe('admission of concurrent requests', () => {
  it('takes every request of many concurrent clients, a few at a time', async () => {
    const dataset = await createDataset();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(`/v1/datasets/${dataset}/ingest`, `{"i":${i}}\n{"i":${i + 100}}`, { contentType: 'application/x-ndjson' })),
    );
    expect(responses.map((response) => response.body.ingested)).toEqual(Array.from({ length: 12 }, () => 2));
    expect(await storedRows(dataset, ['i'])).toHaveLength(24);
  });

  it('gives back the turn of a client that goes away in the middle of its body', async () => {
    const dataset = await createDataset();
    const { port } = new URL(server.url);
    const abandoned = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const socket = connect(Number(port), '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(
          `POST /v1/datasets/${dataset}/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\n` +
            'Content-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n{"partial":',
        );
        return socket;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const socket of abandoned) socket.destroy();
    const response = await post(`/v1/datasets/${dataset}/ingest`, '{"after":1}', { contentType: 'application/x-ndjson' });
    expect(response.body.ingested).toBe(1);
    expect(await storedRows(dataset, ['after', 'partial'])).toEqual([{ after: 1n, partial: null }]);
  });
});

describe('GraphQL ingest mutation', () => {
  const mutation = `mutation($dataset: String!, $events: [JSON!]!) {
    ingest(dataset: $dataset, events: $events) { ingested failed failures { timestamp error } processedBytes blocksCreated walLength }
  }`;

  it('stores events and answers with the ingest status', async () => {
    const dataset = await createDataset();
    const result = await server.graphql(mutation, { dataset, events: [...twoEvents, { _time: 'nope' }] });
    expect(result.errors).toBeUndefined();
    expect(result.data.ingest).toMatchObject({ ingested: 2, failed: 1, blocksCreated: 1 });
    expect(result.data.ingest.failures[0].error).toMatch(/^invalid _time/);
    expect(await storedRows(dataset, ['user', 'status', 'ok', 'req.method'])).toEqual(expectedRows);
  });

  it('applies the same capabilities and refusals as REST', async () => {
    const dataset = await createDataset();
    const queryOnly = await createToken({ [dataset]: { query: ['read'] } });
    const forbidden = await server.graphql(mutation, { dataset, events: [{ a: 1 }] }, queryOnly);
    expect(forbidden.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const notObject = await server.graphql(mutation, { dataset, events: [{ a: 1 }, 2] });
    expect(notObject.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const anonymous = await server.graphql(mutation, { dataset, events: [{ a: 1 }] }, false);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await storedRows(dataset, ['a'])).toEqual([]);
  });
});
