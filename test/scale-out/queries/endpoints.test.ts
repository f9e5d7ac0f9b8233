import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

const HOUR = 3_600_000;

describe('query endpoints', () => {
  let server: TestServer;
  let axiom: Axiom;
  const now = Date.now();
  const events = Array.from({ length: 60 }, (_, i) => ({
    _time: new Date(now - i * 60_000).toISOString(),
    status: i % 6 === 0 ? 503 : 200,
    uri: ['/api/users', '/api/orders', '/health'][i % 3],
    duration: i * 10,
    req: { method: i % 2 ? 'GET' : 'POST' },
  }));

  beforeAll(async () => {
    // A budget the file's quick queries keep on a busy machine, which the heavy one below passes.
    server = await startTestServer({ QUERY_TIMEOUT_MS: '2000' });
    axiom = new Axiom({ url: server.url, token: server.adminToken });
    await axiom.datasets.create({ name: 'http-logs' });
    const status = await axiom.ingestRaw('http-logs', JSON.stringify(events));
    expect(status.ingested).toBe(60);
  });
  afterAll(() => server.close());

  const post = (path: string, body: unknown, auth?: string) =>
    server.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), auth });

  it('answers the SDK query() in the tabular format with computed results', async () => {
    const result = await axiom.query("['http-logs'] | where status >= 500 | summarize count() by uri | order by uri asc");
    const table = result.tables[0]!;
    expect(table.fields.map((f) => f.name)).toEqual(['uri', 'count_']);
    const expected = new Map<string, number>();
    for (const event of events.filter((e) => e.status >= 500)) expected.set(event.uri!, (expected.get(event.uri!) ?? 0) + 1);
    const rows = [...table.events()];
    expect(rows).toEqual([...expected.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([uri, count]) => ({ uri, count_: count })));
    expect(result.datasetNames).toEqual(['http-logs']);
    expect(result.status.rowsMatched).toBeGreaterThan(0);
  });

  it('answers the legacy format with matches carrying _time, _sysTime, _rowId and data', async () => {
    const result = (await axiom.query("['http-logs'] | where uri == '/health' | take 3", { format: 'legacy' } as any)) as any;
    expect(result.matches).toHaveLength(3);
    for (const match of result.matches) {
      expect(match).toEqual({
        _time: expect.any(String),
        _sysTime: expect.any(String),
        _rowId: expect.any(String),
        data: expect.objectContaining({ uri: '/health', 'req.method': expect.any(String) }),
      });
    }
    // newest first
    const times = result.matches.map((m: any) => Date.parse(m._time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('lists in legacy matches and GraphQL events only the fields each event has', async () => {
    await axiom.datasets.create({ name: 'sparse' });
    await axiom.ingestRaw('sparse', JSON.stringify([{ a: 1 }, { b: 'two', n: { c: true } }]));
    const legacy = (await axiom.query("['sparse'] | order by _time asc", { format: 'legacy' } as any)) as any;
    expect(legacy.matches.map((match: any) => match.data)).toEqual([{ a: 1 }, { b: 'two', 'n.c': true }]);
    const graphql = await server.graphql('{ events(dataset: "sparse", last: 2) { edges { node { data } } } }');
    expect(graphql.data.events.edges.map((edge: any) => edge.node.data)).toEqual([{ b: 'two', 'n.c': true }, { a: 1 }]);
  });

  it('answers queryLegacy() with buckets per group', async () => {
    const result = await axiom.queryLegacy('http-logs', {
      startTime: new Date(now - 2 * HOUR).toISOString(),
      endTime: new Date(now + 60_000).toISOString(),
      resolution: 'auto',
      aggregations: [{ op: 'count', field: '*' } as any],
      groupBy: ['status'],
      filter: { op: 'starts-with', field: 'uri', value: '/api' } as any,
    });
    const totals = Object.fromEntries(result.buckets.totals!.map((group: any) => [group.group.status, group.aggregations[0].value]));
    const apiEvents = events.filter((e) => e.uri!.startsWith('/api'));
    expect(totals).toEqual({
      200: apiEvents.filter((e) => e.status === 200).length,
      503: apiEvents.filter((e) => e.status === 503).length,
    });
  });

  it('serves /api/v1/datasets/_apl and the v1 legacy query path too', async () => {
    const response = await post('/api/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | count" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.tables[0].columns[0]).toEqual([60]);
    const legacy = await post('/api/v1/datasets/http-logs/query', {
      startTime: new Date(now - 2 * HOUR).toISOString(),
      endTime: new Date(now + 60_000).toISOString(),
      resolution: 'auto',
      limit: 5,
    });
    expect(legacy.status).toBe(200);
    expect(((await legacy.json()) as any).matches).toHaveLength(5);
  });

  it('describes fields in fieldsMetaMap with what users set on them', async () => {
    const put = await server.request('/v2/datasets/http-logs/fields/duration', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ unit: 'ms', description: 'time to first byte', hidden: true }),
    });
    expect(put.status).toBe(200);
    const body = (await (await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | take 1" })).json()) as any;
    const duration = body.fieldsMetaMap['http-logs'].find((field: any) => field.name === 'duration');
    expect(duration).toEqual({ name: 'duration', type: 'integer', unit: 'ms', description: 'time to first byte', hidden: true });
    const legacy = (await (
      await post('/v1/datasets/http-logs/query', { startTime: 'now-1d', endTime: 'now', resolution: 'auto', limit: 1 })
    ).json()) as any;
    expect(legacy.fieldsMeta.find((field: any) => field.name === 'duration').unit).toBe('ms');
  });

  it('applies startTime and endTime, RFC 3339 or relative', async () => {
    const count = async (range: Record<string, string>) => {
      const body = (await (await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | count", ...range })).json()) as any;
      return body.tables[0].columns[0][0];
    };
    expect(await count({ startTime: 'now-30m', endTime: 'now' })).toBe(events.filter((e) => Date.parse(e._time!) >= Date.now() - 30 * 60_000).length);
    expect(await count({ startTime: new Date(now - 10 * 60_000 - 1).toISOString(), endTime: new Date(now).toISOString() })).toBe(11);
  });

  describe('bad requests', () => {
    it('reports syntax errors with line, column, what was found and what was expected', async () => {
      const response = await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs']\n| where status >" });
      expect(response.status).toBe(400);
      const body = (await response.json()) as any;
      expect(body.error).toMatch(/line 2, column \d+/);
      expect(body.error).toMatch(/expected/i);
    });

    it('names the closest fields for an unknown one', async () => {
      const body = (await (await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | project durration" })).json()) as any;
      expect(body.error).toMatch(/unknown field "durration".*duration/);
    });

    it.each([
      [{}, /apl: is required/],
      [{ apl: '' }, /apl: must not be empty/],
      [{ apl: "['http-logs']", includeCursor: 'yes' }, /includeCursor/],
      [{ apl: "['http-logs']", startTime: 'yesterday-ish' }, /startTime/],
    ])('rejects the body %j', async (body, message) => {
      const response = await post('/v1/datasets/_apl?format=tabular', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error).toMatch(message);
    });

    it('rejects an unknown format', async () => {
      const response = await post('/v1/datasets/_apl?format=xml', { apl: "['http-logs']" });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error).toMatch(/format must be "tabular" or "legacy"/);
    });

    it('answers 404 for unknown datasets, including names made to break out of quoting', async () => {
      for (const name of ['nope', `x'; DROP TABLE datasets; --`, 'a"b']) {
        const apl = `['${name.replaceAll("'", "\\'")}'] | count`;
        const response = await post('/v1/datasets/_apl?format=tabular', { apl });
        expect([400, 404]).toContain(response.status);
      }
      expect((await post('/v1/datasets/nope/query', { startTime: 'now-1h', endTime: 'now', resolution: 'auto' })).status).toBe(404);
      expect(((await (await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | count" })).json()) as any).tables[0].columns[0]).toEqual([60]);
    });

    it('validates the legacy query body', async () => {
      const response = await post('/v1/datasets/http-logs/query', { resolution: 'auto' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error).toMatch(/startTime: is required/);
    });
  });

  describe('capabilities', () => {
    it('lets a query-only token query and not ingest, and an ingest-only token the reverse', async () => {
      const create = async (capabilities: object) =>
        ((await (await post('/v2/tokens', { name: 't', datasetCapabilities: { 'http-logs': capabilities } })).json()) as any).token as string;
      const reader = await create({ query: ['read'] });
      const writer = await create({ ingest: ['create'] });
      expect((await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | count" }, reader)).status).toBe(200);
      expect((await post('/v1/datasets/http-logs/ingest', [{ a: 1 }], reader)).status).toBe(403);
      const denied = await post('/v1/datasets/_apl?format=tabular', { apl: "['http-logs'] | count" }, writer);
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as any).error).toMatch(/query:read/);
      expect((await post('/v1/datasets/http-logs/ingest', [{ a: 1 }], writer)).status).toBe(200);
      expect((await post('/v1/datasets/http-logs/query', { startTime: 'now-1h', endTime: 'now', resolution: 'auto' }, writer)).status).toBe(403);
    });

    it('answers a dataset the token holds nothing on exactly as a missing one, in every door', async () => {
      const created = await post('/v2/tokens', { name: 'elsewhere', datasetCapabilities: { 'some-other-dataset': { query: ['read'], ingest: ['create'] } } });
      const stranger = ((await created.json()) as any).token as string;
      const answers = async (dataset: string) => {
        const aplAnswer = await post('/v1/datasets/_apl?format=tabular', { apl: `['${dataset}'] | count` }, stranger);
        const legacyAnswer = await post(`/v1/datasets/${dataset}/query`, { startTime: 'now-1h', endTime: 'now', resolution: 'auto' }, stranger);
        const ingestAnswer = await post(`/v1/datasets/${dataset}/ingest`, [{ a: 1 }], stranger);
        const bodies = await Promise.all([aplAnswer, legacyAnswer, ingestAnswer].map(async (response) => [response.status, ((await response.json()) as any).error]));
        return JSON.stringify(bodies).replaceAll(dataset, 'DATASET');
      };
      const hidden = await answers('http-logs');
      expect(hidden).toBe(await answers('never-existed'));
      expect(JSON.parse(hidden).map(([status]: [number]) => status)).toEqual([404, 404, 404]);
    });
  });

  it('cancels a query past QUERY_TIMEOUT_MS with a clear error, without blocking ingest', async () => {
    // Joining 60 rows with themselves six times over is 60^6 (47 billion) rows: far past 2 s.
    const side = "(['http-logs'] | extend k = 1)";
    const heavy = `['http-logs'] | extend k = 1${` | join kind=inner ${side} on k`.repeat(5)} | summarize dcount(strcat(uri, duration))`;
    const started = Date.now();
    const [slow, ingest] = await Promise.all([
      post('/v1/datasets/_apl?format=tabular', { apl: heavy }),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const t0 = Date.now();
        const response = await post('/v1/datasets/http-logs/ingest', [{ during: 'the slow query' }]);
        return { status: response.status, ms: Date.now() - t0 };
      })(),
    ]);
    expect(slow.status).toBe(408);
    expect(((await slow.json()) as any).error).toMatch(/time|budget|cancel/i);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ingest.status).toBe(200);
  });
});
