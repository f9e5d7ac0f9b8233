// Two server instances over one PostgreSQL database, each with its own DuckDB data directory,
// as several stateless instances behind a load balancer would run: what is created, changed,
// revoked or deleted through one takes effect through the other on its very next request
// (nothing relational is cached), start-up bootstraps the store once, and background work
// runs on one instance only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_LEASE } from '../../src/datasets/retention';
import type { TestDatabase } from '../helpers/postgres';
import { freshPostgresDatabase, startTestServer, type TestServer } from '../helpers/server';

async function json(server: TestServer, method: string, path: string, body?: unknown, auth?: string) {
  const response = await server.request(path, {
    method,
    ...(auth !== undefined ? { auth } : {}),
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('two instances over one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    // Started together over an empty database: migrations, the admin identity and the first
    // catalog import must each happen once.
    [a, b] = await Promise.all([startTestServer({ DATABASE_URL: database.url }), startTestServer({ DATABASE_URL: database.url })]);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it('bootstraps the shared store once', async () => {
    expect(a.app.services.store.provider).toBe('postgresql');
    expect(a.dataDir).not.toBe(b.dataDir);
    const { prisma } = a.app.services.store;
    expect(await prisma.organization.count()).toBe(1);
    expect(await prisma.user.count()).toBe(1);
    expect(await prisma.token.count()).toBe(1);
    expect(await prisma.catalogSync.count()).toBe(1);
    expect((await json(a, 'GET', '/v2/user')).body.id).toBe((await json(b, 'GET', '/v2/user')).body.id);
    expect((await (await b.request('/api/v1/models?providers=openai')).json()) as unknown[]).not.toHaveLength(0);
  });

  it('runs the retention sweep on one instance only', async () => {
    const sweeping = [a, b].filter((server) => server.app.services.retention.sweeping);
    expect(sweeping).toHaveLength(1);
    const state = await a.app.services.store.leases.state(RETENTION_LEASE);
    expect(state).toMatchObject({ holder: sweeping[0]!.app.services.store.leases.instanceId, live: true });
  });

  it('honours a token created through one instance on the other, and refuses it there once deleted', async () => {
    const created = await json(a, 'POST', '/v2/tokens', { name: 'reader', orgCapabilities: { datasets: ['read'] } });
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    expect((await json(b, 'GET', '/v1/datasets', undefined, token)).status).toBe(200);
    expect((await json(a, 'DELETE', `/v2/tokens/${created.body.id}`)).status).toBe(204);
    const refused = await json(b, 'GET', '/v1/datasets', undefined, token);
    expect(refused.status).toBe(401);
  });

  it('expires a regenerated token\'s old secret on both instances', async () => {
    const created = await json(b, 'POST', '/v2/tokens', { name: 'rotating', orgCapabilities: { datasets: ['read'] } });
    const regenerated = await json(b, 'POST', `/v2/tokens/${created.body.id}/regenerate`, {
      existingTokenExpiresAt: new Date(Date.now() - 1000).toISOString(),
      newTokenExpiresAt: null,
    });
    expect(regenerated.status).toBe(200);
    expect((await json(a, 'GET', '/v1/datasets', undefined, created.body.token)).status).toBe(401);
    expect((await json(a, 'GET', '/v1/datasets', undefined, regenerated.body.token)).status).toBe(200);
  });

  it('serves a dataset created through one instance on the other, events and all, until it is deleted', async () => {
    expect((await json(a, 'POST', '/v1/datasets', { name: 'shared', description: 'first' })).status).toBe(200);
    expect((await json(b, 'GET', '/v1/datasets/shared')).body).toMatchObject({ name: 'shared', description: 'first' });
    expect((await json(b, 'GET', '/v1/datasets')).body.map((d: { name: string }) => d.name)).toContain('shared');

    // B has no table for it yet: the first ingest creates one in B's own event store.
    const ingested = await json(b, 'POST', '/v1/datasets/shared/ingest', [{ status: 200, path: '/b' }]);
    expect(ingested.body).toMatchObject({ ingested: 1, failed: 0 });
    expect((await json(a, 'POST', '/v1/datasets/shared/ingest', [{ status: 500, path: '/a' }])).body).toMatchObject({ ingested: 1 });
    const counted = await json(b, 'POST', '/v1/datasets/_apl?format=tabular', { apl: "['shared'] | summarize n = count()" });
    expect(counted.status).toBe(200);
    expect(counted.body.tables[0].columns[0]).toEqual([1]); // each instance holds its own events here

    // Field metadata set through one instance shows in the other's answers.
    expect((await json(b, 'PUT', '/v2/datasets/shared/fields/status', { unit: 'ms', description: 'HTTP status' })).status).toBe(200);
    const described = await json(a, 'POST', '/v1/datasets/_apl?format=tabular', { apl: "['shared'] | take 5" });
    const status = described.body.fieldsMetaMap.shared.find((field: { name: string }) => field.name === 'status');
    expect(status).toMatchObject({ unit: 'ms', description: 'HTTP status' });

    expect((await json(b, 'PUT', '/v1/datasets/shared', { description: 'second' })).status).toBe(200);
    expect((await json(a, 'GET', '/v1/datasets/shared')).body.description).toBe('second');

    expect((await json(a, 'DELETE', '/v1/datasets/shared')).status).toBe(204);
    expect((await json(b, 'GET', '/v1/datasets/shared')).status).toBe(404);
    expect((await json(b, 'POST', '/v1/datasets/shared/ingest', [{ status: 200 }])).status).toBe(404);
    expect((await json(b, 'POST', '/v1/datasets/_apl', { apl: "['shared'] | count" })).status).toBe(404);
    expect((await json(b, 'GET', '/v1/datasets')).body.map((d: { name: string }) => d.name)).not.toContain('shared');
  });

  it('lets a dataset of the same name be created again through the other instance', async () => {
    expect((await json(a, 'POST', '/v1/datasets', { name: 'again' })).status).toBe(200);
    expect((await json(b, 'POST', '/v1/datasets', { name: 'again' })).status).toBe(409);
    expect((await json(b, 'DELETE', '/v1/datasets/again')).status).toBe(204);
    expect((await json(b, 'POST', '/v1/datasets', { name: 'again' })).status).toBe(200);
    expect((await json(a, 'POST', '/v1/datasets/again/ingest', [{ n: 1 }])).body).toMatchObject({ ingested: 1 });
  });

  it('shows a user renamed through one instance under the new name on the other', async () => {
    expect((await json(a, 'PUT', '/v2/user', { name: 'Renamed Admin' })).status).toBe(200);
    expect((await json(b, 'GET', '/v2/user')).body.name).toBe('Renamed Admin');
  });

  it('accepts the other instance\'s query cursors (one signing key for the deployment)', async () => {
    await json(a, 'POST', '/v1/datasets', { name: 'paged' });
    await json(a, 'POST', '/v1/datasets/paged/ingest', [{ i: 1 }, { i: 2 }, { i: 3 }]);
    const first = await json(a, 'POST', '/v1/datasets/_apl?format=tabular', { apl: "['paged'] | sort by _time desc | limit 2", includeCursor: true });
    expect(first.body.status.minCursor).toEqual(expect.any(String));
    const next = await json(b, 'POST', '/v1/datasets/_apl?format=tabular', { apl: "['paged'] | sort by _time desc | limit 2", cursor: first.body.status.minCursor });
    expect(next.status).toBe(200);
  });
});
