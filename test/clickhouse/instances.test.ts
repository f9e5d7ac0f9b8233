// Two server instances over one PostgreSQL and one ClickHouse (served over HTTP by ClickHouse
// embedded, test/helpers/clickhouse-http.ts): the whole scale-out shape, for metrics. Points of
// one series written through both instances at once are one series, each instance answers MPL
// and the discovery routes with what both wrote, and trim and deletion through one count on the
// other. Runs in the chdb-postgres project (it needs PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricDescriptor } from '../../src/metrics/model';
import { type ClickHouseHttp, startClickHouseHttp } from '../helpers/clickhouse-http';
import type { TestDatabase } from '../helpers/postgres';
import { freshPostgresDatabase, ON_POSTGRES, startTestServer, type TestServer } from '../helpers/server';
import { type FixtureSeries, T0, toSeriesPoints } from '../helpers/metrics/fixture';

const cpu: MetricDescriptor = { name: 'cpu', type: 'gauge', temporality: null, monotonic: null, unit: '%' };
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const range = { startTime: new Date(T0 * 1000).toISOString(), endTime: new Date((T0 + 120) * 1000).toISOString() };

async function write(server: TestServer, series: FixtureSeries[]) {
  const metrics = server.app.services.metrics;
  const principal = await server.app.services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
  await metrics.write(await metrics.resolve(principal, 'sm', 'ingest'), toSeriesPoints(series));
}

async function mpl(server: TestServer, query: string) {
  const response = await server.request('/v1/query/_mpl', json({ mpl: query, ...range }));
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const series = (JSON.parse(text) as { series: { tags: { host: string }; data: (number | null)[] }[] }).series;
  return series.map((entry) => [entry.tags.host, entry.data]).sort();
}

describe.runIf(ON_POSTGRES)('two instances over one PostgreSQL and one ClickHouse', () => {
  let endpoint: ClickHouseHttp;
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    endpoint = await startClickHouseHttp();
    database = await freshPostgresDatabase();
    const env = { DATABASE_URL: database.url, EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: endpoint.url };
    a = await startTestServer(env);
    b = await startTestServer(env);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    await endpoint?.close();
  });

  it('keeps one set of metrics for both: written through both, answered alike by each', async () => {
    expect((await a.request('/v2/datasets', json({ name: 'sm', kind: 'otel:metrics:v1' }))).status).toBe(200);
    // The same series (host a) written through both instances at once, host b through one.
    await Promise.all([
      write(a, [
        { metric: cpu, tags: { host: 'a' }, points: [[T0, 1], [T0 + 30, 2]] },
        { metric: cpu, tags: { host: 'b' }, points: [[T0 - 10 * 86_400, 100]] },
      ]),
      write(b, [
        { metric: cpu, tags: { host: 'a' }, points: [[T0 + 15, 4], [T0 + 75, 5]] },
        { metric: cpu, tags: { host: 'b' }, points: [[T0 + 45, 8]] },
      ]),
    ]);
    // T0 is on the hour: host a's first minute holds 1, 4 and 2, its second 5.
    const expected = [
      ['a', [7, 5]],
      ['b', [8, null]],
    ];
    expect(await mpl(a, 'sm:cpu | align to 1m using sum')).toEqual(expected);
    expect(await mpl(b, 'sm:cpu | align to 1m using sum')).toEqual(expected);

    const info = `/v1/query/metrics/info/datasets/sm/metrics?start=${encodeURIComponent(range.startTime)}&end=${encodeURIComponent(range.endTime)}`;
    for (const server of [a, b]) {
      const response = await server.request(info);
      expect(await response.json()).toEqual({ cpu: { type: 'Gauge', temporality: null, unit: '%' } });
    }
  });

  it('trims and deletes through one instance what the other wrote', async () => {
    const trim = await b.request('/v1/datasets/sm/trim', json({ maxDuration: '120h' }));
    expect(((await trim.json()) as { numDeleted: number }).numDeleted).toBe(1);
    expect((await b.request('/v2/datasets/sm', { method: 'DELETE' })).status).toBe(204);
    expect((await a.request('/v1/query/_mpl', json({ mpl: 'sm:cpu | align to 1m using sum', ...range }))).status).toBe(404);
    const tables = endpoint.statements.filter((statement) => /^DROP TABLE IF EXISTS `ds_[^`]*_(series|points|dists)`/.test(statement));
    expect(tables).toHaveLength(3);
  });
});
