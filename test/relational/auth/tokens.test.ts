import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../../helpers/server';

describe('authentication and API tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const json = (body: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  async function createToken(body: unknown, auth?: string) {
    const response = await server.request('/v2/tokens', { ...json(body), auth });
    return { status: response.status, body: (await response.json()) as any };
  }

  describe('401 and the error body', () => {
    it.each([
      ['no Authorization header', undefined, /missing Authorization header/],
      ['a malformed header', 'Token abc', /malformed Authorization header/],
      ['an unknown token', 'Bearer xaat-00000000-0000-0000-0000-000000000000', /invalid API token/],
    ])('rejects %s', async (_, header, message) => {
      const response = await server.request('/v2/tokens', { auth: false, headers: header ? { authorization: header } : {} });
      expect(response.status).toBe(401);
      const body = (await response.json()) as any;
      expect(body.error).toMatch(message);
      // Axiom's own fields, read by the official SDK.
      expect(body.message).toBe(body.error);
      expect(body.code).toBe(401);
    });

    it('accepts the admin token set by ADMIN_TOKEN', async () => {
      const response = await server.request('/v2/tokens');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
    });
  });

  describe('token lifecycle', () => {
    it('creates a token whose secret is shown once and stored only as a hash', async () => {
      const created = await createToken({
        name: 'ingest logs',
        description: 'for the shipper',
        datasetCapabilities: { logs: { ingest: ['create'] } },
        orgCapabilities: {},
      });
      expect(created.status).toBe(200);
      expect(created.body.token).toMatch(/^xaat-[0-9a-f-]{36}$/);
      expect(created.body).toMatchObject({
        name: 'ingest logs',
        description: 'for the shipper',
        expiresAt: null,
        datasetCapabilities: { logs: { ingest: ['create'] } },
        orgCapabilities: {},
      });

      const fetched = await server.request(`/v2/tokens/${created.body.id}`);
      const fetchedBody = (await fetched.json()) as any;
      expect(fetchedBody.id).toBe(created.body.id);
      expect(fetchedBody.token).toBeUndefined();

      const listed = (await (await server.request('/v2/tokens')).json()) as any[];
      expect(listed.map((t) => t.id)).toContain(created.body.id);
      expect(listed.every((t) => t.token === undefined)).toBe(true);

      const stored = await server.app.services.store.prisma.token.findMany();
      const dump = JSON.stringify(stored);
      expect(dump).not.toContain(created.body.token);
      expect(dump).not.toContain(TEST_ADMIN_TOKEN);
    });

    it('lets the new token act within its capabilities only', async () => {
      const created = await createToken({ name: 'reader', orgCapabilities: { apiTokens: ['read'] } });
      const token = created.body.token as string;
      expect((await server.request('/v2/tokens', { auth: token })).status).toBe(200);
      const forbidden = await server.request('/v2/tokens', { ...json({ name: 'x' }), auth: token });
      expect(forbidden.status).toBe(403);
      expect(((await forbidden.json()) as any).error).toMatch(/apiTokens:create/);
    });

    it('refuses to grant capabilities the caller lacks', async () => {
      const creator = await createToken({ name: 'creator', orgCapabilities: { apiTokens: ['create'] } });
      const escalation = await createToken({ name: 'more', orgCapabilities: { datasets: ['create'] } }, creator.body.token);
      expect(escalation.status).toBe(403);
      expect(escalation.body.error).toMatch(/cannot grant datasets:create/);
      const datasetEscalation = await createToken(
        { name: 'more', datasetCapabilities: { '*': { query: ['read'] } } },
        creator.body.token,
      );
      expect(datasetEscalation.status).toBe(403);
    });

    it('regenerates: the old secret expires, the new one works with the same capabilities', async () => {
      const original = await createToken({ name: 'rotating', orgCapabilities: { apiTokens: ['read'] } });
      const regenerated = await server.request(
        `/v2/tokens/${original.body.id}/regenerate`,
        json({ existingTokenExpiresAt: new Date().toISOString(), newTokenExpiresAt: null }),
      );
      expect(regenerated.status).toBe(200);
      const fresh = (await regenerated.json()) as any;
      expect(fresh.token).toMatch(/^xaat-/);
      expect(fresh.token).not.toBe(original.body.token);
      expect(fresh).toMatchObject({ name: 'rotating', orgCapabilities: { apiTokens: ['read'] } });
      expect((await server.request('/v2/tokens', { auth: original.body.token })).status).toBe(401);
      expect((await server.request('/v2/tokens', { auth: fresh.token })).status).toBe(200);
    });

    it('regenerates with a grace period for the old secret', async () => {
      const original = await createToken({ name: 'graceful', orgCapabilities: { apiTokens: ['read'] } });
      const later = new Date(Date.now() + 3600_000).toISOString();
      const regenerated = await server.request(`/v2/tokens/${original.body.id}/regenerate`, json({ existingTokenExpiresAt: later }));
      expect(regenerated.status).toBe(200);
      expect((await server.request('/v2/tokens', { auth: original.body.token })).status).toBe(200);
      const old = (await (await server.request(`/v2/tokens/${original.body.id}`)).json()) as any;
      expect(old.expiresAt).toBe(later);
    });

    it('deletes a token, which then no longer authenticates', async () => {
      const created = await createToken({ name: 'short-lived', orgCapabilities: { apiTokens: ['read'] } });
      const deleted = await server.request(`/v2/tokens/${created.body.id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
      expect((await server.request('/v2/tokens', { auth: created.body.token })).status).toBe(401);
      expect((await server.request(`/v2/tokens/${created.body.id}`)).status).toBe(404);
    });

    it('honours expiry', async () => {
      const created = await createToken({
        name: 'expiring',
        orgCapabilities: { apiTokens: ['read'] },
        expiresAt: new Date(Date.now() + 1500).toISOString(),
      });
      expect((await server.request('/v2/tokens', { auth: created.body.token })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const expired = await server.request('/v2/tokens', { auth: created.body.token });
      expect(expired.status).toBe(401);
      expect(((await expired.json()) as any).error).toMatch(/expired/);
    });
  });

  describe('bad input', () => {
    it.each([
      [{}, /name: is required|name:/],
      [{ name: 'x', expiresAt: 'tomorrow' }, /expiresAt: must be an RFC 3339 date-time/],
      [{ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, /expiresAt must be in the future/],
      [{ name: 'x', orgCapabilities: { datasets: ['fly'] } }, /orgCapabilities\.datasets/],
      [{ name: 'x', orgCapabilities: { spaceships: ['read'] } }, /orgCapabilities/],
      [{ name: 'x', datasetCapabilities: { logs: { ingest: ['read'] } } }, /datasetCapabilities\.logs\.ingest/],
      [{ name: 'x', datasetCapabilities: { 'bad name!': { query: ['read'] } } }, /dataset names or "\*"/],
    ])('rejects %j with a 400 naming the problem', async (body, message) => {
      const created = await createToken(body);
      expect(created.status).toBe(400);
      expect(created.body.error).toMatch(message);
    });

    it('rejects a body that is not JSON', async () => {
      const response = await server.request('/v2/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error).toMatch(/not valid JSON/);
    });

    it('answers 404 for unknown token ids', async () => {
      const response = await server.request('/v2/tokens/nope');
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error).toBe('API token "nope" not found');
    });
  });
});
