import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('organizations, users and the current user', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('serves the current user in the v1 and v2 shapes, at /v1 and /api/v1', async () => {
    const v2 = (await (await server.request('/v2/user')).json()) as any;
    expect(v2).toMatchObject({ name: 'Admin', email: 'admin@localhost', role: { id: 'owner', name: 'Owner' } });
    expect(typeof v2.id).toBe('string');
    for (const path of ['/v1/user', '/api/v1/user']) {
      const v1 = (await (await server.request(path)).json()) as any;
      expect(v1).toEqual({ id: v2.id, name: 'Admin', email: 'admin@localhost', role: 'owner', permissions: [] });
    }
  });

  it('renames the current user with PUT /v2/user and validates the body', async () => {
    const renamed = await server.request('/v2/user', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect(((await renamed.json()) as any).name).toBe('Ada');
    const invalid = await server.request('/v2/user', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '' }),
    });
    expect(invalid.status).toBe(400);
  });

  it('refuses /v2/user to API tokens, which act for no user', async () => {
    const created = (await (
      await server.request('/v2/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bot' }),
      })
    ).json()) as any;
    const response = await server.request('/v2/user', { auth: created.token });
    expect(response.status).toBe(403);
  });

  describe('the organization header', () => {
    let orgId: string;
    let otherOrg: string;
    beforeAll(async () => {
      const { prisma } = server.app.services.store;
      const owner = await prisma.membership.findFirstOrThrow({ where: { role: 'owner' } });
      orgId = owner.orgId;
      otherOrg = 'second-org';
      await prisma.organization.create({ data: { id: otherOrg, name: 'Second' } });
      await prisma.membership.create({ data: { userId: owner.userId, orgId: otherOrg, role: 'read-only' } });
    });

    it('is required once the user belongs to several organizations', async () => {
      const response = await server.request('/v2/user');
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error).toMatch(/X-Axiom-Org-Id header is required/);
    });

    it('selects the organization and the role in it (X-Axiom-Org-Id or x-service-org-id)', async () => {
      const inFirst = (await (await server.request('/v2/user', { headers: { 'x-axiom-org-id': orgId } })).json()) as any;
      expect(inFirst.role.id).toBe('owner');
      const inSecond = (await (await server.request('/v2/user', { headers: { 'x-service-org-id': otherOrg } })).json()) as any;
      expect(inSecond.role.id).toBe('read-only');
      // read-only members cannot create tokens
      const denied = await server.request('/v2/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-axiom-org-id': otherOrg },
        body: JSON.stringify({ name: 'nope' }),
      });
      expect(denied.status).toBe(403);
    });

    it('rejects organizations the user is not a member of', async () => {
      const response = await server.request('/v2/user', { headers: { 'x-axiom-org-id': 'elsewhere' } });
      expect(response.status).toBe(403);
      expect(((await response.json()) as any).error).toMatch(/not a member of organization "elsewhere"/);
    });

    it('rejects an API token used with another organization\'s header', async () => {
      const created = (await (
        await server.request('/v2/tokens', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-axiom-org-id': orgId },
          body: JSON.stringify({ name: 'scoped', orgCapabilities: { apiTokens: ['read'] } }),
        })
      ).json()) as any;
      expect((await server.request('/v2/tokens', { auth: created.token })).status).toBe(200);
      expect((await server.request('/v2/tokens', { auth: created.token, headers: { 'x-axiom-org-id': orgId } })).status).toBe(200);
      const mismatch = await server.request('/v2/tokens', { auth: created.token, headers: { 'x-axiom-org-id': otherOrg } });
      expect(mismatch.status).toBe(403);
    });
  });
});

describe('first start', () => {
  it('keeps ADMIN_TOKEN valid across restarts of the same data directory', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    await first.app.close();
    const { createApp } = await import('../../../src/app');
    const { loadConfig } = await import('../../../src/config');
    const again = await createApp(
      loadConfig({ ...first.env, DATA_DIR: dataDir, ADMIN_TOKEN: 'xapt-a-different-admin-token', MODEL_CATALOG_SOURCE: '/nonexistent.json' }),
    );
    const address = await again.server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const response = await fetch(`${address}/v2/user`, { headers: { authorization: 'Bearer xapt-a-different-admin-token' } });
      expect(response.status).toBe(200);
      expect(await again.services.store.prisma.organization.count()).toBe(1);
    } finally {
      await again.close();
      await first.close().catch(() => {});
    }
  });

  it('prints a generated admin token once when ADMIN_TOKEN is unset', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => {
      writes.push(String(chunk));
      return true;
    });
    let server: TestServer | undefined;
    try {
      server = await startTestServer({ ADMIN_TOKEN: '' });
    } finally {
      spy.mockRestore();
    }
    try {
      const token = /(xapt-[0-9a-f-]{36})/.exec(writes.join(''))?.[1];
      expect(token).toBeDefined();
      expect((await server.request('/v2/user', { auth: token! })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
