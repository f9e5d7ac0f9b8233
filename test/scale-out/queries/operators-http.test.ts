// Tabular operators through the real server and the Axiom SDK: sources over several datasets
// (patterns, search and find without `in`) see only the datasets the token may query, series
// come back as arrays, and refused operators are 400s in the API's error shape.
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('tabular operators over HTTP', () => {
  let server: TestServer;
  let admin: Axiom;
  let restricted: Axiom;
  const base = Date.parse('2024-06-01T10:00:00Z');
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
  const appA = [
    { _time: at(0), msg: 'needle in app a', level: 'warn', tags: ['x', 'y'] },
    { _time: at(5), msg: 'plain', level: 'info', tags: ['z'] },
    { _time: at(65), msg: 'another needle', level: 'warn', tags: [] },
  ];
  const appB = [{ _time: at(10), msg: 'needle in app b', level: 'error', tags: ['x'] }];
  const secret = [{ _time: at(20), msg: 'needle nobody else may see', level: 'warn' }];

  beforeAll(async () => {
    server = await startTestServer();
    admin = new Axiom({ url: server.url, token: server.adminToken });
    for (const [name, events] of [
      ['app-a', appA],
      ['app-b', appB],
      ['secret', secret],
    ] as const) {
      await admin.datasets.create({ name });
      expect((await admin.ingestRaw(name, JSON.stringify(events))).ingested).toBe(events.length);
    }
    const created = await server.request('/v2/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'apps only', datasetCapabilities: { 'app-a': { query: ['read'] }, 'app-b': { query: ['read'] } }, orgCapabilities: {} }),
    });
    expect(created.status).toBe(200);
    restricted = new Axiom({ url: server.url, token: ((await created.json()) as { token: string }).token });
  });
  afterAll(() => server.close());

  const rows = async (client: Axiom, apl: string) => [...(await client.query(apl)).tables[0]!.events()];

  it('unions datasets matched by a pattern, naming each row’s dataset', async () => {
    expect(await rows(admin, 'union withsource=ds app-* | summarize n = count() by ds | order by ds asc')).toEqual([
      { ds: 'app-a', n: appA.length },
      { ds: 'app-b', n: appB.length },
    ]);
  });

  it('reads only the datasets the token may query in union *, search and find', async () => {
    expect(await rows(admin, 'union * | count')).toEqual([{ count: appA.length + appB.length + secret.length }]);
    expect(await rows(restricted, 'union * | count')).toEqual([{ count: appA.length + appB.length }]);
    const found = await rows(restricted, 'search "needle" | project $table, msg | order by msg asc');
    const expected = [...appA.map((e) => ({ $table: 'app-a', msg: e.msg })), ...appB.map((e) => ({ $table: 'app-b', msg: e.msg }))]
      .filter((row) => row.msg.split(' ').includes('needle'))
      .sort((a, b) => a.msg.localeCompare(b.msg));
    expect(found).toEqual(expected);
    expect(await rows(restricted, "find where level == 'error' project msg")).toEqual([{ source_: 'app-b', msg: appB[0]!.msg }]);
    const denied = await restricted.query("['secret'] | count").catch((error: Error) => error);
    expect(denied).toBeInstanceOf(Error);
  });

  it('returns make-series arrays, and expands them back into rows', async () => {
    const result = await admin.query(`['app-a'] | make-series n = count() default = 0 on _time from datetime(${at(0)}) to datetime(${at(120)}) step 1h by level`);
    const table = result.tables[0]!;
    expect(table.fields.map((f) => [f.name, f.type])).toEqual([
      ['level', 'string'],
      ['n', 'dynamic'],
      ['_time', 'dynamic'],
    ]);
    const byLevel = Object.fromEntries([...table.events()].map((row: any) => [row.level, row.n]));
    expect(byLevel).toEqual({ warn: [1, 1], info: [1, 0] });
    expect(await rows(admin, "['app-a'] | mv-expand with_itemindex=i tags to typeof(string) | where isnotempty(tags) | project tags, i | order by tags asc")).toEqual([
      { tags: 'x', i: 0 },
      { tags: 'y', i: 1 },
      { tags: 'z', i: 0 },
    ]);
  });

  it('answers print and datatable without any dataset', async () => {
    const result = await admin.query("print greeting = strcat('hello', ' ', 'world')");
    expect([...result.tables[0]!.events()]).toEqual([{ greeting: 'hello world' }]);
    expect(result.datasetNames).toEqual([]);
    expect(await rows(admin, "datatable(k:string, v:long) ['a', 1, 'b', 2] | summarize sum(v)")).toEqual([{ sum_v: 3 }]);
  });

  it('refuses externaldata and unknown query options with a 400 in the API error shape', async () => {
    for (const apl of ["externaldata (a:string) ['https://example.com/data.csv']", "set notruncation; ['app-a'] | count"]) {
      const response = await server.request('/v1/datasets/_apl?format=tabular', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apl }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { message: string };
      expect(body.message).toMatch(/line 1, column 1/);
    }
  });
});
