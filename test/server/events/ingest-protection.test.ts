// Ingest under clients that stall, dribble, flood or send pathological bodies: the body is read
// before the request takes an ingest turn, a stalled or too slow body is refused with 408 and
// its connection closed, turns go to the token that holds fewest, events nested too deep fail
// alone, and blank lines cost nothing.
import { connect, type Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INGEST_BODY_IDLE_TIMEOUT_MS: '1000', INGEST_BODY_MIN_BYTES_PER_SECOND: '2000' });
  for (const name of ['stall', 'flood', 'deep', 'blank']) {
    expect((await server.request('/v2/datasets', json({ name }))).status).toBe(200);
  }
});
afterAll(() => server.close());

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function tokenFor(dataset: string): Promise<string> {
  const response = await server.request('/v2/tokens', json({ name: `t-${Math.random()}`, datasetCapabilities: { [dataset]: { ingest: ['create'], query: ['read'] } } }));
  return ((await response.json()) as { token: string }).token;
}

async function count(dataset: string): Promise<number> {
  const response = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: `['${dataset}'] | count` }));
  return ((await response.json()) as any).tables[0].columns[0][0];
}

/** Opens a raw connection and sends the head of an ingest request and the first body bytes. */
async function startUpload(dataset: string, token: string, contentLength: number, firstBytes: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  socket.write(
    `POST /v1/datasets/${dataset}/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/x-ndjson\r\nContent-Length: ${contentLength}\r\n\r\n${firstBytes}`,
  );
  return { socket, answer };
}

describe('clients that stall or dribble', () => {
  it('does not let stalled uploads hold the ingest turns: others are served, the stalled get 408 and a closed connection', async () => {
    const staller = await tokenFor('stall');
    const other = await tokenFor('stall');
    // Four stalled uploads, twice as many as there are ingest turns, from one token.
    const stalled = await Promise.all(Array.from({ length: 4 }, () => startUpload('stall', staller, 1000, '{"partial":')));
    // Meanwhile both tokens ingest as usual.
    for (const token of [other, staller]) {
      const response = await server.request('/v1/datasets/stall/ingest', {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: '{"served":1}',
        auth: token,
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { ingested: number }).ingested).toBe(1);
    }
    // After the idle timeout each stalled upload is answered 408 and its connection closed.
    for (const { answer } of stalled) {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(text, text).toMatch(/sent nothing for 1000 ms/);
      expect(text.toLowerCase()).toMatch(/connection: close/);
    }
    expect(await count('stall')).toBe(2);
  });

  it('refuses a body that keeps arriving slower than the minimum rate', async () => {
    const token = await tokenFor('stall');
    const { socket, answer } = await startUpload('stall', token, 100_000, '{');
    // A byte every 300 ms never trips the idle timeout, but is far below 2,000 bytes per second.
    const drip = setInterval(() => socket.write(' '), 300);
    try {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(text).toMatch(/slower than 2000 bytes per second/);
    } finally {
      clearInterval(drip);
    }
    expect(await count('stall')).toBe(2);
  });
});

describe('many requests from one token', () => {
  it('serves another token between them instead of after all of them', async () => {
    const FLOOD = 24;
    const flooder = await tokenFor('flood');
    const patient = await tokenFor('flood');
    const body = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, text: `event number ${i}`, n: i * 3 })).join('\n');
    const finished: string[] = [];
    const send = (token: string, name: string) =>
      server
        .request('/v1/datasets/flood/ingest', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body, auth: token })
        .then(async (response) => {
          expect(response.status).toBe(200);
          await response.arrayBuffer();
          finished.push(name);
        });
    const flood = Array.from({ length: FLOOD }, (_, i) => send(flooder, `flood-${i}`));
    // Let the flood's bodies arrive and queue for turns (its first answer shows they have), then
    // ask once from the other token.
    while (finished.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const queuedBefore = FLOOD - finished.length;
    await Promise.all([...flood, send(patient, 'patient')]);
    expect(queuedBefore).toBeGreaterThan(12);
    // Fair turns: the other token waits for the requests in progress (INGEST_CONCURRENCY's turns,
    // and those written in the same transaction as it), not for the whole flood.
    expect(finished.indexOf('patient')).toBeLessThan(FLOOD - queuedBefore + 8);
    expect(await count('flood')).toBe((FLOOD + 1) * 5000);
  }, 60_000);
});

describe('pathological bodies', () => {
  it('fails an event nested 10,000 deep alone and stores the valid one beside it', async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const deepList = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const body = `[{"valid":1},${deep},{"list":${deepList}},{"valid":2}]`;
    const response = await server.request('/v1/datasets/deep/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(200);
    const status = (await response.json()) as { ingested: number; failed: number; failures: { error: string }[] };
    expect(status).toMatchObject({ ingested: 2, failed: 2 });
    expect(status.failures[1]!.error).toBe('the event nests objects and arrays deeper than 100 levels');
    // The same as NDJSON, and through GraphQL (whose body must stay within JSON_MAX_DEPTH).
    const ndjson = await server.request('/v1/datasets/deep/ingest', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `{"valid":3}\n{"list":${deepList}}`,
    });
    expect(await ndjson.json()).toMatchObject({ ingested: 1, failed: 1 });
    let nested: unknown = [];
    for (let i = 0; i < 110; i++) nested = [nested];
    const graphql = await server.graphql('mutation($events: [JSON!]!) { ingest(dataset: "deep", events: $events) { ingested failed failures { error } } }', {
      events: [{ valid: 4 }, { list: nested }],
    });
    expect(graphql.data.ingest).toMatchObject({ ingested: 1, failed: 1, failures: [{ error: 'the event nests objects and arrays deeper than 100 levels' }] });
    expect(await count('deep')).toBe(4);
  });

  it('reads 99 MB of blank lines from a 100 KB gzip body as nothing', async () => {
    const body = zlib.gzipSync(Buffer.concat([Buffer.alloc(99 * 1024 * 1024, 0x0a), Buffer.from('{"after":"blank lines"}\n')]));
    expect(body.length).toBeLessThan(200_000);
    const response = await server.request('/v1/datasets/blank/ingest', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ingested: 1, failed: 0 });
    // A line that is not JSON is still reported with its line number, counted across blank lines.
    const bad = await server.request('/v1/datasets/blank/ingest', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: '\n\n  \r\n{"ok":1}\n\n nope \n',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^line 6 is not valid JSON/);
  });

  it('refuses a timestamp-field longer than a field name may be', async () => {
    const response = await server.request(`/v1/datasets/blank/ingest?timestamp-field=${'a.'.repeat(5000)}t`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/timestamp-field is longer than 200 bytes/);
  });
});
