// Splunk HEC: the splunk-logging client unchanged, envelopes back to back, the raw endpoint,
// health, the dataset from ?index=, the envelope or the token, and HEC's exact error codes.
import { gzipSync } from 'node:zlib';
import { compress, zstdReady } from '../../helpers/zstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apl, basic, countOf, createDataset, createToken } from '../../helpers/shippers/helpers';

import { Logger as SplunkLogger } from 'splunk-logging';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  await createDataset(server, 'hec');
  await createDataset(server, 'hec-other');
  token = await createToken(server, { hec: { ingest: ['create'] }, 'hec-other': { ingest: ['create'] } });
});
afterAll(() => server.close());

function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return server.request(path, { method: 'POST', headers: { authorization: `Splunk ${token}`, ...headers }, body: body as BodyInit, auth: false });
}

async function expectHec(response: Response, status: number, body: object) {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual(body);
}

describe('splunk-logging against /services/collector/event/1.0', () => {
  it('sends events that land with their fields, metadata and times', async () => {
    const logger = new SplunkLogger({ token, url: server.url, maxBatchCount: 3 });
    const responses: any[] = [];
    const errors: unknown[] = [];
    logger.error = (error: unknown) => errors.push(error);
    const sent = new Promise<void>((resolve) => {
      const send = (message: unknown, time: number, severity: string) =>
        logger.send({ message, severity, metadata: { index: 'hec', source: 'checkout', sourcetype: 'httpevent', host: 'web-1', time } }, (error: unknown, _response: unknown, body: unknown) => {
          if (error) errors.push(error);
          responses.push(body);
          resolve();
        });
      send({ temperature: '70F', chickenCount: 500 }, 1_700_000_000_123, 'info');
      send('plain text line', 1_700_000_001_000, 'warn');
      send({ nested: { depth: 2 } }, 1_700_000_002_500, 'error');
    });
    await sent;
    expect(errors).toEqual([]);
    expect(responses).toEqual([{ text: 'Success', code: 0 }]);

    const { types, rows } = await apl(server, `['hec'] | sort by _time asc`);
    expect(rows.map((row) => row._time)).toEqual(['2023-11-14T22:13:20.123Z', '2023-11-14T22:13:21Z', '2023-11-14T22:13:22.5Z']);
    expect(rows[0]).toMatchObject({
      host: 'web-1',
      source: 'checkout',
      sourcetype: 'httpevent',
      index: 'hec',
      'message.temperature': '70F',
      'message.chickenCount': 500,
      severity: 'info',
    });
    expect(rows[1]).toMatchObject({ message: 'plain text line', severity: 'warn' });
    expect(rows[2]).toMatchObject({ 'message.nested.depth': 2, severity: 'error' });
    expect(types['message.chickenCount']).toBe('integer');
  });
});

describe('HEC event endpoint', () => {
  it('reads envelopes back to back and one per line, with fields, raw strings and every time form', async () => {
    const dataset = await createDataset(server, 'hec-forms');
    const writer = await createToken(server, { 'hec-forms': { ingest: ['create'] } });
    const body =
      '{"event":{"a":1},"time":1700000000.25,"fields":{"region":"eu"}}{"event":"raw text","time":"1700000001.5"}\n' +
      '{"event":{"b":true},"time":1700000002000}\n{"event":{"c":"x"},"time":"2024-01-02T03:04:05.123456789Z","index":"ignored-here"}\n';
    const response = await server.request(`/services/collector?index=${dataset}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}` },
      body,
      auth: false,
    });
    await expectHec(response, 200, { text: 'Success', code: 0 });
    const { rows } = await apl(server, `['hec-forms'] | sort by _time asc`);
    expect(rows.map((row) => row._time)).toEqual([
      '2023-11-14T22:13:20.25Z',
      '2023-11-14T22:13:21.5Z',
      '2023-11-14T22:13:22Z',
      '2024-01-02T03:04:05.123456789Z',
    ]);
    expect(rows[0]).toMatchObject({ a: 1, region: 'eu' });
    expect(rows[1]).toMatchObject({ _raw: 'raw text' });
    expect(rows[2]).toMatchObject({ b: true });
    expect(rows[3]).toMatchObject({ c: 'x', index: 'ignored-here' });
  });

  it('takes the dataset from ?index=, then the first envelope, then a token scoped to one dataset', async () => {
    await post('/services/collector/event', '{"event":{"n":1},"index":"hec-other"}');
    expect(await countOf(server, 'hec-other')).toBe(1);
    const scoped = await createToken(server, { 'hec-other': { ingest: ['create'] } });
    const response = await server.request('/services/collector/event', { method: 'POST', headers: { authorization: `Splunk ${scoped}` }, body: '{"event":{"n":2}}', auth: false });
    await expectHec(response, 200, { text: 'Success', code: 0 });
    expect(await countOf(server, 'hec-other')).toBe(2);
    // Two datasets and no index: code 7.
    await expectHec(await post('/services/collector/event', '{"event":{"n":3}}'), 400, { text: 'Incorrect index', code: 7 });
    await expectHec(await post('/services/collector/event?index=nope', '{"event":{"n":3}}'), 400, { text: 'Incorrect index', code: 7 });
    await expectHec(await post('/services/collector/event?index=not_valid!', '{"event":{"n":3}}'), 400, { text: 'Incorrect index', code: 7 });
  });

  it('accepts gzip and zstd bodies and Basic credentials', async () => {
    const before = await countOf(server, 'hec');
    await expectHec(await post('/services/collector/event?index=hec', gzipSync('{"event":{"zipped":1}}'), { 'content-encoding': 'gzip' }), 200, { text: 'Success', code: 0 });
    await zstdReady();
    const zstd = Buffer.from(compress(Buffer.from('{"event":{"zstd":1}}'), 3));
    await expectHec(await post('/services/collector/event?index=hec', zstd, { 'content-encoding': 'zstd' }), 200, { text: 'Success', code: 0 });
    const response = await server.request('/services/collector/event?index=hec', { method: 'POST', headers: { authorization: basic('x', token) }, body: '{"event":"basic"}', auth: false });
    await expectHec(response, 200, { text: 'Success', code: 0 });
    expect(await countOf(server, 'hec')).toBe(before + 3);
  });

  it('answers bad bodies with codes 5, 6, 12 and 13, storing nothing', async () => {
    const dataset = await createDataset(server, 'hec-bad');
    const path = `/services/collector/event?index=${dataset}`;
    const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
      server.request(path, { method: 'POST', headers: { authorization: `Splunk ${server.adminToken}`, ...headers }, body: body as BodyInit, auth: false });
    await expectHec(await post(path, ''), 400, { text: 'No data', code: 5 });
    await expectHec(await post(path, '  \n '), 400, { text: 'No data', code: 5 });
    await expectHec(await post(path, '{"event":{"ok":1}}{"event": nope}'), 400, { text: 'Invalid data format', code: 6, 'invalid-event-number': 1 });
    await expectHec(await post(path, '{"event":{"ok":1}} trailing'), 400, { text: 'Invalid data format', code: 6, 'invalid-event-number': 1 });
    await expectHec(await post(path, '{"event":{"ok":1}}{"time":1}'), 400, { text: 'Event field is required', code: 12, 'invalid-event-number': 1 });
    await expectHec(await post(path, '{"event":""}'), 400, { text: 'Event field cannot be blank', code: 13, 'invalid-event-number': 0 });
    await expectHec(await post(path, '{"event":{"a":1},"fields":"x"}'), 400, { text: 'Error in handling indexed fields', code: 15, 'invalid-event-number': 0 });
    await expectHec(await post(path, Buffer.from('not gzip'), { 'content-encoding': 'gzip' }), 400, { text: expect.stringMatching(/not valid gzip/), code: 6 });
    expect(await countOf(server, dataset)).toBe(0);
  });

  it('names the first event that could not be stored, keeping the others', async () => {
    const dataset = await createDataset(server, 'hec-partial');
    const response = await post(`/services/collector/event?index=${dataset}`, '{"event":{"a":1}}{"event":{"a":2},"time":"yesterday"}{"event":{"a":3}}', {
      authorization: `Splunk ${server.adminToken}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ text: 'Invalid data format', code: 6, 'invalid-event-number': 1, reason: expect.stringMatching(/invalid _time/) });
    expect(await countOf(server, dataset)).toBe(2);
  });
});

describe('HEC authentication', () => {
  it('answers 401 code 2 without a token, 401 code 3 for a malformed header, 403 code 4 for a wrong token', async () => {
    const path = '/services/collector/event?index=hec';
    const before = await countOf(server, 'hec');
    await expectHec(await server.request(path, { method: 'POST', body: '{"event":"x"}', auth: false }), 401, { text: 'Token is required', code: 2 });
    await expectHec(await post(path, '{"event":"x"}', { authorization: 'Token abc' }), 401, { text: 'Invalid authorization', code: 3 });
    await expectHec(await post(path, '{"event":"x"}', { authorization: 'Splunk not-a-token' }), 403, { text: 'Invalid token', code: 4 });
    const readOnly = await createToken(server, { hec: { query: ['read'] } });
    const forbidden = await post(path, '{"event":"x"}', { authorization: `Splunk ${readOnly}` });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: 4 });
    expect(await countOf(server, 'hec')).toBe(before);
  });
});

describe('HEC raw endpoint and health', () => {
  it('stores one event per line in _raw with the query metadata', async () => {
    const dataset = await createDataset(server, 'hec-raw');
    const admin = { authorization: `Splunk ${server.adminToken}` };
    const response = await post(`/services/collector/raw?index=${dataset}&host=h1&source=s1&sourcetype=st1`, 'first line\r\nsecond line\n\nthird line', {
      'content-type': 'text/plain',
      ...admin,
    });
    await expectHec(response, 200, { text: 'Success', code: 0 });
    const { rows } = await apl(server, `['hec-raw'] | sort by _rowId asc | project _raw, host, source, sourcetype, index`);
    expect(rows).toEqual(['first line', 'second line', 'third line'].map((line) => ({ _raw: line, host: 'h1', source: 's1', sourcetype: 'st1', index: dataset })));
    await expectHec(await post(`/services/collector/raw?index=${dataset}`, '\n\n', admin), 400, { text: 'No data', code: 5 });
  });

  it('answers health without a token', async () => {
    for (const path of ['/services/collector/health', '/services/collector/health/1.0']) {
      await expectHec(await server.request(path, { auth: false }), 200, { text: 'HEC is healthy', code: 17 });
    }
  });
});
