// The Elasticsearch door with the official client (@elastic/elasticsearch 8, its bulk helper),
// the OpenSearch client, and the raw requests Beats make: version handshake, license, health,
// bulk NDJSON with index and create actions, gzip, and errors in Elasticsearch's shape.
import { gzipSync } from 'node:zlib';
import { Client as ElasticClient } from '@elastic/elasticsearch';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apl, basic, countOf, createDataset, createToken } from '../../helpers/shippers/helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['es-client', 'es-helper', 'es-opensearch', 'es-raw', 'es-bad']) await createDataset(server, name);
  token = await createToken(server, { '*': { ingest: ['create'] } });
});
afterAll(() => server.close());

const node = (dataset: string) => `${server.url}/v1/ingest/${dataset}/elastic`;
const apiKey = () => Buffer.from(`axiom:${token}`).toString('base64');

describe('@elastic/elasticsearch 8', () => {
  it('passes the product check and reads the version', async () => {
    const client = new ElasticClient({ node: node('es-client'), auth: { bearer: token } });
    const info = await client.info();
    expect(info.version.number).toMatch(/^8\./);
    expect(info.tagline).toBe('You Know, for Search');
    await client.close();
  });

  it('bulk-indexes documents with index and create actions; @timestamp becomes _time', async () => {
    const client = new ElasticClient({ node: node('es-client'), auth: { apiKey: apiKey() } });
    const response = await client.bulk({
      operations: [
        { index: { _index: 'logs-a', _id: 'one' } },
        { '@timestamp': '2024-03-04T05:06:07.891Z', message: 'first', http: { status: 200 }, tags: ['a', 'b'] },
        { create: { _index: 'logs-b' } },
        { '@timestamp': '2024-03-04T05:06:08.5Z', message: 'second', http: { status: 503 }, took_ms: 1.5 },
        { index: {} },
        { message: 'no timestamp' },
      ],
    });
    expect(response.errors).toBe(false);
    expect(response.items.map((item) => Object.keys(item)[0])).toEqual(['index', 'create', 'index']);
    expect(response.items[0]!.index).toMatchObject({ _index: 'logs-a', _id: 'one', status: 201, result: 'created' });
    expect(response.items[1]!.create).toMatchObject({ _index: 'logs-b', status: 201 });
    expect(response.items[2]!.index).toMatchObject({ _index: 'es-client', status: 201 });
    expect(response.items[1]!.create!._id).toMatch(/^[A-Za-z0-9_-]{20}$/);

    const { types, rows } = await apl(server, `['es-client'] | where isnotnull(['http.status']) | sort by _time asc`);
    expect(rows.map((row) => [row._time, row.message, row['http.status']])).toEqual([
      ['2024-03-04T05:06:07.891Z', 'first', 200],
      ['2024-03-04T05:06:08.5Z', 'second', 503],
    ]);
    expect(rows[0]!.tags).toEqual(['a', 'b']);
    expect(types).toMatchObject({ message: 'string', 'http.status': 'integer', took_ms: 'float', tags: 'array' });
    expect(types).not.toHaveProperty('@timestamp');
    expect(await countOf(server, 'es-client')).toBe(3);
    await client.close();
  });

  it('streams 2,500 documents through the bulk helper, gzip-compressed, with Basic auth', async () => {
    const client = new ElasticClient({ node: node('es-helper'), auth: { username: 'axiom', password: token }, compression: true });
    const base = Date.UTC(2024, 5, 1);
    const result = await client.helpers.bulk({
      datasource: Array.from({ length: 2500 }, (_, i) => ({ '@timestamp': new Date(base + i * 1000).toISOString(), seq: i, level: i % 10 === 0 ? 'error' : 'info' })),
      onDocument: () => ({ index: { _index: 'helper-index' } }),
      flushBytes: 40_000,
    });
    expect(result).toMatchObject({ total: 2500, successful: 2500, failed: 0 });
    const { rows } = await apl(server, `['es-helper'] | summarize n = count(), errors = countif(level == "error"), first = min(_time), last = max(_time), total = sum(seq)`);
    expect(rows[0]).toEqual({ n: 2500, errors: 250, first: '2024-06-01T00:00:00Z', last: new Date(base + 2499_000).toISOString().replace('.000', ''), total: (2499 * 2500) / 2 });
    await client.close();
  });

  it('reports a document that cannot be stored as a failed item, keeping the others', async () => {
    const client = new ElasticClient({ node: node('es-client'), auth: { bearer: token } });
    const before = await countOf(server, 'es-client');
    const response = await client.bulk({
      operations: [{ index: {} }, { n: 1 }, { index: {} }, { '@timestamp': 'not a time', n: 2 }, { delete: { _id: 'x' } }, { index: {} }, { n: 3 }],
    });
    expect(response.errors).toBe(true);
    expect(response.items.map((item) => Object.values(item)[0]!.status)).toEqual([201, 400, 400, 201]);
    expect(response.items[1]!.index!.error).toMatchObject({ type: 'document_parsing_exception', reason: expect.stringMatching(/invalid _time/) });
    expect(response.items[2]!.delete!.error).toMatchObject({ type: 'illegal_argument_exception', reason: expect.stringMatching(/not supported/) });
    expect(await countOf(server, 'es-client')).toBe(before + 2);
    await client.close();
  });
});

describe('OpenSearch client', () => {
  it('bulk-indexes through the same door', async () => {
    const client = new OpenSearchClient({ node: node('es-opensearch'), auth: { username: 'axiom', password: token } });
    const response = await client.bulk({
      body: [{ index: { _index: 'os' } }, { '@timestamp': '2024-07-08T09:10:11Z', source: 'opensearch', value: 7 }, { create: {} }, { '@timestamp': 1720429812000, source: 'opensearch', value: 8 }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.body.errors).toBe(false);
    const { rows } = await apl(server, `['es-opensearch'] | sort by _time asc | project _time, source, value`);
    expect(rows).toEqual([
      { _time: '2024-07-08T09:10:11Z', source: 'opensearch', value: 7 },
      { _time: '2024-07-08T09:10:12Z', source: 'opensearch', value: 8 },
    ]);
    await client.close();
  });
});

describe('what Beats ask and send', () => {
  const headers = () => ({ authorization: `ApiKey ${apiKey()}` });

  it('answers the version handshake, license, xpack and health probes', async () => {
    const version = await server.request('/v1/ingest/es-raw/elastic', { headers: headers(), auth: false });
    expect(version.status).toBe(200);
    expect(version.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(((await version.json()) as any).version.number).toMatch(/^8\.\d+\.\d+$/);
    const license = (await (await server.request('/v1/ingest/es-raw/elastic/_license?human=false', { headers: headers(), auth: false })).json()) as any;
    expect(license.license).toMatchObject({ status: 'active', type: 'basic' });
    const xpack = (await (await server.request('/v1/ingest/es-raw/elastic/_xpack', { headers: headers(), auth: false })).json()) as any;
    expect(xpack.license).toMatchObject({ status: 'active' });
    const health = (await (await server.request('/v1/ingest/es-raw/elastic/_cluster/health', { headers: headers(), auth: false })).json()) as any;
    expect(health.status).toBe('green');
    const template = await server.request('/v1/ingest/es-raw/elastic/_index_template/filebeat-8.17.0', { method: 'PUT', headers: headers(), body: '{}', auth: false });
    expect(await template.json()).toEqual({ acknowledged: true });
  });

  it('trims the answer by filter_path as Beats and Logstash ask', async () => {
    const body = '{"create":{}}\n{"n":1}\n{"create":{}}\n{"@timestamp":"never","n":2}\n';
    const response = await server.request('/v1/ingest/es-raw/elastic/_bulk?filter_path=errors,items.*.error,items.*.status', {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/x-ndjson' },
      body,
      auth: false,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      errors: true,
      items: [{ create: { status: 201 } }, { create: { status: 400, error: { type: 'document_parsing_exception', reason: expect.stringMatching(/invalid _time/) } } }],
    });
    const onlyErrors = await server.request('/v1/ingest/es-raw/elastic/_bulk?filter_path=took,items.*.error', {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/x-ndjson' },
      body,
      auth: false,
    });
    const answer = (await onlyErrors.json()) as any;
    expect(Object.keys(answer)).toEqual(['took', 'items']);
    expect(answer.items).toEqual([{ create: { error: expect.objectContaining({ type: 'document_parsing_exception' }) } }]);
    // Two of the four documents were stored (the next test tells its own event by its message).
    expect(await countOf(server, 'es-raw')).toBe(2);
  });

  it('takes gzip-compressed NDJSON with a trailing newline', async () => {
    const ndjson =
      ['{"create":{"_index":"filebeat-8.17.0"}}', '{"@timestamp":"2024-08-09T10:11:12.131Z","message":"beat line","log":{"file":{"path":"/var/log/app.log"}}}'].join('\n') + '\n';
    const response = await server.request('/v1/ingest/es-raw/elastic/_bulk', {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body: gzipSync(ndjson),
      auth: false,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).items[0].create.status).toBe(201);
    const { rows } = await apl(server, `['es-raw'] | where isnotnull(message) | project _time, message, ['log.file.path']`);
    expect(rows).toEqual([{ _time: '2024-08-09T10:11:12.131Z', message: 'beat line', 'log.file.path': '/var/log/app.log' }]);
  });
});

describe('bad input', () => {
  const post = (path: string, body: string, authorization: string | false = `Bearer ${token}`) =>
    server.request(path, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...(authorization ? { authorization } : {}) }, body, auth: false });

  it('refuses a malformed body whole with 400 in Elasticsearch error shape, storing nothing', async () => {
    for (const body of ['{"index":{}}\n{"broken":\n', '{"index":{}}\n{"ok":1}\n{"index":{}}\n', 'not json\n', '{"frobnicate":{}}\n{"a":1}\n', '{"index":{}}\n[1,2]\n']) {
      const response = await post('/v1/ingest/es-bad/elastic/_bulk', body);
      expect(response.status, body).toBe(400);
      expect(response.headers.get('x-elastic-product')).toBe('Elasticsearch');
      const answer = (await response.json()) as any;
      expect(answer).toMatchObject({ status: 400, error: { type: 'illegal_argument_exception', root_cause: [{ type: 'illegal_argument_exception' }] } });
      expect(answer.error.reason).toMatch(/line|action/);
    }
    expect(await countOf(server, 'es-bad')).toBe(0);
  });

  it('answers 401 without a valid token, 403 without ingest rights, 404 for an unknown dataset', async () => {
    const body = '{"index":{}}\n{"a":1}\n';
    const missing = await post('/v1/ingest/es-bad/elastic/_bulk', body, false);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ status: 401, error: { type: 'security_exception' } });
    expect((await post('/v1/ingest/es-bad/elastic/_bulk', body, 'Bearer xaat-wrong')).status).toBe(401);
    const reader = await createToken(server, { 'es-bad': { query: ['read'] } });
    const forbidden = await post('/v1/ingest/es-bad/elastic/_bulk', body, `Bearer ${reader}`);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ status: 403, error: { type: 'security_exception' } });
    const unknown = await post('/v1/ingest/no-such-dataset/elastic/_bulk', body);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404, error: { type: 'index_not_found_exception' } });
    expect(await countOf(server, 'es-bad')).toBe(0);
  });

  it('refuses more than 10,000 documents in one request with 413', async () => {
    const body = '{"index":{}}\n{"a":1}\n'.repeat(10_001);
    const response = await post('/v1/ingest/es-bad/elastic/_bulk', body);
    expect(response.status).toBe(413);
    expect(await countOf(server, 'es-bad')).toBe(0);
  });
});
