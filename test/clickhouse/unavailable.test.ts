// A server whose ClickHouse cannot take the work (out of memory, too many parts) or does not
// answer at all: queries and ingest answer 503, which clients and shippers retry, never 500, and
// nothing of a refused insert is stored. ClickHouse's HTTP interface is served by ClickHouse
// embedded (test/helpers/clickhouse-http.ts), which injects the server's error answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClickHouseHttp, startClickHouseHttp } from '../helpers/clickhouse-http';
import { startTestServer, type TestServer } from '../helpers/server';

describe('a server whose ClickHouse is in trouble', () => {
  let trouble: ClickHouseHttp;
  let server: TestServer;
  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const count = () => server.request('/v1/datasets/_apl?format=tabular', json({ apl: "['busy'] | count", startTime: '2000-01-01T00:00:00Z' }));
  const ingest = () => server.request('/v1/datasets/busy/ingest', json([{ n: 1 }]));

  beforeAll(async () => {
    trouble = await startClickHouseHttp('trouble');
    server = await startTestServer({ EVENT_STORE: 'clickhouse', CLICKHOUSE_URL: trouble.url });
    expect((await server.request('/v2/datasets', json({ name: 'busy' }))).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await trouble.close().catch(() => undefined);
  });

  it('answers 503, not 500, when ClickHouse cannot take a query or an insert now, and works again after', async () => {
    const heal = trouble.inject(/FROM `ds_/, { code: 241, name: 'MEMORY_LIMIT_EXCEEDED', message: 'Memory limit (total) exceeded: would use 9.31 GiB' });
    const refused = await count();
    expect(refused.status).toBe(503);
    expect(JSON.stringify(await refused.json())).toContain('MEMORY_LIMIT_EXCEEDED');
    heal();
    const healParts = trouble.inject(/^INSERT INTO `ds_/, { code: 252, name: 'TOO_MANY_PARTS', message: 'Too many parts (3001) in table' });
    const busy = await ingest();
    expect(busy.status).toBe(503);
    expect(JSON.stringify(await busy.json())).toContain('TOO_MANY_PARTS');
    healParts();
    expect((await ingest()).status).toBe(200);
    const counted = (await (await count()).json()) as { tables: { columns: unknown[][] }[] };
    // Only the insert that was acknowledged is stored.
    expect(counted.tables[0]!.columns[0]).toEqual([1]);
  });

  it('answers 503 when ClickHouse does not answer at all', async () => {
    await trouble.close();
    const query = await count();
    expect(query.status).toBe(503);
    expect(JSON.stringify(await query.json())).toContain('does not answer');
    expect((await ingest()).status).toBe(503);
  });
});
