// The live tail (GraphQL subscription `liveEvents` over Server-Sent Events) against the real
// server: events arrive within a second of the ingest answer through several doors, filters,
// isolation between datasets, rights, caps, a slow reader's bounded queue, withdrawn access,
// shutdown, and the stream's transport (uncompressed, graphql-sse's own client).
import http from 'node:http';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { LIVE_EVENTS, LiveTailClient } from '../../helpers/events/live-tail-client';

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function createDataset(server: TestServer, name: string): Promise<void> {
  const response = await server.request('/v2/datasets', json({ name }));
  expect(response.status, await response.clone().text()).toBe(200);
}

async function createToken(server: TestServer, datasetCapabilities: Record<string, Record<string, string[]>>): Promise<{ id: string; token: string }> {
  const response = await server.request('/v2/tokens', json({ name: `token-${Math.random()}`, datasetCapabilities, orgCapabilities: {} }));
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { id: string; token: string };
}

/** Posts NDJSON lines to the dataset; resolves with the time the answer arrived. */
async function ingestNdjson(server: TestServer, dataset: string, events: Record<string, unknown>[], token?: string): Promise<number> {
  const response = await server.request(`/v1/datasets/${dataset}/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: events.map((event) => JSON.stringify(event)).join('\n'),
    ...(token ? { auth: token } : {}),
  });
  const body = (await response.json()) as { ingested: number };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.ingested).toBe(events.length);
  return Date.now();
}

const within = (ms: number) => ms;
const ONE_SECOND = within(1_000);

async function eventually(condition: () => boolean, timeoutMs = 5_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('live tail', () => {
  let server: TestServer;
  let reader: { id: string; token: string };
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error', LIVE_TAIL_ACCESS_CHECK_MS: '250' });
    for (const name of ['tail-ndjson', 'tail-otlp', 'tail-graphql', 'tail-loki', 'tail-filter', 'tail-a', 'tail-b', 'tail-rights', 'tail-revoke']) await createDataset(server, name);
    reader = await createToken(server, { 'tail-rights': { query: ['read'] } });
  });
  afterAll(() => server?.close());

  it('delivers NDJSON events within a second of the ingest answer, none from before subscribing, in order', async () => {
    await ingestNdjson(server, 'tail-ndjson', [{ msg: 'before' }]);
    const tail = await LiveTailClient.open(server, { dataset: 'tail-ndjson' });
    try {
      expect(tail.response.status).toBe(200);
      expect(tail.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const answered = await ingestNdjson(server, 'tail-ndjson', [
        { _time: '2026-01-02T03:04:05.123456789Z', msg: 'one', status: 200, nested: { level: 'info' } },
        { msg: 'two', status: 500 },
        { msg: 'three', status: 404 },
      ]);
      await tail.until(() => tail.events.length >= 3, 3_000, 'three events');
      const events = tail.events;
      expect(events.map((event) => event.data.msg)).toEqual(['one', 'two', 'three']);
      for (const event of events) expect(event.at - answered).toBeLessThanOrEqual(ONE_SECOND);
      expect(events[0]!.time).toBe('2026-01-02T03:04:05.123456789Z');
      expect(events[0]!.data).toEqual({ msg: 'one', status: 200, 'nested.level': 'info' });
      expect(Number.isNaN(Date.parse(events[1]!.sysTime))).toBe(false);
      const rowIds = events.map((event) => BigInt(event.rowId));
      expect(rowIds[0]! < rowIds[1]! && rowIds[1]! < rowIds[2]!).toBe(true);
      expect(tail.skipped).toBe(0);
      // Nothing more turns up, and certainly not the event stored before subscribing.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(tail.events.map((event) => event.data.msg)).toEqual(['one', 'two', 'three']);
    } finally {
      tail.close();
    }
  });

  it('delivers OTLP logs within a second of the export answer', async () => {
    const tail = await LiveTailClient.open(server, { dataset: 'tail-otlp' });
    try {
      const body = {
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
            scopeLogs: [{ logRecords: [{ timeUnixNano: String(Date.now() * 1_000_000), severityText: 'ERROR', body: { stringValue: 'payment failed' } }] }],
          },
        ],
      };
      const response = await server.request('/v1/logs', { ...json(body), headers: { 'content-type': 'application/json', 'x-axiom-dataset': 'tail-otlp' } });
      expect(response.status, await response.clone().text()).toBe(200);
      const answered = Date.now();
      await tail.until(() => tail.events.length >= 1, 3_000, 'the OTLP log');
      const [event] = tail.events;
      expect(event!.at - answered).toBeLessThanOrEqual(ONE_SECOND);
      expect(JSON.stringify(event!.data)).toContain('payment failed');
      expect(JSON.stringify(event!.data)).toContain('checkout');
    } finally {
      tail.close();
    }
  });

  it('delivers events ingested through GraphQL and Loki within a second', async () => {
    const graphqlTail = await LiveTailClient.open(server, { dataset: 'tail-graphql' });
    const lokiTail = await LiveTailClient.open(server, { dataset: 'tail-loki' });
    try {
      const result = await server.graphql('mutation($events: [JSON!]!) { ingest(dataset: "tail-graphql", events: $events) { ingested } }', { events: [{ door: 'graphql' }] });
      expect(result.errors).toBeUndefined();
      const graphqlAnswered = Date.now();
      const loki = await server.request('/loki/api/v1/push', {
        ...json({ streams: [{ stream: { app: 'shop' }, values: [[String(Date.now() * 1_000_000), 'line from loki']] }] }),
        headers: { 'content-type': 'application/json', 'x-axiom-dataset': 'tail-loki' },
      });
      expect(loki.status, await loki.clone().text()).toBe(204);
      const lokiAnswered = Date.now();
      await graphqlTail.until(() => graphqlTail.events.length >= 1, 3_000, 'the GraphQL event');
      await lokiTail.until(() => lokiTail.events.length >= 1, 3_000, 'the Loki line');
      expect(graphqlTail.events[0]!.data).toEqual({ door: 'graphql' });
      expect(graphqlTail.events[0]!.at - graphqlAnswered).toBeLessThanOrEqual(ONE_SECOND);
      expect(JSON.stringify(lokiTail.events[0]!.data)).toContain('line from loki');
      expect(lokiTail.events[0]!.at - lokiAnswered).toBeLessThanOrEqual(ONE_SECOND);
    } finally {
      graphqlTail.close();
      lokiTail.close();
    }
  });

  it('keeps only the events matching the filter; an unfiltered tail of the same dataset gets all', async () => {
    // A filter binds to the dataset's fields, so they exist before subscribing.
    await ingestNdjson(server, 'tail-filter', [{ status: 100, uri: '/seed' }]);
    const errorsOnly = await LiveTailClient.open(server, { dataset: 'tail-filter', filter: 'status >= 500 and uri contains "api"' });
    const everything = await LiveTailClient.open(server, { dataset: 'tail-filter' });
    try {
      const sent = [
        { status: 200, uri: '/api/a' },
        { status: 503, uri: '/api/b' },
        { status: 500, uri: '/static/c' },
        { status: 502, uri: '/api/d' },
      ];
      await ingestNdjson(server, 'tail-filter', sent.slice(0, 2));
      await ingestNdjson(server, 'tail-filter', sent.slice(2));
      const expected = sent.filter((event) => event.status >= 500 && event.uri.includes('api')).map((event) => event.uri);
      await everything.until(() => everything.events.length >= 4, 3_000, 'all four events');
      await errorsOnly.until(() => errorsOnly.events.length >= expected.length, 3_000, 'the matching events');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(errorsOnly.events.map((event) => event.data.uri)).toEqual(expected);
      expect(everything.events.map((event) => event.data.uri)).toEqual(sent.map((event) => event.uri));
    } finally {
      errorsOnly.close();
      everything.close();
    }
  });

  it('refuses a filter that does not parse or bind, before streaming', async () => {
    for (const filter of ['status >=', 'status == 1 | take 5', 'true) | project x | where (true', 'nosuchfunction(status)', 'nosuchfield == 1']) {
      const tail = await LiveTailClient.open(server, { dataset: 'tail-filter', filter });
      await tail.ended;
      expect(tail.errors.length, filter).toBe(1);
      expect(tail.errors[0]!.extensions?.code, filter).toBe('BAD_USER_INPUT');
      expect(tail.events).toEqual([]);
    }
  });

  it('shows a subscriber of one dataset nothing of another', async () => {
    const tail = await LiveTailClient.open(server, { dataset: 'tail-a' });
    try {
      await ingestNdjson(server, 'tail-b', [{ from: 'b' }, { from: 'b' }]);
      await ingestNdjson(server, 'tail-a', [{ from: 'a' }]);
      await tail.until(() => tail.events.length >= 1, 3_000, 'the event of tail-a');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(tail.events.map((event) => event.data)).toEqual([{ from: 'a' }]);
    } finally {
      tail.close();
    }
  });

  it('asks for the rights of a query: a token without query rights, or for another dataset, is refused', async () => {
    const ingestOnly = await createToken(server, { 'tail-rights': { ingest: ['create'] } });
    const cases: [string | undefined, string, string][] = [
      [ingestOnly.token, 'tail-rights', 'FORBIDDEN'],
      [reader.token, 'tail-a', 'NOT_FOUND'],
      [undefined, 'no-such-dataset', 'NOT_FOUND'],
      [undefined, 'bad name!', 'BAD_USER_INPUT'],
      ['xaat-00000000-0000-0000-0000-000000000000', 'tail-rights', 'UNAUTHENTICATED'],
    ];
    for (const [token, dataset, code] of cases) {
      const tail = await LiveTailClient.open(server, { dataset }, token);
      await tail.ended;
      expect(tail.errors.map((error) => error.extensions?.code), `${dataset} ${code}`).toEqual([code]);
    }
    const allowed = await LiveTailClient.open(server, { dataset: 'tail-rights' }, reader.token);
    try {
      await ingestNdjson(server, 'tail-rights', [{ ok: true }]);
      await allowed.until(() => allowed.events.length === 1, 3_000, 'the event');
      expect(allowed.errors).toEqual([]);
    } finally {
      allowed.close();
    }
  });

  it('ends the stream with an error once the token is deleted', async () => {
    const doomed = await createToken(server, { 'tail-revoke': { query: ['read'] } });
    const tail = await LiveTailClient.open(server, { dataset: 'tail-revoke' }, doomed.token);
    await ingestNdjson(server, 'tail-revoke', [{ n: 1 }]);
    await tail.until(() => tail.events.length === 1, 3_000, 'the first event');
    const deleted = await server.request(`/v2/tokens/${doomed.id}`, { method: 'DELETE' });
    expect(deleted.status).toBeLessThan(300);
    await tail.until(() => tail.errors.length > 0, 3_000, 'the error');
    await tail.ended;
    expect(tail.errors.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    expect(tail.completed).toBe(true);
    await eventually(() => server.app.services.liveTail.hub.size === 0, 2_000, 'the subscription to be released');
  });

  it('streams uncompressed, and serves graphql-sse\'s own client', async () => {
    const tail = await LiveTailClient.open(server, { dataset: 'tail-a' }, undefined, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    try {
      expect(tail.response.headers.get('content-encoding') ?? 'none').toMatch(/^(none|identity)$/);
      await ingestNdjson(server, 'tail-a', [{ plain: 'text' }]);
      await tail.until(() => tail.events.length >= 1, 3_000, 'the event');
    } finally {
      tail.close();
    }

    const client = createClient({ url: `${server.url}/graphql`, headers: { authorization: `Bearer ${server.adminToken}` }, retryAttempts: 0 });
    const iterator = client.iterate<{ liveEvents: { events: { data: Record<string, unknown> }[]; skipped: number } }>({ query: LIVE_EVENTS, variables: { dataset: 'tail-a' } });
    try {
      await eventually(() => server.app.services.liveTail.hub.size === 1, 3_000, 'the graphql-sse subscription');
      // Registered is not yet started: ingest until the client receives something.
      const first = iterator.next();
      const sender = setInterval(() => void ingestNdjson(server, 'tail-a', [{ via: 'graphql-sse' }]), 300);
      try {
        const { value } = await first;
        expect(value?.data?.liveEvents.events[0]?.data).toEqual({ via: 'graphql-sse' });
      } finally {
        clearInterval(sender);
      }
    } finally {
      await iterator.return?.();
      client.dispose();
    }
    await eventually(() => server.app.services.liveTail.hub.size === 0, 3_000, 'the subscription to end when the client leaves');
  });
});

describe('live tail caps', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error', LIVE_TAIL_MAX_PER_TOKEN: '2', LIVE_TAIL_MAX_SUBSCRIPTIONS: '3' });
    await createDataset(server, 'capped');
    await ingestNdjson(server, 'capped', [{ n: 0 }]);
  });
  afterAll(() => server?.close());

  it('frees the place of a client that goes away while its subscription is being set up', async () => {
    const url = new URL('/graphql', server.url);
    const body = JSON.stringify({ query: LIVE_EVENTS, variables: { dataset: 'capped' } });
    // Each request leaves a little later than the one before, so some leave during the setup.
    for (let attempt = 0; attempt < 20; attempt++) {
      await new Promise<void>((resolve) => {
        const request = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json', accept: 'text/event-stream' } });
        request.on('error', () => resolve());
        request.on('response', () => {
          request.destroy();
          resolve();
        });
        request.end(body, () => setTimeout(() => {
          request.destroy();
          resolve();
        }, attempt));
      });
    }
    await eventually(() => server.app.services.liveTail.hub.size === 0, 5_000, 'every abandoned subscription to be released');
  });

  it('refuses subscriptions past the per-token and per-server caps, naming the limit, and frees them on disconnect', async () => {
    const other = await createToken(server, { capped: { query: ['read'] } });
    const first = await LiveTailClient.open(server, { dataset: 'capped' });
    const second = await LiveTailClient.open(server, { dataset: 'capped', filter: 'n > 1' });
    const open = [first, second];
    try {
      const third = await LiveTailClient.open(server, { dataset: 'capped' });
      await third.ended;
      expect(third.errors[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
      expect(third.errors[0]?.message).toContain('LIVE_TAIL_MAX_PER_TOKEN');

      open.push(await LiveTailClient.open(server, { dataset: 'capped' }, other.token));
      const fourth = await LiveTailClient.open(server, { dataset: 'capped' }, other.token);
      await fourth.ended;
      expect(fourth.errors[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
      expect(fourth.errors[0]?.message).toContain('LIVE_TAIL_MAX_SUBSCRIPTIONS');
      expect(server.app.services.liveTail.hub.size).toBe(3);

      // A client that goes away frees its place.
      first.close();
      await eventually(() => server.app.services.liveTail.hub.size === 2, 3_000, 'the closed subscription to be released');
      const again = await LiveTailClient.open(server, { dataset: 'capped' });
      open.push(again);
      await ingestNdjson(server, 'capped', [{ n: 2 }]);
      await again.until(() => again.events.length === 1, 3_000, 'the event');
      expect(again.errors).toEqual([]);
    } finally {
      for (const tail of open) tail.close();
    }
    await eventually(() => server.app.services.liveTail.hub.size === 0 && server.app.services.liveTail.hub.tailCount === 0, 3_000, 'every tail to stop');
  });
});

describe('live tail, a reader that falls behind', () => {
  const QUEUE = 200;
  const INTERVAL_MS = 250;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error', LIVE_TAIL_QUEUE_EVENTS: String(QUEUE), LIVE_TAIL_MAX_EVENTS_PER_SECOND: '1000000', LIVE_TAIL_MESSAGE_INTERVAL_MS: String(INTERVAL_MS) });
    await createDataset(server, 'firehose');
  });
  afterAll(() => server?.close());

  it('holds at most the queue bound for it and reports what it skipped', { timeout: 120_000 }, async () => {
    // A client that stops reading its socket: the server can write no further than the socket's buffers.
    const url = new URL('/graphql', server.url);
    const chunks: Buffer[] = [];
    let response!: http.IncomingMessage;
    const request = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${server.adminToken}` },
    });
    const answered = new Promise<void>((resolve) => {
      request.on('response', (incoming) => {
        response = incoming;
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        resolve();
      });
    });
    request.end(JSON.stringify({ query: LIVE_EVENTS, variables: { dataset: 'firehose' } }));
    await answered;
    response.pause();

    const hub = server.app.services.liveTail.hub;
    // Large events, so the socket's buffers fill after a few hundred of them.
    const padding = 'x'.repeat(16_000);
    const batches = 4;
    const perBatch = 500;
    let maxHeld = 0;
    const watch = setInterval(() => (maxHeld = Math.max(maxHeld, hub.heldEvents)), 5);
    try {
      for (let batch = 0; batch < batches; batch++) {
        await ingestNdjson(server, 'firehose', Array.from({ length: perBatch }, (_, i) => ({ batch, i, padding })));
        // Each batch read on its own, once the socket's buffers are full: it waits in the queue.
        await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 2));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      maxHeld = Math.max(maxHeld, hub.heldEvents);
    } finally {
      clearInterval(watch);
    }
    expect(maxHeld).toBeLessThanOrEqual(QUEUE);
    expect(maxHeld).toBeGreaterThan(0);

    // Reading again: what was dropped meanwhile is reported as skipped.
    response.resume();
    const total = batches * perBatch;
    const tally = () => {
      let delivered = 0;
      let skipped = 0;
      // Complete messages only: the last block may still be arriving.
      for (const block of Buffer.concat(chunks).toString('utf8').split('\n\n').slice(0, -1)) {
        const data = block.split('\n').find((line) => line.startsWith('data: {'));
        if (!data) continue;
        const payload = JSON.parse(data.slice(6));
        delivered += payload.data?.liveEvents?.events.length ?? 0;
        skipped += payload.data?.liveEvents?.skipped ?? 0;
      }
      return { delivered, skipped };
    };
    // The first message after reading resumes reports what was dropped meanwhile.
    await eventually(() => tally().skipped > 0 && tally().delivered > 0, 30_000, 'a message reporting skipped events');
    const { delivered, skipped } = tally();
    expect(skipped).toBeGreaterThan(0);
    expect(delivered).toBeGreaterThan(0);
    // Never more than was stored: each event is delivered or counted at most once.
    expect(delivered + skipped).toBeLessThanOrEqual(total);
    request.destroy();
    await eventually(() => hub.size === 0, 3_000, 'the subscription to be released');
  });
});

describe('live tail, a firehose', () => {
  const RATE = 40;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error', LIVE_TAIL_MAX_EVENTS_PER_SECOND: String(RATE), LIVE_TAIL_MESSAGE_INTERVAL_MS: '250' });
    await createDataset(server, 'busy');
    await ingestNdjson(server, 'busy', [{ i: -1, status: 200 }]);
  });
  afterAll(() => server?.close());

  it('sends each subscriber at most its pace, the newest events in order, and counts every other one as skipped', { timeout: 60_000 }, async () => {
    const everything = await LiveTailClient.open(server, { dataset: 'busy' });
    const errorsOnly = await LiveTailClient.open(server, { dataset: 'busy', filter: 'status >= 500' });
    try {
      const batches = 5;
      const perBatch = 400;
      const sent: { i: number; status: number }[] = [];
      const started = Date.now();
      for (let batch = 0; batch < batches; batch++) {
        const events = Array.from({ length: perBatch }, (_, k) => {
          const i = batch * perBatch + k;
          return { i, status: i % 7 === 0 ? 503 : 200 };
        });
        sent.push(...events);
        await ingestNdjson(server, 'busy', events);
      }
      const matching = sent.filter((event) => event.status >= 500).length;
      const accounted = (tail: LiveTailClient) => tail.events.length + tail.skipped;
      await everything.until(() => accounted(everything) === sent.length, 15_000, 'every event delivered or skipped');
      await errorsOnly.until(() => accounted(errorsOnly) === matching, 15_000, 'every matching event delivered or skipped');
      const seconds = (Date.now() - started) / 1000;
      for (const [tail, total] of [[everything, sent.length], [errorsOnly, matching]] as const) {
        // One second's worth at once, then the pace.
        expect(tail.events.length).toBeLessThanOrEqual(Math.ceil(RATE * (seconds + 1)));
        expect(tail.events.length).toBeGreaterThan(0);
        expect(tail.skipped).toBe(total - tail.events.length);
        const received = tail.events.map((event) => event.data.i as number);
        expect(received).toEqual([...received].sort((a, b) => a - b));
        expect(new Set(received).size).toBe(received.length);
        // What is sent last is the newest: the stream catches up rather than lagging behind.
        expect(received.at(-1)).toBe(tail === everything ? sent.at(-1)!.i : sent.filter((event) => event.status >= 500).at(-1)!.i);
      }
      expect(errorsOnly.events.every((event) => (event.data.status as number) >= 500)).toBe(true);
      // Messages come at most every 250 ms (the first at once).
      const gaps = everything.messages.slice(1).map((message, k) => message.at - everything.messages[k]!.at);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(200);
      // Nothing more turns up.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(accounted(everything)).toBe(sent.length);
    } finally {
      everything.close();
      errorsOnly.close();
    }
  });
});

describe('live tail, server shutdown', () => {
  it('ends open streams and closes without waiting on them', async () => {
    const server = await startTestServer({ LOG_LEVEL: 'error' });
    await createDataset(server, 'closing');
    await ingestNdjson(server, 'closing', [{ n: 0 }]);
    const tails = [await LiveTailClient.open(server, { dataset: 'closing' }), await LiveTailClient.open(server, { dataset: 'closing', filter: 'n == 1' })];
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    await Promise.all(tails.map((tail) => tail.ended));
    for (const tail of tails) expect(tail.completed).toBe(true);
  });
});
