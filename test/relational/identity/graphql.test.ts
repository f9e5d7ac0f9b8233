// GraphQL over organizations, members, roles, groups, annotations, starred queries and
// dashboards: every object is a Node, lists are Relay connections, and mutations follow the same
// rules as REST (error codes in extensions, currentVersion on a stale dashboard).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { addMember, adminOrg, call } from '../../helpers/teams';

let server: TestServer;
let orgId: string;
beforeAll(async () => {
  server = await startTestServer();
  orgId = await adminOrg(server);
});
afterAll(() => server.close());

async function ok<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<T> {
  const result = await server.graphql(query, variables, token);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data as T;
}

async function node(id: string, fragment: string) {
  return (await ok(`query($id: ID!) { node(id: $id) { __typename ${fragment} } }`, { id })).node;
}

describe('GraphQL for teams and shared objects', () => {
  it('organizations: connection, node, create and update', async () => {
    const list = await ok('{ organizations(first: 10) { edges { node { id orgId name role plan } } pageInfo { hasNextPage } } }');
    expect(list.organizations.edges.map((e: any) => e.node.orgId)).toEqual([orgId]);
    expect(list.organizations.edges[0].node).toMatchObject({ name: 'Default', role: 'owner', plan: 'enterprise' });
    const created = await ok('mutation { createOrganization(name: "GraphQL team") { id orgId role } }');
    const renamed = await ok('mutation($id: String!) { updateOrganization(id: $id, name: "Renamed") { name } }', { id: created.createOrganization.orgId });
    expect(renamed.updateOrganization.name).toBe('Renamed');
    expect(await node(created.createOrganization.id, '... on Organization { name }')).toEqual({ __typename: 'Organization', name: 'Renamed' });
    expect((await ok('query($id: String!) { organization(id: $id) { name } }', { id: 'nowhere' })).organization).toBeNull();
    await server.app.services.store.prisma.organization.delete({ where: { id: created.createOrganization.orgId } });
  });

  it('users: connection, node, create, role changes and removal', async () => {
    const created = await ok('mutation($input: CreateUserInput!) { createUser(input: $input) { id userId email role { id name } } }', {
      input: { name: 'Lin', email: 'lin@example.com', role: 'read-only' },
    });
    expect(created.createUser).toMatchObject({ email: 'lin@example.com', role: { id: 'read-only', name: 'Read-only' } });
    const { userId, id } = created.createUser;
    const users = await ok('{ users { edges { node { email } } } }');
    expect(users.users.edges.map((e: any) => e.node.email)).toEqual(['admin@localhost', 'lin@example.com']);
    expect(await node(id, '... on User { email }')).toEqual({ __typename: 'User', email: 'lin@example.com' });
    const changed = await ok('mutation($id: String!) { updateUserRole(id: $id, role: "user") { role { id } } }', { id: userId });
    expect(changed.updateUserRole.role.id).toBe('user');
    const lastOwner = await server.graphql('mutation($id: String!) { updateUserRole(id: $id, role: "admin") { id } }', {
      id: (await call(server, '/v2/user')).body.id,
    });
    expect(lastOwner.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await ok('mutation($id: String!) { removeUser(id: $id) }', { id: userId })).removeUser).toBe(userId);
    expect(await node(id, '... on User { email }')).toBeNull();
    expect((await ok('mutation { updateViewer(name: "Ada") { name } }')).updateViewer.name).toBe('Ada');
  });

  it('roles and groups: connections, nodes, create, update, delete, with REST\'s errors', async () => {
    const role = (
      await ok('mutation($input: RoleInput!) { createRole(input: $input) { id roleId name orgCapabilities memberIds } }', {
        input: { name: 'auditors', orgCapabilities: { users: ['read'] } },
      })
    ).createRole;
    expect(role).toMatchObject({ name: 'auditors', orgCapabilities: { users: ['read'] }, memberIds: [] });
    const duplicate = await server.graphql('mutation { createRole(input: { name: "auditors" }) { id } }');
    expect(duplicate.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const badCapability = await server.graphql('mutation { createRole(input: { name: "x", orgCapabilities: { teleport: ["read"] } }) { id } }');
    expect(badCapability.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/teleport/) });
    const updated = await ok('mutation($id: String!) { updateRole(id: $id, input: { description: "read users" }) { description name } }', { id: role.roleId });
    expect(updated.updateRole).toEqual({ description: 'read users', name: 'auditors' });

    const group = (
      await ok('mutation($roles: [String!]) { createGroup(input: { name: "audit", roles: $roles }) { id groupId roleIds memberIds } }', { roles: [role.roleId] })
    ).createGroup;
    expect(group.roleIds).toEqual([role.roleId]);
    expect((await ok('{ roles { edges { node { name } } } groups { edges { node { name } } } }')).groups.edges).toEqual([{ node: { name: 'audit' } }]);
    expect(await node(role.id, '... on Role { name }')).toEqual({ __typename: 'Role', name: 'auditors' });
    expect(await node(group.id, '... on Group { name }')).toEqual({ __typename: 'Group', name: 'audit' });
    expect((await ok('mutation($id: String!) { deleteRole(id: $id) }', { id: role.roleId })).deleteRole).toBe(role.roleId);
    expect((await ok('mutation($id: String!) { updateGroup(id: $id, input: { description: "d" }) { roleIds } }', { id: group.groupId })).updateGroup.roleIds).toEqual([]);
    expect((await ok('mutation($id: String!) { deleteGroup(id: $id) }', { id: group.groupId })).deleteGroup).toBe(group.groupId);
    const reader = await addMember(server, 'read-only');
    const denied = await server.graphql('mutation { createGroup(input: { name: "nope" }) { id } }', undefined, reader.token);
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('annotations: filtered connection, node, create, update, delete', async () => {
    const made = (
      await ok('mutation($input: AnnotationInput!) { createAnnotation(input: $input) { id annotationId type datasets time } }', {
        input: { type: 'deploy', datasets: ['gql'], time: '2026-07-01T10:00:00.000Z', title: 'v1' },
      })
    ).createAnnotation;
    expect(made).toMatchObject({ type: 'deploy', datasets: ['gql'], time: '2026-07-01T10:00:00.000Z' });
    await ok('mutation($input: AnnotationInput!) { createAnnotation(input: $input) { id } }', {
      input: { type: 'deploy', datasets: ['elsewhere'], time: '2026-07-01T10:00:00.000Z' },
    });
    const filtered = await ok('{ annotations(datasets: ["gql"], start: "2026-07-01T00:00:00Z", end: "2026-07-02T00:00:00Z") { edges { node { title } } } }');
    expect(filtered.annotations.edges).toEqual([{ node: { title: 'v1' } }]);
    const updated = await ok('mutation($id: String!) { updateAnnotation(id: $id, input: { endTime: "2026-07-01T11:00:00Z" }) { endTime } }', { id: made.annotationId });
    expect(updated.updateAnnotation.endTime).toBe('2026-07-01T11:00:00.000Z');
    expect(await node(made.id, '... on Annotation { title }')).toEqual({ __typename: 'Annotation', title: 'v1' });
    const invalid = await server.graphql('mutation { createAnnotation(input: { type: "Not Valid", datasets: ["gql"] }) { id } }');
    expect(invalid.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await ok('mutation($id: String!) { deleteAnnotation(id: $id) }', { id: made.annotationId })).deleteAnnotation).toBe(made.annotationId);
  });

  it('starred queries: connection with who, node, create, update, delete', async () => {
    const saved = (
      await ok('mutation($input: StarredQueryInput!) { createStarredQuery(input: $input) { id starredQueryId name who query } }', {
        input: { name: 'errors', dataset: 'web', query: { apl: "['web'] | where status >= 500" } },
      })
    ).createStarredQuery;
    expect(saved).toMatchObject({ name: 'errors', query: { apl: "['web'] | where status >= 500" } });
    const updated = await ok('mutation($id: String!) { updateStarredQuery(id: $id, input: { name: "5xx" }) { name dataset } }', { id: saved.starredQueryId });
    expect(updated.updateStarredQuery).toEqual({ name: '5xx', dataset: 'web' });
    expect((await ok('{ starredQueries(who: "all", dataset: "web") { edges { node { name } } } }')).starredQueries.edges).toEqual([{ node: { name: '5xx' } }]);
    expect(await node(saved.id, '... on StarredQuery { name }')).toEqual({ __typename: 'StarredQuery', name: '5xx' });
    expect((await ok('mutation($id: String!) { deleteStarredQuery(id: $id) }', { id: saved.starredQueryId })).deleteStarredQuery).toBe(saved.starredQueryId);
  });

  it('dashboards: connection, node, create, update with versions, chart patches, delete', async () => {
    const document = {
      name: 'GraphQL board',
      owner: 'X-AXIOM-EVERYONE',
      charts: [{ id: 'n1', type: 'Note', text: 'first' }],
      layout: [{ i: 'n1', x: 0, y: 0, w: 12, h: 2 }],
      refreshTime: 15,
      schemaVersion: 2,
      timeWindowStart: 'qr-now-15m',
      timeWindowEnd: 'qr-now',
    };
    const created = await ok('mutation($doc: JSON!) { createDashboard(uid: "gql-board", document: $doc) { status dashboard { id uid version name } } }', { doc: document });
    expect(created.createDashboard).toMatchObject({ status: 'created', dashboard: { uid: 'gql-board', version: 1, name: 'GraphQL board' } });
    const conflict = await server.graphql('mutation($doc: JSON!) { createDashboard(uid: "gql-board", document: $doc) { status } }', { doc: document });
    expect(conflict.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT' });
    const updated = await ok('mutation($doc: JSON!) { updateDashboard(uid: "gql-board", version: 1, document: $doc) { dashboard { version name } } }', {
      doc: { ...document, name: 'Renamed board' },
    });
    expect(updated.updateDashboard.dashboard).toEqual({ version: 2, name: 'Renamed board' });
    const stale = await server.graphql('mutation($doc: JSON!) { updateDashboard(uid: "gql-board", version: 1, document: $doc) { status } }', { doc: document });
    expect(stale.errors?.[0]?.extensions).toMatchObject({ code: 'PRECONDITION_FAILED', currentVersion: 2 });
    const patched = await ok('mutation { patchDashboardChart(uid: "gql-board", chartId: "n1", version: 2, patch: { text: "second" }) { dashboard { version document } } }');
    expect(patched.patchDashboardChart.dashboard.version).toBe(3);
    expect(patched.patchDashboardChart.dashboard.document.charts).toEqual([{ id: 'n1', type: 'Note', text: 'second' }]);
    expect((await ok('{ dashboards { edges { node { uid } } } }')).dashboards.edges).toEqual([{ node: { uid: 'gql-board' } }]);
    expect(await node(created.createDashboard.dashboard.id, '... on Dashboard { version }')).toEqual({ __typename: 'Dashboard', version: 3 });
    expect((await ok('mutation { deleteDashboard(uid: "gql-board") }')).deleteDashboard).toBe('gql-board');
    expect((await ok('{ dashboard(uid: "gql-board") { uid } }')).dashboard).toBeNull();
  });
});
