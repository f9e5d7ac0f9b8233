// Loki push: winston-loki unchanged in both of its modes (JSON, and protobuf compressed with
// snappy), JSON pushes with nanosecond times and structured metadata, and Loki's error answers.
import snappy from 'snappy';
import winston from 'winston';
import LokiTransport from 'winston-loki';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apl, countOf, createDataset, createToken } from '../../helpers/shippers/helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['loki-json', 'loki-proto', 'loki-raw', 'loki-bad']) await createDataset(server, name);
  token = await createToken(server, { '*': { ingest: ['create'] } });
});
afterAll(() => server.close());

async function logThrough(dataset: string, json: boolean) {
  const errors: unknown[] = [];
  const transport = new LokiTransport({
    host: server.url,
    json,
    labels: { app: 'shop', env: 'test' },
    replaceTimestamp: false,
    interval: 0.1,
    headers: { authorization: `Bearer ${token}`, 'x-axiom-dataset': dataset },
    onConnectionError: (error: unknown) => errors.push(error),
  });
  const logger = winston.createLogger({ transports: [transport] });
  logger.info({ message: 'order placed', timestamp: '2024-01-02T03:04:05.678Z', orderId: 42 });
  logger.warn({ message: 'stock low', timestamp: '2024-01-02T03:04:06.001Z' });
  logger.error({ message: 'payment failed', timestamp: '2024-01-02T03:04:07Z', labels: { region: 'eu' } });
  await transport.flush();
  logger.close();
  expect(errors).toEqual([]);
}

describe('winston-loki', () => {
  it('pushes JSON: labels and structured metadata as fields, the line in message, exact times', async () => {
    await logThrough('loki-json', true);
    const { types, rows } = await apl(server, `['loki-json'] | sort by _time asc`);
    expect(rows.map((row) => row._time)).toEqual(['2024-01-02T03:04:05.678Z', '2024-01-02T03:04:06.001Z', '2024-01-02T03:04:07Z']);
    // winston-loki writes the line as "<message> <winston's other fields as JSON>" and sends
    // those fields again as structured metadata (values as text).
    expect(rows[0]).toMatchObject({ app: 'shop', env: 'test', level: 'info', message: 'order placed {"orderId":42,"level":"info"}', orderId: '42' });
    expect(rows[1]).toMatchObject({ level: 'warn', message: 'stock low {"level":"warn"}' });
    expect(rows[2]).toMatchObject({ level: 'error', region: 'eu', message: 'payment failed {"level":"error"}' });
    expect(types).toMatchObject({ app: 'string', level: 'string', message: 'string', _time: 'datetime' });
  });

  it('pushes protobuf compressed with snappy, landing the same way', async () => {
    await logThrough('loki-proto', false);
    const { rows } = await apl(server, `['loki-proto'] | sort by _time asc | project _time, app, env, level, region, message`);
    expect(rows).toEqual([
      { _time: '2024-01-02T03:04:05.678Z', app: 'shop', env: 'test', level: 'info', message: 'order placed {"orderId":42,"level":"info"}' },
      { _time: '2024-01-02T03:04:06.001Z', app: 'shop', env: 'test', level: 'warn', message: 'stock low {"level":"warn"}' },
      { _time: '2024-01-02T03:04:07Z', app: 'shop', env: 'test', level: 'error', region: 'eu', message: 'payment failed {"level":"error"}' },
    ]);
  });
});

function push(body: string | Buffer, contentType: string, headers: Record<string, string> = {}) {
  return server.request('/loki/api/v1/push', {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-axiom-dataset': 'loki-raw', authorization: `Bearer ${token}`, ...headers },
    body: body as BodyInit,
    auth: false,
  });
}

describe('JSON push', () => {
  it('keeps nanoseconds, structured metadata, and reads the older labels/entries form', async () => {
    const response = await push(
      JSON.stringify({
        streams: [
          { stream: { job: 'api', host: 'a' }, values: [['1704164645678901234', 'GET /health 200'], ['1704164645000000001', 'with metadata', { trace_id: 'abc', user: 'u1' }]] },
          { labels: '{job="legacy", note="quoted \\"value\\""}', entries: [{ ts: '2024-01-02T03:04:09.5+01:00', line: 'old form' }] },
        ],
      }),
      'application/json',
    );
    expect(response.status).toBe(204);
    const { rows } = await apl(server, `['loki-raw'] | sort by _time asc | project _time, job, host, note, trace_id, user, message`);
    expect(rows).toEqual([
      { _time: '2024-01-02T02:04:09.5Z', job: 'legacy', note: 'quoted "value"', message: 'old form' },
      { _time: '2024-01-02T03:04:05.000000001Z', job: 'api', host: 'a', trace_id: 'abc', user: 'u1', message: 'with metadata' },
      { _time: '2024-01-02T03:04:05.678901234Z', job: 'api', host: 'a', message: 'GET /health 200' },
    ]);
  });
});

describe('bad input', () => {
  it('refuses malformed JSON, snappy, protobuf and labels with 400 in plain text, storing nothing', async () => {
    const garbage = snappy.compressSync(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
    const cases: [string | Buffer, string, RegExp][] = [
      ['{"streams": [', 'application/json', /not valid JSON/],
      ['{"streams": [{"stream": {"a": "b"}, "values": [["yesterday", "x"]]}]}', 'application/json', /nanoseconds/],
      ['{"streams": [{"stream": {"a": "b"}, "values": [["1", 2]]}]}', 'application/json', /value 0/],
      [Buffer.from('definitely not snappy'), 'application/x-protobuf', /not valid snappy|not a valid Loki push/],
      [garbage, 'application/x-protobuf', /not a valid Loki push protobuf message/],
      ['{"streams": [{"labels": "{job=unquoted}", "entries": [{"ts": "2024-01-01T00:00:00Z", "line": "x"}]}]}', 'application/json', /not a label set/],
    ];
    for (const [body, contentType, message] of cases) {
      const response = await push(body, contentType, { 'x-axiom-dataset': 'loki-bad' });
      expect(response.status, String(body)).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toMatch(message);
    }
    expect((await push('x', 'text/plain', { 'x-axiom-dataset': 'loki-bad' })).status).toBe(415);
    expect(await countOf(server, 'loki-bad')).toBe(0);
  });

  it('answers 401 without a token, 403 without ingest rights, 404 for an unknown dataset, 400 without a dataset', async () => {
    const body = JSON.stringify({ streams: [{ stream: { a: 'b' }, values: [['1704164645000000000', 'x']] }] });
    expect((await push(body, 'application/json', { authorization: '', 'x-axiom-dataset': 'loki-bad' })).status).toBe(401);
    const reader = await createToken(server, { 'loki-bad': { query: ['read'] } });
    expect((await push(body, 'application/json', { authorization: `Bearer ${reader}`, 'x-axiom-dataset': 'loki-bad' })).status).toBe(403);
    expect((await push(body, 'application/json', { 'x-axiom-dataset': 'no-such-dataset' })).status).toBe(404);
    const none = await push(body, 'application/json', { 'x-axiom-dataset': '' });
    expect(none.status).toBe(400);
    expect(await none.text()).toMatch(/X-Axiom-Dataset/);
    expect(await countOf(server, 'loki-bad')).toBe(0);
  });
});
