// Organizations and their members through /v2/orgs, /v2/users and the official SDK: listing,
// creating, roles that count from the next request, removal that stops tokens at once, the
// last owner, and ids from elsewhere that are simply not found.
import { AxiomWithoutBatching } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, adminOrg, apiToken, call, json } from '../../helpers/teams';

let server: TestServer;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  orgId = await adminOrg(server);
});
afterAll(() => server.close());

const inOrg = (id: string) => ({ 'x-axiom-org-id': id });

describe('organizations', () => {
  it('lists the organizations of the caller with its role, in Axiom\'s Org shape', async () => {
    const { status, body } = await call(server, '/v2/orgs');
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ id: orgId, name: 'Default', role: 'owner', primaryEmail: 'admin@localhost', paymentStatus: 'na' });
    for (const field of ['plan', 'planCreated', 'lastUsageSync', 'license']) expect(body[0]).toHaveProperty(field);
    expect(body[0].license).toMatchObject({ issuedTo: orgId, maxFields: 1024 });
  });

  it('creates an organization owned by the caller; with two, requests must name one', async () => {
    const created = await call(server, '/v2/orgs', json('POST', { name: 'Second team' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Second team', role: 'owner' });
    expect(created.body.id).toMatch(/^second-team-[0-9a-f]{6}$/);
    // Listing needs no organization header, even now.
    const listed = await call(server, '/v2/orgs');
    expect(listed.body.map((org: { id: string }) => org.id)).toEqual([orgId, created.body.id]);
    // Routes that act in an organization now need the header.
    expect((await call(server, '/v2/datasets')).status).toBe(400);
    expect((await call(server, '/v2/datasets', { headers: inOrg(created.body.id) })).body).toEqual([]);
    // Renaming, through the path's organization.
    const renamed = await call(server, `/v2/orgs/${created.body.id}`, json('PUT', { name: 'Platform' }));
    expect(renamed).toMatchObject({ status: 200, body: { id: created.body.id, name: 'Platform' } });
    expect((await call(server, `/v2/orgs/${created.body.id}`)).body.name).toBe('Platform');
    await server.app.services.store.prisma.organization.delete({ where: { id: created.body.id } });
  });

  it('refuses bad bodies, unknown organizations and organizations of others', async () => {
    expect(await call(server, '/v2/orgs', json('POST', {}))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/name/) } });
    expect(await call(server, '/v2/orgs', json('POST', { name: 'x', edgeDeployment: 'mars-1' }))).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/mars-1/) },
    });
    expect((await call(server, '/v2/orgs/no-such-org')).status).toBe(404);
    const outsider = await addMember(server, 'user');
    const theirs = await call(server, '/v2/orgs', { ...json('POST', { name: 'Private' }), auth: outsider.token });
    expect(theirs.status).toBe(200);
    expect((await call(server, `/v2/orgs/${theirs.body.id}`)).status).toBe(404);
    expect((await call(server, `/v2/orgs/${theirs.body.id}`, json('PUT', { name: 'mine now' }))).status).toBe(404);
    // A user who is a plain member cannot rename the organization.
    expect((await call(server, `/v2/orgs/${orgId}`, { ...json('PUT', { name: 'renamed' }), auth: outsider.token })).status).toBe(403);
  });

  it('gives an API token its own organization only, and no organization creation', async () => {
    const token = await apiToken(server, { orgCapabilities: { users: ['read'] } });
    const listed = await call(server, '/v2/orgs', { auth: token });
    expect(listed.body.map((org: { id: string }) => org.id)).toEqual([orgId]);
    expect((await call(server, '/v2/orgs', { ...json('POST', { name: 'bot org' }), auth: token })).status).toBe(403);
    expect((await call(server, `/v2/orgs/${orgId}`, { ...json('PUT', { name: 'bot' }), auth: token })).status).toBe(403);
  });
});

describe('users', () => {
  it('adds, lists and gets members with their role in Axiom\'s User shape', async () => {
    const created = await call(server, '/v2/users', json('POST', { name: 'Grace', email: 'Grace@Example.com', role: 'read-only' }));
    expect(created).toMatchObject({ status: 200, body: { name: 'Grace', email: 'grace@example.com', role: { id: 'read-only', name: 'Read-only' } } });
    const listed = await call(server, '/v2/users');
    expect(listed.body).toContainEqual(created.body);
    expect(listed.body[0]).toMatchObject({ email: 'admin@localhost', role: { id: 'owner', name: 'Owner' } });
    expect((await call(server, `/v2/users/${created.body.id}`)).body).toEqual(created.body);
    // The same email again is a conflict; an unknown role is named.
    expect((await call(server, '/v2/users', json('POST', { name: 'G', email: 'grace@example.com', role: 'user' }))).status).toBe(409);
    const unknownRole = await call(server, '/v2/users', json('POST', { name: 'H', email: 'h@example.com', role: 'superuser' }));
    expect(unknownRole).toMatchObject({ status: 400, body: { error: expect.stringMatching(/role "superuser" does not exist/) } });
    expect((await call(server, '/v2/users', json('POST', { name: 'H', email: 'not an email', role: 'user' }))).status).toBe(400);
  });

  it('applies a role change from the next request on', async () => {
    const member = await addMember(server, 'read-only');
    const create = () => call(server, '/v2/datasets', { ...json('POST', { name: `ds-${Math.random().toString(36).slice(2, 8)}` }), auth: member.token });
    expect((await create()).status).toBe(403);
    const changed = await call(server, `/v2/users/${member.id}/role`, json('PUT', { role: 'user' }));
    expect(changed).toMatchObject({ status: 200, body: { id: member.id, role: { id: 'user', name: 'User' } } });
    expect((await create()).status).toBe(200);
    await call(server, `/v2/users/${member.id}/role`, json('PUT', { role: 'none' }));
    expect((await create()).status).toBe(403);
    expect((await call(server, '/v2/user', { auth: member.token })).body.role).toEqual({ id: 'none', name: 'None' });
  });

  it('removes a member: their personal token and the API tokens they made stop working there at once', async () => {
    const member = await addMember(server, 'admin');
    const madeByThem = await apiToken(server, { orgCapabilities: { users: ['read'] } }, member.token);
    expect((await call(server, '/v2/users', { auth: madeByThem })).status).toBe(200);
    // They also belong to an organization of their own.
    const own = await call(server, '/v2/orgs', { ...json('POST', { name: 'Own' }), auth: member.token });
    expect((await call(server, `/v2/users/${member.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(server, '/v2/users', { auth: member.token, headers: inOrg(orgId) })).status).toBe(403);
    expect((await call(server, '/v2/users', { auth: madeByThem })).status).toBe(401);
    expect((await call(server, `/v2/users/${member.id}`)).status).toBe(404);
    // Elsewhere they are still who they were.
    expect((await call(server, '/v2/user', { auth: member.token })).body.role.id).toBe('owner');
    expect((await call(server, '/v2/orgs', { auth: member.token })).body.map((o: { id: string }) => o.id)).toEqual([own.body.id]);
  });

  it('keeps at least one owner', async () => {
    const me = (await call(server, '/v2/user')).body.id;
    const demote = await call(server, `/v2/users/${me}/role`, json('PUT', { role: 'admin' }));
    expect(demote).toMatchObject({ status: 400, body: { error: expect.stringMatching(/at least one owner/) } });
    expect((await call(server, `/v2/users/${me}`, { method: 'DELETE' })).status).toBe(400);
    const second = await addMember(server, 'owner');
    // With a second owner, the first may step down (and the second can make them owner again).
    expect((await call(server, `/v2/users/${me}/role`, json('PUT', { role: 'admin' }))).status).toBe(200);
    expect((await call(server, `/v2/users/${me}/role`, { ...json('PUT', { role: 'owner' }), auth: second.token })).status).toBe(200);
    expect((await call(server, `/v2/users/${second.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('lets nobody hand out or take away more than they hold', async () => {
    const admin = await addMember(server, 'admin');
    const owner = (await call(server, '/v2/user')).body.id;
    // Admins hold everything but billing, so they can neither make nor remove owners.
    expect((await call(server, '/v2/users', { ...json('POST', { name: 'O', email: 'o@example.com', role: 'owner' }), auth: admin.token })).status).toBe(403);
    expect((await call(server, `/v2/users/${owner}`, { method: 'DELETE', auth: admin.token })).status).toBe(403);
    expect((await call(server, `/v2/users/${owner}/role`, { ...json('PUT', { role: 'user' }), auth: admin.token })).status).toBe(403);
    // Nothing happened.
    expect((await call(server, `/v2/users/${owner}`)).body.role.id).toBe('owner');
    expect((await call(server, '/v2/users')).body.some((u: { email: string }) => u.email === 'o@example.com')).toBe(false);
    // But they manage users below them.
    const user = await addMember(server, 'user', { auth: admin.token });
    expect((await call(server, `/v2/users/${user.id}/role`, { ...json('PUT', { role: 'read-only' }), auth: admin.token })).status).toBe(200);
  });

  it('answers 404 for unknown ids and for users of other organizations', async () => {
    for (const [method, path, body] of [
      ['GET', '/v2/users/nobody', undefined],
      ['PUT', '/v2/users/nobody/role', { role: 'user' }],
      ['DELETE', '/v2/users/nobody', undefined],
    ] as const) {
      expect((await call(server, path, body ? json(method, body) : { method })).status, `${method} ${path}`).toBe(404);
    }
    const outsider = await addMember(server, 'user');
    const other = await call(server, '/v2/orgs', { ...json('POST', { name: 'Elsewhere' }), auth: outsider.token });
    const stranger = await addMember(server, 'user', { orgId: other.body.id, auth: outsider.token });
    expect((await call(server, `/v2/users/${stranger.id}`)).status).toBe(404);
    expect((await call(server, `/v2/users/${stranger.id}/role`, json('PUT', { role: 'admin' }))).status).toBe(404);
    expect((await call(server, `/v2/users/${stranger.id}`, { method: 'DELETE' })).status).toBe(404);
    // An existing user added to a second organization keeps one account.
    const added = await call(server, '/v2/users', json('POST', { name: 'ignored', email: stranger.email, role: 'read-only' }));
    expect(added).toMatchObject({ status: 200, body: { id: stranger.id, role: { id: 'read-only' } } });
  });

  it('serves the SDK\'s users calls', async () => {
    const client = new AxiomWithoutBatching({ url: server.url, token: server.adminToken, orgId, onError: () => {} });
    const current = await client.users.current();
    expect(current).toMatchObject({ email: 'admin@localhost', role: { id: 'owner', name: 'Owner' } });
    const listed = await client.users.list();
    expect(listed.map((user) => user.id)).toContain(current.id);
    // The current user also carries the time zone they chose (null until they choose one).
    const { timeZone, ...member } = current as typeof current & { timeZone?: string | null };
    expect(timeZone).toBeNull();
    expect(await client.users.get(current.id)).toEqual(member);
    await expect(client.users.get('nobody')).rejects.toThrow(/404/);
  });
});
