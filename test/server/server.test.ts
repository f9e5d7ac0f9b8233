import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

describe('HTTP server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers /healthz with 200 when ready', async () => {
    const response = await server.request('/healthz', { auth: false });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await server.request('/no/such/route?x=1', { auth: false });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: 'no route for GET /no/such/route' });
  });

  it('serves GraphiQL at /graphql to browsers', async () => {
    const response = await server.request('/graphql', { auth: false, headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('GraphiQL');
  });

  it('reports GraphQL syntax errors as GraphQL errors', async () => {
    const result = await server.graphql('{ nope(', undefined, false);
    expect(result.errors?.[0]?.message).toMatch(/Syntax Error/);
  });
});
