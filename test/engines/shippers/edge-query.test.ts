// The edge query routes: POST /v1/query/_apl answers as /v1/datasets/_apl does (the SDK's
// `edgeUrl` option sends queries and ingest there), and POST /v1/query/batch streams one
// server-sent event per query as it finishes.
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { createDataset, createToken } from '../../helpers/shippers/helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  await createDataset(server, 'edge');
  token = await createToken(server, { edge: { ingest: ['create'], query: ['read'] } });
});
afterAll(() => server.close());

const events = [
  { _time: '2024-02-03T04:05:06.000000007Z', service: 'api', status: 200, latency: 12.5 },
  { _time: '2024-02-03T04:05:07Z', service: 'api', status: 500, latency: 80.25 },
  { _time: '2024-02-03T04:05:08Z', service: 'web', status: 200, latency: 3 },
];

/** Parses a text/event-stream body into the JSON of each event's data lines. */
function serverSentEvents(text: string): any[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => JSON.parse(block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n')));
}

describe('@axiomhq/js with edgeUrl', () => {
  it('ingests through /v1/ingest/{dataset} and queries through /v1/query/_apl', async () => {
    const axiom = new Axiom({ token, edgeUrl: server.url, url: 'http://127.0.0.1:9' /* never used for ingest and queries */ });
    axiom.ingest('edge', events);
    await axiom.flush();
    const result = await axiom.query(`['edge'] | where status == 200 | project _time, service, status, latency | sort by _time asc`, {
      startTime: '2024-02-03T00:00:00Z',
      endTime: '2024-02-04T00:00:00Z',
    });
    const table = result.tables[0]!;
    expect(table.fields.map((field) => [field.name, field.type])).toEqual([
      ['_time', 'datetime'],
      ['service', 'string'],
      ['status', 'integer'],
      ['latency', 'float'],
    ]);
    expect([...table.events()]).toEqual([
      { _time: '2024-02-03T04:05:06.000000007Z', service: 'api', status: 200, latency: 12.5 },
      { _time: '2024-02-03T04:05:08Z', service: 'web', status: 200, latency: 3 },
    ]);
  });

  it('answers /v1/query/_apl byte for byte like /v1/datasets/_apl, save timings', async () => {
    const body = JSON.stringify({ apl: `['edge'] | summarize n = count(), total = sum(latency) by service | sort by service asc`, startTime: '2024-01-01T00:00:00Z', endTime: '2025-01-01T00:00:00Z' });
    const ask = async (path: string) => {
      const response = await server.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body, auth: token });
      expect(response.status).toBe(200);
      const answer = (await response.json()) as any;
      delete answer.status.elapsedTime;
      return answer;
    };
    const edge = await ask('/v1/query/_apl?format=tabular');
    expect(edge).toEqual(await ask('/v1/datasets/_apl?format=tabular'));
    expect(edge.tables[0].columns).toEqual([['api', 'web'], [2, 1], [92.75, 3]]);
  });

  it('answers errors on /v1/query/_apl in the same shape', async () => {
    const response = await server.request('/v1/query/_apl?format=tabular', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apl: `['edge'] | where nosuchfield > 1` }),
      auth: token,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 400, message: expect.stringContaining('nosuchfield') });
  });
});

describe('POST /v1/query/batch', () => {
  it('streams one event per query with its queryId and kind, errors included', async () => {
    const response = await server.request('/v1/query/batch?maxConcurrency=2', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      auth: token,
      body: JSON.stringify([
        { queryId: 'count', aplRequest: { apl: `['edge'] | summarize n = count()`, startTime: '2024-01-01T00:00:00Z', endTime: '2025-01-01T00:00:00Z' } },
        { queryId: 'broken', aplRequest: { apl: `['edge'] | summarize count( by` } },
        { queryId: 'metrics', mplRequest: { mpl: 'edge:http_requests | align to 1m using avg' } },
        { queryId: 'missing', aplRequest: { apl: `['no-such-dataset'] | take 1` } },
      ]),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const byId = Object.fromEntries(serverSentEvents(await response.text()).map((event) => [event.queryId, event]));
    expect(Object.keys(byId).sort()).toEqual(['broken', 'count', 'metrics', 'missing']);
    expect(byId.count).toMatchObject({ kind: 'apl', data: { format: 'tabular', tables: [{ columns: [[3]] }] } });
    expect(byId.broken).toMatchObject({ kind: 'apl', error: { code: 400, message: expect.stringMatching(/line 1/) } });
    // MPL reads metrics datasets; this one holds events.
    expect(byId.metrics).toEqual({ queryId: 'metrics', kind: 'mpl', error: { code: 400, message: expect.stringMatching(/holds events/) } });
    expect(byId.missing).toMatchObject({ kind: 'apl', error: { code: 404 } });
  });

  it('refuses a malformed batch whole with 400', async () => {
    for (const [body, message] of [
      [{ queryId: 'x' }, /must be an array/],
      [[{ aplRequest: { apl: 'x' } }], /needs a queryId/],
      [[{ queryId: 'a', aplRequest: { apl: 'x' }, mplRequest: { mpl: 'y' } }], /exactly one of/],
      [[{ queryId: 'a', aplRequest: { apl: 'x' } }, { queryId: 'a', aplRequest: { apl: 'y' } }], /more than once/],
    ] as const) {
      const response = await server.request('/v1/query/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, auth: token, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).message).toMatch(message);
    }
    const concurrency = await server.request('/v1/query/batch?maxConcurrency=50', { method: 'POST', headers: { 'content-type': 'application/json' }, auth: token, body: '[]' });
    expect(concurrency.status).toBe(400);
    const anonymous = await server.request('/v1/query/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, auth: false, body: '[]' });
    expect(anonymous.status).toBe(401);
  });
});
