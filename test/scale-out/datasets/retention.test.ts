import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function createWithEvents(name: string, retention: { retentionDays: number; useRetentionPeriod: boolean }) {
    const response = await server.request('/v2/datasets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, ...retention }),
    });
    expect(response.status).toBe(200);
    const { services } = server.app;
    const principal = await services.auth.authenticate({ authorization: `Bearer ${server.adminToken}`, orgId: undefined });
    const dataset = await services.datasets.get(principal, name);
    const day = 86_400_000;
    const status = await services.ingest.ingestEvents(dataset, [
      { _time: new Date(Date.now() - 10 * day).toISOString(), age: 'ten days' },
      { _time: new Date(Date.now() - 3 * day).toISOString(), age: 'three days' },
      { _time: new Date(Date.now() - 60_000).toISOString(), age: 'a minute' },
    ]);
    expect(status.ingested).toBe(3);
    return dataset;
  }

  async function remaining(table: string) {
    const result = await server.app.services.eventStore.query(`SELECT count(*) AS n FROM "${table}"`);
    return Number(result.rows[0]![0]);
  }

  it('deletes events older than the retention period of datasets that use one, and only those', async () => {
    const kept = await createWithEvents('retained-week', { retentionDays: 7, useRetentionPeriod: true });
    const short = await createWithEvents('retained-two-days', { retentionDays: 2, useRetentionPeriod: true });
    const unused = await createWithEvents('retention-off', { retentionDays: 1, useRetentionPeriod: false });

    const deleted = await server.app.services.retention.sweep();
    expect(deleted).toEqual({ 'retained-week': 1, 'retained-two-days': 2 });
    expect(await remaining(kept.tableName)).toBe(2);
    expect(await remaining(short.tableName)).toBe(1);
    expect(await remaining(unused.tableName)).toBe(3);
  });
});
