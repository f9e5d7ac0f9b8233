// Custom roles and groups through /v2/rbac: CRUD, capabilities as the union of the base role and
// the groups' roles, changes that count from the next request, deleting a role, API tokens
// bounded by their creator, and the bad-input rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, apiToken, call, json } from '../../helpers/teams';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['alpha', 'beta']) expect((await call(server, '/v2/datasets', json('POST', { name }))).status).toBe(200);
});
afterAll(() => server.close());

const ingest = (token: string, dataset: string) =>
  call(server, `/v1/datasets/${dataset}/ingest`, { ...json('POST', [{ n: 1 }]), auth: token });
const query = (token: string, dataset: string) =>
  call(server, '/v1/datasets/_apl?format=tabular', { ...json('POST', { apl: `['${dataset}'] | count` }), auth: token });

describe('custom roles', () => {
  it('creates, lists, gets, updates and deletes roles, with members derived from users', async () => {
    const created = await call(
      server,
      '/v2/rbac/roles',
      json('POST', {
        name: 'alpha writers',
        description: 'ingest into alpha',
        datasetCapabilities: { alpha: { ingest: ['create'], query: ['read', 'read'] } },
        orgCapabilities: { datasets: ['read'] },
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: created.body.id,
      name: 'alpha writers',
      description: 'ingest into alpha',
      datasetCapabilities: { alpha: { ingest: ['create'], query: ['read'] } },
      orgCapabilities: { datasets: ['read'] },
      viewCapabilities: {},
      members: [],
    });
    const member = await addMember(server, created.body.id);
    expect((await call(server, `/v2/rbac/roles/${created.body.id}`)).body.members).toEqual([member.id]);
    expect((await call(server, '/v2/rbac/roles')).body.map((r: { name: string }) => r.name)).toContain('alpha writers');
    expect((await call(server, '/v2/user', { auth: member.token })).body.role).toEqual({ id: created.body.id, name: 'alpha writers' });

    expect((await ingest(member.token, 'alpha')).status).toBe(200);
    expect((await ingest(member.token, 'beta')).status).toBe(403);
    // Updating the role changes what its members may do at the next request.
    const updated = await call(server, `/v2/rbac/roles/${created.body.id}`, json('PUT', { datasetCapabilities: { '*': { ingest: ['create'] } } }));
    expect(updated.body).toMatchObject({ name: 'alpha writers', description: 'ingest into alpha', datasetCapabilities: { '*': { ingest: ['create'] } } });
    expect((await ingest(member.token, 'beta')).status).toBe(200);
    expect((await query(member.token, 'alpha')).status).toBe(403);
  });

  it('refuses a taken name (409), unknown capabilities and actions (400 naming them), unknown ids (404)', async () => {
    await call(server, '/v2/rbac/roles', json('POST', { name: 'taken' }));
    expect((await call(server, '/v2/rbac/roles', json('POST', { name: 'taken' }))).status).toBe(409);
    const other = await call(server, '/v2/rbac/roles', json('POST', { name: 'other' }));
    expect((await call(server, `/v2/rbac/roles/${other.body.id}`, json('PUT', { name: 'taken' }))).status).toBe(409);
    const badCapability = await call(server, '/v2/rbac/roles', json('POST', { name: 'x', orgCapabilities: { teleport: ['read'] } }));
    expect(badCapability).toMatchObject({ status: 400, body: { error: expect.stringMatching(/teleport/) } });
    const badAction = await call(server, '/v2/rbac/roles', json('POST', { name: 'x', datasetCapabilities: { alpha: { ingest: ['read'] } } }));
    expect(badAction).toMatchObject({ status: 400, body: { error: expect.stringMatching(/alpha\.ingest/) } });
    expect((await call(server, '/v2/rbac/roles', json('POST', { description: 'no name' }))).status).toBe(400);
    for (const [method, body] of [['GET'], ['PUT', { name: 'y' }], ['DELETE']] as const) {
      expect((await call(server, '/v2/rbac/roles/no-such-role', body ? json(method, body) : { method })).status).toBe(404);
    }
  });

  it('assigns a role to exactly the members it names', async () => {
    const role = await call(server, '/v2/rbac/roles', json('POST', { name: 'readers', orgCapabilities: { users: ['read'] } }));
    const [a, b] = [await addMember(server, 'none'), await addMember(server, 'none')];
    const withA = await call(server, `/v2/rbac/roles/${role.body.id}`, json('PUT', { members: [a.id] }));
    expect(withA.body.members).toEqual([a.id]);
    expect((await call(server, '/v2/users', { auth: a.token })).status).toBe(200);
    const withB = await call(server, `/v2/rbac/roles/${role.body.id}`, json('PUT', { members: [b.id] }));
    expect(withB.body.members).toEqual([b.id]);
    expect((await call(server, `/v2/users/${a.id}`)).body.role.id).toBe('none');
    expect((await call(server, '/v2/users', { auth: a.token })).status).toBe(403);
    const unknown = await call(server, `/v2/rbac/roles/${role.body.id}`, json('PUT', { members: ['ghost'] }));
    expect(unknown).toMatchObject({ status: 400, body: { error: expect.stringMatching(/"ghost"/) } });
  });

  it('deletes a role: its members fall back to none and groups lose it', async () => {
    const role = await call(server, '/v2/rbac/roles', json('POST', { name: 'doomed', datasetCapabilities: { beta: { query: ['read'] } } }));
    const member = await addMember(server, role.body.id);
    const group = await call(server, '/v2/rbac/groups', json('POST', { name: 'doomed group', roles: [role.body.id, 'read-only'] }));
    expect((await query(member.token, 'beta')).status).toBe(200);
    expect((await call(server, `/v2/rbac/roles/${role.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(server, `/v2/users/${member.id}`)).body.role).toEqual({ id: 'none', name: 'None' });
    expect((await call(server, `/v2/rbac/groups/${group.body.id}`)).body.roles).toEqual(['read-only']);
    expect((await query(member.token, 'beta')).status).toBe(404); // holds nothing on it any more: hidden
    expect((await call(server, `/v2/rbac/roles/${role.body.id}`)).status).toBe(404);
  });
});

describe('groups', () => {
  it('gives members the union of their base role and the group\'s roles, from the next request on', async () => {
    const role = await call(server, '/v2/rbac/roles', json('POST', { name: 'beta ingest', datasetCapabilities: { beta: { ingest: ['create'] } } }));
    const member = await addMember(server, 'read-only');
    expect((await ingest(member.token, 'beta')).status).toBe(403);
    const group = await call(server, '/v2/rbac/groups', json('POST', { name: 'ingest team', description: 'd', roles: [role.body.id], members: [member.id] }));
    expect(group.body).toEqual({ id: group.body.id, name: 'ingest team', description: 'd', roles: [role.body.id], members: [member.id], isManaged: false });
    expect((await ingest(member.token, 'beta')).status).toBe(200);
    expect((await query(member.token, 'beta')).status).toBe(200); // still read-only's
    expect((await ingest(member.token, 'alpha')).status).toBe(403);
    // A base role through a group adds its capabilities too.
    await call(server, `/v2/rbac/groups/${group.body.id}`, json('PUT', { roles: [role.body.id, 'user'] }));
    expect((await ingest(member.token, 'alpha')).status).toBe(200);
    // Leaving the group takes them away.
    const emptied = await call(server, `/v2/rbac/groups/${group.body.id}`, json('PUT', { members: [] }));
    expect(emptied.body).toMatchObject({ name: 'ingest team', members: [], roles: [role.body.id, 'user'].sort() });
    expect((await ingest(member.token, 'beta')).status).toBe(403);
    expect((await call(server, '/v2/rbac/groups')).body.map((g: { id: string }) => g.id)).toContain(group.body.id);
    expect((await call(server, `/v2/rbac/groups/${group.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(server, `/v2/rbac/groups/${group.body.id}`)).status).toBe(404);
  });

  it('refuses unknown roles and members, the owner role, taken names and unknown ids', async () => {
    const unknownRole = await call(server, '/v2/rbac/groups', json('POST', { name: 'g1', roles: ['wizard'] }));
    expect(unknownRole).toMatchObject({ status: 400, body: { error: expect.stringMatching(/role "wizard" does not exist/) } });
    const unknownMember = await call(server, '/v2/rbac/groups', json('POST', { name: 'g1', members: ['ghost'] }));
    expect(unknownMember).toMatchObject({ status: 400, body: { error: expect.stringMatching(/"ghost"/) } });
    expect((await call(server, '/v2/rbac/groups', json('POST', { name: 'g1', roles: ['owner'] }))).status).toBe(400);
    expect((await call(server, '/v2/rbac/groups', json('POST', { name: 'g1' }))).status).toBe(200);
    expect((await call(server, '/v2/rbac/groups', json('POST', { name: 'g1' }))).status).toBe(409);
    for (const [method, body] of [['GET'], ['PUT', { name: 'y' }], ['DELETE']] as const) {
      expect((await call(server, '/v2/rbac/groups/no-such-group', body ? json(method, body) : { method })).status).toBe(404);
    }
    // None of the refused writes left a group behind.
    expect((await call(server, '/v2/rbac/groups')).body.filter((g: { name: string }) => g.name === 'g1')).toHaveLength(1);
  });

  it('lets nobody define or hand out more than they hold', async () => {
    const rbacManager = await call(server, '/v2/rbac/roles', json('POST', { name: 'rbac managers', orgCapabilities: { rbac: ['create', 'read', 'update', 'delete'] } }));
    const manager = await addMember(server, rbacManager.body.id);
    const escalate = await call(server, '/v2/rbac/roles', { ...json('POST', { name: 'everything', orgCapabilities: { users: ['delete'] } }), auth: manager.token });
    expect(escalate).toMatchObject({ status: 403, body: { error: expect.stringMatching(/users:delete/) } });
    const viaGroup = await call(server, '/v2/rbac/groups', { ...json('POST', { name: 'sneaky', roles: ['admin'], members: [manager.id] }), auth: manager.token });
    expect(viaGroup.status).toBe(403);
    const names = (await call(server, '/v2/rbac/groups')).body.map((g: { name: string }) => g.name);
    expect(names).not.toContain('sneaky');
    expect((await call(server, '/v2/rbac/roles')).body.map((r: { name: string }) => r.name)).not.toContain('everything');
  });
});

describe('API tokens and their creator', () => {
  it('never does more than its creator can now, and stops with a creator who left', async () => {
    const creator = await addMember(server, 'user');
    const token = await apiToken(server, { datasetCapabilities: { alpha: { ingest: ['create'], query: ['read'] } } }, creator.token);
    expect((await ingest(token, 'alpha')).status).toBe(200);
    // Demoted to read-only: the token keeps only what both hold.
    await call(server, `/v2/users/${creator.id}/role`, json('PUT', { role: 'read-only' }));
    expect((await ingest(token, 'alpha')).status).toBe(403);
    expect((await query(token, 'alpha')).status).toBe(200);
    // Given more through a group: still no more than the token itself says.
    const group = await call(server, '/v2/rbac/groups', json('POST', { name: 'creators', roles: ['admin'], members: [creator.id] }));
    expect((await ingest(token, 'alpha')).status).toBe(200);
    expect((await ingest(token, 'beta')).status).toBe(404); // the token holds nothing on beta: hidden
    await call(server, `/v2/rbac/groups/${group.body.id}`, { method: 'DELETE' });
    // A token may not be created with more than its creator holds.
    await call(server, `/v2/users/${creator.id}/role`, json('PUT', { role: 'user' }));
    const alphaOnly = await call(server, '/v2/rbac/roles', json('POST', { name: 'alpha only', datasetCapabilities: { alpha: { ingest: ['create'] } }, orgCapabilities: { apiTokens: ['create'] } }));
    await call(server, `/v2/users/${creator.id}/role`, json('PUT', { role: alphaOnly.body.id }));
    const tooMuch = await call(server, '/v2/tokens', { ...json('POST', { name: 'x', datasetCapabilities: { beta: { ingest: ['create'] } } }), auth: creator.token });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body.error).toMatch(/ingest:create on dataset "beta"/);
    // Once the creator leaves the organization, the token stops.
    await call(server, `/v2/users/${creator.id}`, { method: 'DELETE' });
    expect((await query(token, 'alpha')).status).toBe(401);
  });

  it('accepts view capabilities on tokens and roles', async () => {
    const created = await call(server, '/v2/tokens', json('POST', { name: 'views', viewCapabilities: { errors: { query: ['read'] } } }));
    expect(created.body.viewCapabilities).toEqual({ errors: { query: ['read'] } });
    const bad = await call(server, '/v2/rbac/roles', json('POST', { name: 'v', viewCapabilities: { errors: { ingest: ['create'] } } }));
    expect(bad).toMatchObject({ status: 400, body: { error: expect.stringMatching(/ingest/) } });
  });
});
