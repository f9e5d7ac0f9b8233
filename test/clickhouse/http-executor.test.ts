// The production executor (`HttpExecutor`, over the official @clickhouse/client) against
// ClickHouse's HTTP interface, served here by ClickHouse embedded (test/helpers/clickhouse-http.ts):
// statements, settings, inserts and errors on the request path, then a whole server with
// EVENT_STORE=clickhouse and CLICKHOUSE_URL ingesting, querying and trimming through its API,
// events and metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseError } from '../../src/engines/clickhouse/executor';
import { HttpExecutor } from '../../src/engines/clickhouse/http-executor';
import { type ClickHouseHttp, startClickHouseHttp } from '../helpers/clickhouse-http';
import { startTestServer, type TestServer } from '../helpers/server';
import { T0, toSeriesPoints } from '../helpers/metrics/fixture';

let endpoint: ClickHouseHttp;
let executor: HttpExecutor;

beforeAll(async () => {
  endpoint = await startClickHouseHttp();
  executor = HttpExecutor.open(endpoint.url, { join_use_nulls: 1 });
});
afterAll(async () => {
  await executor.close();
  await endpoint.close();
});

describe('the HTTP executor', () => {
  it('runs commands and queries, with typed rows', async () => {
    await executor.command('CREATE TABLE t (n Int64, s Nullable(String)) ENGINE = MergeTree ORDER BY n');
    const { columns, rows } = await executor.query("SELECT 9007199254740993 AS big, 'a\\tb' AS text, NULL AS nothing");
    expect(columns.map((c) => c.name)).toEqual(['big', 'text', 'nothing']);
    expect(rows).toEqual([['9007199254740993', 'a\tb', null]]);
  });

  it('inserts TabSeparated rows into named columns', async () => {
    await executor.insert('t', ['n', 's'], Buffer.from('1\tone\n2\t\\N\n3\tline\\nbreak\n'));
    const { rows } = await executor.query('SELECT n, s FROM t ORDER BY n');
    expect(rows).toEqual([
      ['1', 'one'],
      ['2', null],
      ['3', 'line\nbreak'],
    ]);
  });

  it('sends the defaults and per-statement settings with each statement', async () => {
    await executor.query('SELECT 1', { settings: { max_result_rows: 1000 } });
    const last = endpoint.statements.at(-1)!;
    expect(last).toMatch(/SETTINGS .*join_use_nulls = 1/);
    expect(last).toMatch(/max_result_rows = 1000/);
  });

  it('reports ClickHouse errors with their codes', async () => {
    const missing = await executor.query('SELECT * FROM no_such_table').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ClickHouseError);
    expect((missing as ClickHouseError).code).toBe(60);
    const syntax = await executor.command('SELEC 1').catch((error: unknown) => error);
    expect((syntax as ClickHouseError).code).toBe(62);
  });
});

describe('a server with EVENT_STORE=clickhouse', () => {
  let server: TestServer;
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    server = await startTestServer({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: endpoint.url });
  });
  afterAll(() => server.close());

  it('ingests, queries and trims through the API', async () => {
    expect((await server.request('/v2/datasets', json({ name: 'web' }))).status).toBe(200);
    const now = Date.now();
    const events = [
      { _time: new Date(now - 3 * 86_400_000).toISOString(), status: 200, path: '/a' },
      { _time: new Date(now - 60_000).toISOString(), status: 500, path: '/b' },
      { _time: new Date(now - 30_000).toISOString(), status: 503, path: '/b', note: 'retry' },
    ];
    const ingest = await server.request('/v1/datasets/web/ingest', json(events));
    expect(((await ingest.json()) as { ingested: number }).ingested).toBe(3);

    const query = await server.request(
      '/v1/datasets/_apl?format=tabular',
      json({ apl: "['web'] | where status >= 500 | summarize n = count() by path", startTime: new Date(now - 7 * 86_400_000).toISOString() }),
    );
    const body = (await query.json()) as { tables: { columns: unknown[][] }[] };
    expect(body.tables[0]!.columns).toEqual([['/b'], [2]]);

    const trim = await server.request('/v1/datasets/web/trim', json({ maxDuration: '24h' }));
    expect(trim.status).toBe(200);
    const left = await server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['web'] | count", startTime: new Date(now - 7 * 86_400_000).toISOString() }));
    expect(((await left.json()) as { tables: { columns: unknown[][] }[] }).tables[0]!.columns[0]).toEqual([2]);
    const inserts = endpoint.statements.filter((statement) => /^INSERT INTO `ds_/.test(statement));
    expect(inserts.length).toBeGreaterThan(0);
    // Answered only once written, with ClickHouse gathering small inserts into few parts.
    for (const insert of inserts) expect(insert.split('\n')[0]).toMatch(/SETTINGS .*async_insert = 1, wait_for_async_insert = 1/);
  });

  it('keeps metrics in the same ClickHouse: points in, MPL out, trimmed', async () => {
    expect((await server.request('/v2/datasets', json({ name: 'otel', kind: 'otel:metrics:v1' }))).status).toBe(200);
    const metrics = server.app.services.metrics;
    const principal = await server.app.services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
    const gauge = { name: 'cpu', type: 'gauge' as const, temporality: null, monotonic: null, unit: '%' };
    await metrics.write(
      await metrics.resolve(principal, 'otel', 'ingest'),
      toSeriesPoints([
        { metric: gauge, tags: { host: 'a' }, points: [[T0, 1], [T0 + 30, 3], [T0 + 60, 10]] },
        { metric: gauge, tags: { host: 'b' }, points: [[T0 - 10 * 86_400, 7], [T0 + 15, 4]] },
      ]),
    );
    expect(endpoint.statements.some((statement) => /^INSERT INTO `ds_[^`]*_points`/.test(statement))).toBe(true);
    const range = { startTime: new Date(T0 * 1000).toISOString(), endTime: new Date((T0 + 120) * 1000).toISOString() };
    const answer = await server.request('/v1/query/_mpl', json({ mpl: 'otel:cpu | align to 1m using avg', ...range }));
    expect(answer.status).toBe(200);
    const series = ((await answer.json()) as { series: { tags: Record<string, unknown>; data: (number | null)[] }[] }).series;
    // T0 is on the hour: a's first minute averages 1 and 3, b's holds 4.
    expect(series.map((s) => [s.tags, s.data]).sort((x, y) => String((x[0] as { host: string }).host).localeCompare(String((y[0] as { host: string }).host)))).toEqual([
      [{ host: 'a' }, [2, 10]],
      [{ host: 'b' }, [4, null]],
    ]);
    const trim = await server.request('/v1/datasets/otel/trim', json({ maxDuration: '120h' }));
    expect(((await trim.json()) as { numDeleted: number }).numDeleted).toBe(1);
  });
});
