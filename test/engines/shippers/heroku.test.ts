// Heroku log drains: Basic auth with the token as password (as in https://axiom:TOKEN@host/...),
// `application/logplex-1` bodies of octet-counted RFC 5424 frames, one event per frame.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apl, basic, countOf, createDataset, createToken } from '../../helpers/shippers/helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Frames each message with its UTF-8 length, as logplex does. */
function logplex(messages: string[]): string {
  return messages.map((message) => `${Buffer.byteLength(message)} ${message}`).join('');
}

function drain(dataset: string, body: string, authorization: string | false, extra: Record<string, string> = {}) {
  return server.request(`/v1/datasets/${dataset}/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/logplex-1', 'logplex-msg-count': '3', ...(authorization ? { authorization } : {}), ...extra },
    body,
    auth: false,
  });
}

describe('Heroku log drain', () => {
  it('stores one event per frame with the RFC 5424 fields, its time and its text', async () => {
    const dataset = await createDataset(server, 'heroku');
    const token = await createToken(server, { heroku: { ingest: ['create'] } });
    const body = logplex([
      '<158>1 2024-05-06T07:08:09.123456+00:00 host heroku router - at=info method=GET path="/" status=200\n',
      '<190>1 2024-05-06T07:08:10+02:00 host app web.1 - Listening on port 5000\n',
      '<13>1 2024-05-06T07:08:11Z myhost myapp 42 ID7 [origin ip="10.0.0.1" sw="a\\"b"][meta seq="3"] \uFEFFstructured\n',
    ]);
    const response = await drain(dataset, body, basic('axiom', token));
    const status = (await response.json()) as any;
    expect(response.status, JSON.stringify(status)).toBe(200);
    expect(status).toMatchObject({ ingested: 3, failed: 0 });

    const { types, rows } = await apl(server, `['heroku'] | sort by _time asc`);
    // The second frame's +02:00 puts it first.
    expect(rows.map((row) => row._time)).toEqual(['2024-05-06T05:08:10Z', '2024-05-06T07:08:09.123456Z', '2024-05-06T07:08:11Z']);
    expect(rows[1]).toMatchObject({ facility: 'local3', severity: 'info', hostname: 'host', appname: 'heroku', procid: 'router', message: 'at=info method=GET path="/" status=200' });
    expect(rows[1]).not.toHaveProperty('msgid');
    expect(rows[0]).toMatchObject({ facility: 'local7', severity: 'info', appname: 'app', procid: 'web.1', message: 'Listening on port 5000' });
    expect(rows[2]).toMatchObject({
      facility: 'user',
      severity: 'notice',
      hostname: 'myhost',
      appname: 'myapp',
      procid: '42',
      msgid: 'ID7',
      'structured_data.origin.ip': '10.0.0.1',
      'structured_data.origin.sw': 'a"b',
      'structured_data.meta.seq': '3',
      message: 'structured',
    });
    expect(types).toMatchObject({ facility: 'string', message: 'string', _time: 'datetime' });
  });

  it('takes the token as the Basic password on every ingest path, and refuses a wrong one', async () => {
    const dataset = await createDataset(server, 'heroku-paths');
    const token = await createToken(server, { 'heroku-paths': { ingest: ['create'] } });
    const frame = logplex(['<14>1 2024-01-01T00:00:00Z h a p - hello\n']);
    for (const path of [`/v1/datasets/${dataset}/ingest`, `/api/v1/datasets/${dataset}/ingest`, `/v1/ingest/${dataset}`]) {
      const response = await server.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/logplex-1', authorization: basic('axiom', token) },
        body: frame,
        auth: false,
      });
      expect(response.status, path).toBe(200);
    }
    // JSON over Basic works too; the user name does not matter.
    const json = await server.request(`/v1/datasets/${dataset}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('anyone', token) },
      body: '{"via":"basic"}',
      auth: false,
    });
    expect(json.status).toBe(200);
    expect(await countOf(server, dataset)).toBe(4);

    const wrong = await drain(dataset, frame, basic('axiom', 'xaat-not-a-token'));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as any).message).toBe('invalid API token');
    const garbled = await drain(dataset, frame, 'Basic !!!');
    expect(garbled.status).toBe(401);
    const none = await drain(dataset, frame, false);
    expect(none.status).toBe(401);
    expect(await countOf(server, dataset)).toBe(4);
  });

  it('keeps Basic off the routes that are not ingest', async () => {
    const response = await server.request('/v2/datasets', { headers: { authorization: basic('axiom', server.adminToken) }, auth: false });
    expect(response.status).toBe(401);
  });

  it('refuses a token without ingest rights (403) and broken framing (400), storing nothing', async () => {
    const dataset = await createDataset(server, 'heroku-bad');
    const readOnly = await createToken(server, { 'heroku-bad': { query: ['read'] } });
    const ok = logplex(['<14>1 2024-01-01T00:00:00Z h a p - fine\n']);
    expect((await drain(dataset, ok, basic('axiom', readOnly))).status).toBe(403);
    const writer = await createToken(server, { 'heroku-bad': { ingest: ['create'] } });
    for (const body of [`${ok}99 <14>1 cut short`, `${ok}x <14>1 2024-01-01T00:00:00Z h a p - no count`]) {
      const response = await drain(dataset, body, basic('axiom', writer));
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).message).toMatch(/^logplex frame 2 /);
    }
    expect(await countOf(server, dataset)).toBe(0);
  });
});
