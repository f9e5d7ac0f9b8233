// Organizations provisioned for agents: one unauthenticated request gives an organization, a
// full API token and a claim URL; a person claims it with a personal token; unclaimed ones are
// deleted with their data after a day; each address may provision a few a day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, call, json } from '../../helpers/teams';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PROVISIONED_ORGS_PER_DAY: '3' });
});
afterAll(() => server.close());

const provision = (body: unknown = {}) => call(server, '/v2/orgs/provision', { ...json('POST', body), auth: false });

describe('provisioned organizations', () => {
  let first: { id: string; name: string; token: string; claimUrl: string; expiresAt: string };
  let third: { id: string; token: string };

  it('provisions an organization without a token, with a working API token and a claim URL', async () => {
    const before = Date.now();
    const { status, body } = await provision({ name: 'canary runs' });
    expect(status).toBe(200);
    first = body;
    expect(body).toMatchObject({ name: 'canary runs', defaultEdgeDeployment: 'local' });
    expect(body.token).toMatch(/^xaat-/);
    expect(body.claimUrl).toBe(`${server.url}/v2/orgs/${body.id}/claim?token=${new URL(body.claimUrl).searchParams.get('token')}`);
    const expires = Date.parse(body.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);

    // The token works for everything in that organization, and only there.
    const auth = body.token as string;
    expect((await call(server, '/v2/datasets', { ...json('POST', { name: 'agent-data' }), auth })).status).toBe(200);
    expect((await call(server, '/v1/datasets/agent-data/ingest', { ...json('POST', [{ step: 1 }, { step: 2 }]), auth })).body.ingested).toBe(2);
    expect((await call(server, '/v2/orgs', { auth })).body).toEqual([expect.objectContaining({ id: body.id, plan: 'personal', expiresAt: body.expiresAt })]);
    expect((await call(server, '/v2/datasets')).body.map((d: { name: string }) => d.name)).not.toContain('agent-data');
    // A generated name when none is given.
    expect((await provision()).body.name).toMatch(/^Agent Org [0-9a-f]{8}$/);
  });

  it('refuses unknown edge deployments and rate-limits an address to the configured number a day', async () => {
    expect((await provision({ edgeDeployment: 'moon-1' })).status).toBe(400);
    // Two provisioned above from this address; the limit is three.
    const allowed = await provision();
    expect(allowed.status).toBe(200);
    third = allowed.body;
    expect((await call(server, '/v2/datasets', { ...json('POST', { name: 'scratch' }), auth: third.token })).status).toBe(200);
    expect((await call(server, '/v1/datasets/scratch/ingest', { ...json('POST', [{ a: 1 }]), auth: third.token })).body.ingested).toBe(1);
    const limited = await provision();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/at most 3 organizations a day/);
  });

  it('lets a person claim it once: they own it, the agent goes, the token keeps working', async () => {
    const person = await addMember(server, 'user');
    const claimUrl = new URL(first.claimUrl);
    const path = `${claimUrl.pathname}${claimUrl.search}`;
    // A wrong secret, an API token, no token: nothing happens.
    expect((await call(server, `/v2/orgs/${first.id}/claim?token=wrong`, { method: 'POST', auth: person.token })).status).toBe(404);
    expect((await call(server, path, { method: 'POST', auth: first.token })).status).toBe(403);
    expect((await call(server, path, { method: 'POST', auth: false })).status).toBe(401);

    const claimed = await call(server, path, { method: 'POST', auth: person.token });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ id: first.id, role: 'owner', primaryEmail: person.email, plan: 'enterprise' });
    expect(claimed.body.expiresAt).toBeUndefined();
    const users = await call(server, '/v2/users', { auth: person.token, headers: { 'x-axiom-org-id': first.id } });
    expect(users.body.map((u: { email: string }) => u.email)).toEqual([person.email]);
    expect((await call(server, '/v2/datasets', { auth: first.token })).status).toBe(200);
    // Claim links are single-use.
    expect((await call(server, path, { method: 'POST', auth: server.adminToken })).status).toBe(404);
  });

  it('deletes unclaimed organizations past their expiry with everything in them, and keeps claimed ones', async () => {
    const { prisma } = server.app.services.store;
    const unclaimed = (await prisma.organization.findMany({ where: { expiresAt: { not: null } } })).map((org) => org.id);
    expect(unclaimed.length).toBeGreaterThan(0);
    const doomed = third.id;
    const table = (await prisma.dataset.findFirstOrThrow({ where: { orgId: doomed } })).tableName;
    const tables = async () =>
      (await server.app.services.eventStore.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = '${table}'`)).rows[0]![0];
    expect(Number(await tables())).toBe(1);
    const token = (await prisma.token.findFirstOrThrow({ where: { orgId: doomed } })).id;
    // Not yet: nothing expires before its time.
    expect(await server.app.services.identity.provisioning.sweep(new Date())).toEqual([]);
    const later = new Date(Date.now() + 25 * 3_600_000);
    expect((await server.app.services.identity.provisioning.sweep(later)).sort()).toEqual([...unclaimed].sort());
    expect(await prisma.organization.findUnique({ where: { id: doomed } })).toBeNull();
    expect(await prisma.token.findUnique({ where: { id: token } })).toBeNull();
    expect(await prisma.dataset.count({ where: { orgId: doomed } })).toBe(0);
    expect(Number(await tables())).toBe(0);
    expect((await call(server, '/v2/datasets', { auth: third.token })).status).toBe(401);
    expect(await prisma.user.count({ where: { email: { endsWith: '@provisioned.invalid' } } })).toBe(0);
    expect(await prisma.organization.findUnique({ where: { id: first.id } })).not.toBeNull();
    expect((await call(server, '/v2/datasets', { auth: first.token })).status).toBe(200);
  });

  it('can be turned off', async () => {
    const off = await startTestServer({ PROVISIONED_ORGS_PER_DAY: '0' });
    try {
      expect((await call(off, '/v2/orgs/provision', { ...json('POST', {}), auth: false })).status).toBe(403);
    } finally {
      await off.close();
    }
  });
});
