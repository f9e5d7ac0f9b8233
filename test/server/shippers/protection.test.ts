// The shippers' doors under the same protection as the ingest API: each reads its body within the
// idle timeout and the minimum rate before it waits for an ingest turn, so stalled uploads to
// OTLP, Elasticsearch bulk, Loki, HEC or a log drain hold nothing another client needs and are
// answered 408 in the door's own error shape with the connection closed; and a dataset the token
// holds nothing on answers exactly as one that does not exist, on every shipper's door and on the
// edge routes.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { countOf, createDataset, createToken } from '../../helpers/shippers/helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INGEST_BODY_IDLE_TIMEOUT_MS: '1000', INGEST_BODY_MIN_BYTES_PER_SECOND: '2000', LOG_LEVEL: 'error' });
  for (const name of ['doors', 'mine', 'hidden']) await createDataset(server, name);
});
afterAll(() => server.close());

interface Door {
  name: string;
  /** Request line path, the headers that name the dataset, and how the token goes. */
  path: (dataset: string) => string;
  headers: (dataset: string, token: string) => Record<string, string>;
  /** A small valid body holding one event. */
  body: string;
  /** The door's own shape of a 408 (checked on the raw answer's body). */
  timeoutShape: RegExp;
}

const logplexFrame = (message: string) => `${Buffer.byteLength(message)} ${message}`;

const DOORS: Door[] = [
  {
    name: 'OTLP/HTTP logs (JSON)',
    path: () => '/v1/logs',
    headers: (dataset, token) => ({ 'content-type': 'application/json', 'x-axiom-dataset': dataset, authorization: `Bearer ${token}` }),
    body: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: '1700000000000000000', body: { stringValue: 'one' } }] }] }] }),
    // google.rpc.Status in the request's encoding: DEADLINE_EXCEEDED is 4.
    timeoutShape: /^\{"code":4,"message":"the request body sent nothing for 1000 ms/,
  },
  {
    name: 'Elasticsearch bulk',
    path: (dataset) => `/v1/ingest/${dataset}/elastic/_bulk`,
    headers: (_dataset, token) => ({ 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` }),
    body: '{"index":{}}\n{"message":"one"}\n',
    timeoutShape: /^\{"error":\{"root_cause":\[\{"type":"[a-z_]+","reason":"the request body sent nothing for 1000 ms.*"status":408\}$/,
  },
  {
    name: 'Loki push (JSON)',
    path: () => '/loki/api/v1/push',
    headers: (dataset, token) => ({ 'content-type': 'application/json', 'x-axiom-dataset': dataset, authorization: `Bearer ${token}` }),
    body: JSON.stringify({ streams: [{ stream: { app: 'web' }, values: [['1700000000000000000', 'one']] }] }),
    timeoutShape: /^the request body sent nothing for 1000 ms/,
  },
  {
    name: 'Splunk HEC events',
    path: (dataset) => `/services/collector/event?index=${dataset}`,
    headers: (_dataset, token) => ({ 'content-type': 'application/json', authorization: `Splunk ${token}` }),
    body: '{"event":{"message":"one"}}',
    timeoutShape: /^\{"text":"the request body sent nothing for 1000 ms[^"]*","code":\d+\}$/,
  },
  {
    name: 'Heroku log drain (logplex)',
    path: (dataset) => `/v1/datasets/${dataset}/ingest`,
    headers: (_dataset, token) => ({ 'content-type': 'application/logplex-1', authorization: `Bearer ${token}` }),
    body: logplexFrame('<190>1 2024-01-01T00:00:00Z host app web.1 - one'),
    timeoutShape: /^\{"error":"the request body sent nothing for 1000 ms/,
  },
];

/** Sends a request's head and the first bytes of a body that never arrives whole; resolves with the raw answer. */
async function stalledUpload(path: string, headers: Record<string, string>, first: string): Promise<string> {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  const head = Object.entries({ ...headers, 'content-length': '10000' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\n${head}\r\n${first}`);
  return answer;
}

const bodyOf = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '');

describe('stalled uploads to the shippers’ doors', () => {
  it('hold no ingest turn: every door keeps serving, and each stalled upload gets 408 in its door’s shape with the connection closed', async () => {
    const staller = await createToken(server, { doors: { ingest: ['create'] } });
    const other = await createToken(server, { doors: { ingest: ['create'] } });
    // Three stalled uploads per door, more than there are ingest turns, all from one token.
    const stalled = DOORS.flatMap((door) =>
      Array.from({ length: 3 }, () => ({ door, answer: stalledUpload(door.path('doors'), door.headers('doors', staller), door.body.slice(0, 5)) })),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Meanwhile both tokens send through every door as usual, and are served at once.
    for (const token of [other, staller]) {
      for (const door of DOORS) {
        const response = await server.request(door.path('doors'), { method: 'POST', headers: door.headers('doors', token), body: door.body, auth: false });
        expect(response.status, `${door.name}: ${await response.clone().text()}`).toBeLessThan(300);
      }
    }
    for (const { door, answer } of stalled) {
      const raw = await answer;
      expect(raw, door.name).toMatch(/^HTTP\/1\.1 408/);
      expect(raw.toLowerCase(), door.name).toMatch(/\r\nconnection: close\r\n/);
      expect(bodyOf(raw), door.name).toMatch(door.timeoutShape);
    }
    expect(await countOf(server, 'doors')).toBe(2 * DOORS.length);
  });

  it('refuse a body that keeps arriving slower than the minimum rate', async () => {
    const token = await createToken(server, { doors: { ingest: ['create'] } });
    const door = DOORS[1]!;
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    const answer = new Promise<string>((resolve) => {
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
    });
    const head = Object.entries({ ...door.headers('doors', token), 'content-length': '100000' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`POST ${door.path('doors')} HTTP/1.1\r\nHost: x\r\n${head}\r\n{`);
    // A byte every 300 ms never trips the idle timeout, but is far below 2,000 bytes per second.
    const drip = setInterval(() => socket.write(' '), 300);
    try {
      const raw = await answer;
      expect(raw).toMatch(/^HTTP\/1\.1 408/);
      expect(bodyOf(raw)).toMatch(/slower than 2000 bytes per second/);
    } finally {
      clearInterval(drip);
    }
  });
});

describe('datasets a token holds nothing on', () => {
  /** The answer with the dataset's name taken out, so two names can be compared. */
  async function answer(path: string, init: RequestInit & { auth?: string | false }, name: string) {
    const response = await server.request(path, init);
    const text = (await response.text()).replaceAll(name, 'NAME');
    return { status: response.status, text };
  }

  it('answer exactly as datasets that do not exist, on every shipper’s door', async () => {
    const token = await createToken(server, { mine: { ingest: ['create'], query: ['read'] } });
    for (const door of DOORS) {
      const ask = (name: string) => answer(door.path(name), { method: 'POST', headers: door.headers(name, token), body: door.body, auth: false }, name);
      const hidden = await ask('hidden');
      const absent = await ask('absent');
      expect(hidden, door.name).toEqual(absent);
      expect(hidden.status, `${door.name}: ${hidden.text}`).toBeGreaterThanOrEqual(400);
      expect(hidden.status, door.name).not.toBe(403);
      // The dataset the token holds capabilities on takes the same request.
      const mine = await server.request(door.path('mine'), { method: 'POST', headers: door.headers('mine', token), body: door.body, auth: false });
      expect(mine.status, door.name).toBeLessThan(300);
    }
    expect(await countOf(server, 'hidden')).toBe(0);
    expect(await countOf(server, 'mine')).toBe(DOORS.length);
  });

  it('answer exactly as datasets that do not exist on the edge ingest and query routes', async () => {
    const token = await createToken(server, { mine: { ingest: ['create'], query: ['read'] } });
    const post = (body: string, contentType = 'application/json') => ({ method: 'POST', headers: { 'content-type': contentType }, body, auth: token });
    for (const ask of [
      (name: string) => answer(`/v1/ingest/${name}`, post('{"a":1}'), name),
      (name: string) => answer('/v1/query/_apl?format=tabular', post(JSON.stringify({ apl: `['${name}'] | count` })), name),
      (name: string) => answer('/v1/query/_apl?format=legacy', post(JSON.stringify({ apl: `['mine'] | union ['${name}'] | count` })), name),
      (name: string) => answer('/v1/query/batch', post(JSON.stringify([{ queryId: 'q', aplRequest: { apl: `['${name}'] | take 1` } }])), name),
    ]) {
      const hidden = await ask('hidden');
      const absent = await ask('absent');
      expect(hidden).toEqual(absent);
      expect(hidden.text).toMatch(/dataset \\?"NAME\\?" not found/);
    }
    const batch = await answer('/v1/query/batch', post(JSON.stringify([{ queryId: 'q', aplRequest: { apl: "['hidden'] | take 1" } }])), 'hidden');
    expect(batch.text).toMatch(/"code":404/);
  });
});
