// Cross-site request forgery protection of cookie-authenticated requests: state-changing
// requests (REST writes, APL queries, every GraphQL POST, sign-out) need a same-origin Origin
// (or Sec-Fetch-Site: same-origin) and the session's X-CSRF-Token; reads need neither, and
// requests with an Authorization header are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { consoleHeaders, login, setPassword, type SignedIn, withCookie } from '../../helpers/sign-in';
import { adminOrg, call, json } from '../../helpers/teams';

let server: TestServer;
let orgId: string;
let session: SignedIn;

beforeAll(async () => {
  server = await startTestServer();
  orgId = await adminOrg(server);
  await setPassword(server, 'admin@localhost', 'admin-password-1');
  session = await login(server, 'admin@localhost', 'admin-password-1');
  expect(session.status).toBe(200);
});
afterAll(() => server.close());

let counter = 0;
const writes: { name: string; path: string; body: () => unknown }[] = [
  { name: 'a REST write', path: '/v2/datasets', body: () => ({ name: `csrf-${++counter}` }) },
  { name: 'an APL query', path: '/v1/datasets/_apl?format=tabular', body: () => ({ apl: "print x = 1" }) },
  { name: 'a GraphQL query over POST', path: '/graphql', body: () => ({ query: '{ viewer { email } }' }) },
  { name: 'a GraphQL mutation', path: '/graphql', body: () => ({ query: `mutation { createDataset(input: { name: "csrf-gql-${++counter}" }) { name } }` }) },
];

function refused(result: { status: number; body: any }, path: string) {
  if (path === '/graphql') {
    const codes = (result.body.errors ?? []).map((error: any) => error.extensions?.code);
    return codes.includes('FORBIDDEN') && !result.body.data?.createDataset && !result.body.data?.viewer;
  }
  return result.status === 403 && typeof result.body.message === 'string' && result.body.code === 403;
}

describe.each(writes)('$name with the session cookie', ({ path, body }) => {
  it('is refused without the CSRF token, with a wrong one, from a foreign Origin and when cross-site', async () => {
    const good = consoleHeaders(server, session, orgId);
    const { 'x-csrf-token': _token, ...withoutToken } = good;
    const attempts: Record<string, Record<string, string>> = {
      'missing token': withoutToken,
      'wrong token': { ...good, 'x-csrf-token': `${session.csrfToken.slice(0, -2)}xx` },
      'foreign origin': { ...good, origin: 'https://evil.example' },
      'null origin': { ...good, origin: 'null' },
      'cross-site fetch': { ...good, 'sec-fetch-site': 'cross-site' },
      'no origin, no fetch metadata': (({ origin: _origin, ...rest }) => rest)(good),
    };
    for (const [why, headers] of Object.entries(attempts)) {
      const result = await withCookie(server, path, headers, { method: 'POST', body: body() });
      expect(refused(result, path), `${why}: ${result.status} ${JSON.stringify(result.body)}`).toBe(true);
    }
  });

  it('passes with a same-origin Origin (or Sec-Fetch-Site: same-origin) and the token', async () => {
    const good = consoleHeaders(server, session, orgId);
    const ok = await withCookie(server, path, good, { method: 'POST', body: body() });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    const { origin: _origin, ...rest } = good;
    const fetchMetadata = await withCookie(server, path, { ...rest, 'sec-fetch-site': 'same-origin' }, { method: 'POST', body: body() });
    expect(fetchMetadata.status, JSON.stringify(fetchMetadata.body)).toBe(200);
    expect(fetchMetadata.body.errors).toBeUndefined();
  });
});

describe('requests the check leaves alone', () => {
  it('lets cookie reads through without a token', async () => {
    const read = await withCookie(server, '/v2/datasets', { cookie: session.cookie, 'x-axiom-org-id': orgId, origin: 'https://evil.example' });
    expect(read.status).toBe(200);
  });

  it('lets token-authenticated writes through without any CSRF header, even with a foreign Origin', async () => {
    const created = await call(server, '/v2/datasets', json('POST', { name: 'by-token' }, { origin: 'https://evil.example' }));
    expect(created.status).toBe(200);
    const gql = await server.graphql('mutation { createDataset(input: { name: "by-token-gql" }) { name } }');
    expect(gql).toEqual({ data: { createDataset: { name: 'by-token-gql' } } });
  });
});

describe('the sign-in routes', () => {
  it('refuses a sign-out without the token, and keeps the session', async () => {
    const other = await login(server, 'admin@localhost', 'admin-password-1');
    const refusedOut = await withCookie(server, '/auth/logout', { cookie: other.cookie, origin: server.url }, { method: 'POST' });
    expect(refusedOut.status).toBe(403);
    expect((await withCookie(server, '/auth/session', { cookie: other.cookie })).status).toBe(200);
    const crossSite = await withCookie(server, '/auth/password', { ...consoleHeaders(server, other), origin: 'https://evil.example' }, {
      method: 'POST',
      body: { currentPassword: 'admin-password-1', newPassword: 'hijacked-password' },
    });
    expect(crossSite.status).toBe(403);
    expect((await login(server, 'admin@localhost', 'admin-password-1')).status).toBe(200);
  });

  it('refuses a sign-in posted by another site', async () => {
    const foreign = await login(server, 'admin@localhost', 'admin-password-1', { origin: 'https://evil.example' });
    expect(foreign).toMatchObject({ status: 403, cookie: '' });
    const crossSite = await login(server, 'admin@localhost', 'admin-password-1', { 'sec-fetch-site': 'cross-site' });
    expect(crossSite).toMatchObject({ status: 403, cookie: '' });
    const sameOrigin = await login(server, 'admin@localhost', 'admin-password-1', { origin: server.url, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
  });
});
