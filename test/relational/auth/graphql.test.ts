import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('GraphQL: viewer and API tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('requires a token for non-catalog fields', async () => {
    const result = await server.graphql('{ viewer { name } }', undefined, false);
    expect(result.data).toBeNull();
    expect(result.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect(result.errors?.[0]?.message).toMatch(/missing Authorization header/);
  });

  it('answers the viewer with its role', async () => {
    const result = await server.graphql('{ viewer { id name email role { id name } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data.viewer).toMatchObject({ name: 'Admin', email: 'admin@localhost', role: { id: 'owner', name: 'Owner' } });
  });

  it('creates, pages through, regenerates and deletes tokens, as REST sees them', async () => {
    const names = ['a', 'b', 'c'];
    const created: { id: string; tokenId: string; secret: string }[] = [];
    for (const name of names) {
      const result = await server.graphql(
        `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id tokenId name orgCapabilities } } }`,
        { input: { name, orgCapabilities: { apiTokens: ['read'] } } },
      );
      expect(result.errors).toBeUndefined();
      const { secret, token } = result.data.createApiToken;
      expect(token.orgCapabilities).toEqual({ apiTokens: ['read'] });
      created.push({ id: token.id, tokenId: token.tokenId, secret });
    }
    // The REST API sees the same tokens and the secret works.
    const rest = (await (await server.request('/v2/tokens')).json()) as { id: string }[];
    expect(rest.map((t) => t.id)).toEqual(created.map((t) => t.tokenId));
    expect((await server.request('/v2/tokens', { auth: created[0]!.secret })).status).toBe(200);

    const page1 = await server.graphql('{ apiTokens(first: 2) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }');
    expect(page1.data.apiTokens.edges.map((e: any) => e.node.name)).toEqual(['a', 'b']);
    expect(page1.data.apiTokens.pageInfo.hasNextPage).toBe(true);
    const page2 = await server.graphql('query($after: String) { apiTokens(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage } } }', {
      after: page1.data.apiTokens.pageInfo.endCursor,
    });
    expect(page2.data.apiTokens.edges.map((e: any) => e.node.name)).toEqual(['c']);
    expect(page2.data.apiTokens.pageInfo.hasNextPage).toBe(false);

    const node = await server.graphql('query($id: ID!) { node(id: $id) { ... on ApiToken { name } } }', { id: created[1]!.id });
    expect(node.data.node).toEqual({ name: 'b' });

    const regenerated = await server.graphql('mutation($id: String!) { regenerateApiToken(id: $id) { secret token { name } } }', {
      id: created[2]!.tokenId,
    });
    expect(regenerated.data.regenerateApiToken.token.name).toBe('c');
    expect((await server.request('/v2/tokens', { auth: created[2]!.secret })).status).toBe(401);
    expect((await server.request('/v2/tokens', { auth: regenerated.data.regenerateApiToken.secret })).status).toBe(200);

    const deleted = await server.graphql('mutation($id: String!) { deleteApiToken(id: $id) }', { id: created[0]!.tokenId });
    expect(deleted.data.deleteApiToken).toBe(created[0]!.tokenId);
    expect((await server.request('/v2/tokens', { auth: created[0]!.secret })).status).toBe(401);
  });

  it('maps domain errors to GraphQL error codes', async () => {
    const invalid = await server.graphql('mutation { createApiToken(input: { name: "x", orgCapabilities: { datasets: ["fly"] } }) { secret } }');
    expect(invalid.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    const missing = await server.graphql('mutation { deleteApiToken(id: "nope") }');
    expect(missing.errors?.[0]).toMatchObject({ message: 'API token "nope" not found', extensions: { code: 'NOT_FOUND' } });
  });
});
