// Console sessions over HTTP: signing in with email and password, the cookie's attributes, a
// session acting exactly like its user's personal token on REST and GraphQL, Authorization
// winning over the cookie, sliding and absolute expiry, sign-out, password changes, and access
// ending with the membership or the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { consoleHeaders, login, setPassword, withCookie } from '../../helpers/sign-in';
import { addMember, adminOrg, call, json } from '../../helpers/teams';

const DAY = 86_400_000;
let server: TestServer;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  orgId = await adminOrg(server);
  await setPassword(server, 'admin@localhost', 'admin-password-1');
});
afterAll(() => server.close());

describe('POST /auth/login', () => {
  it('signs in with the right password and sets an HttpOnly, SameSite=Lax cookie for the whole site', async () => {
    const signedIn = await login(server, 'Admin@Localhost ', 'admin-password-1');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({
      user: { email: 'admin@localhost', name: 'Admin' },
      organizations: [{ id: orgId, role: 'owner' }],
    });
    expect(signedIn.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(Date.parse(signedIn.body.expiresAt)).toBeGreaterThan(Date.now() + 6 * DAY);
    expect(signedIn.cookie).toMatch(/^eventdeck_session=eds-[A-Za-z0-9_-]{30,}$/);
    const attributes = signedIn.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(attributes).not.toContain('secure');
    const session = await withCookie(server, '/auth/session', { cookie: signedIn.cookie });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { email: 'admin@localhost' }, csrfToken: signedIn.body.csrfToken });
  });

  it('answers a wrong password and an unknown email alike, with 401', async () => {
    const wrong = await login(server, 'admin@localhost', 'not-the-password');
    const unknown = await login(server, 'nobody@example.com', 'not-the-password');
    expect(wrong).toMatchObject({ status: 401, cookie: '', body: { message: 'wrong email or password', code: 401 } });
    expect(unknown).toMatchObject({ status: 401, cookie: '', body: { message: 'wrong email or password', code: 401 } });
  });

  it('refuses malformed bodies with 400', async () => {
    const missing = await call(server, '/auth/login', { ...json('POST', { email: 'admin@localhost' }), auth: false });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/password/);
    const notJson = await call(server, '/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{', auth: false });
    expect(notJson.status).toBe(400);
    const wrongType = await call(server, '/auth/login', { ...json('POST', { email: 1, password: [] }), auth: false });
    expect(wrongType.status).toBe(400);
  });

  it('lists the sign-in methods', async () => {
    expect(await call(server, '/auth/methods', { auth: false })).toMatchObject({ status: 200, body: { password: true, oidc: null } });
    // The console's routes stay out of the API document that clients read.
    const document = (await call(server, '/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/auth/'))).toEqual([]);
  });

  it('answers 401 on GET /auth/session without a valid cookie', async () => {
    expect((await withCookie(server, '/auth/session', {})).status).toBe(401);
    expect((await withCookie(server, '/auth/session', { cookie: 'eventdeck_session=eds-forged' })).status).toBe(401);
  });
});

describe('an unknown email costs what a wrong password costs', () => {
  let timed: TestServer;
  beforeAll(async () => {
    timed = await startTestServer({ LOGIN_FAILURES_PER_ADDRESS: '1000', LOGIN_FAILURES_PER_ACCOUNT: '1000' });
    await setPassword(timed, 'admin@localhost', 'admin-password-1');
  });
  afterAll(() => timed.close());

  /** Median times of failed sign-ins for each email, the emails taking turns so that a change in the machine's load weighs on both alike. */
  async function medians(emails: string[]): Promise<number[]> {
    const times = emails.map(() => [] as number[]);
    for (let i = 0; i < 9; i++) {
      for (const [at, email] of emails.entries()) {
        const started = performance.now();
        expect((await login(timed, email, `wrong-password-${i}`)).status).toBe(401);
        times[at]!.push(performance.now() - started);
      }
    }
    return times.map((list) => list.sort((a, b) => a - b)[4]!);
  }

  it('takes at least half as long for an unknown email', async () => {
    await medians(['warm-up@example.com']);
    const [wrong, unknown] = (await medians(['admin@localhost', 'nobody@example.com'])) as [number, number];
    // A verification of an argon2id hash takes milliseconds; skipping it would answer in well under one.
    expect(wrong).toBeGreaterThan(3);
    expect(unknown).toBeGreaterThanOrEqual(0.5 * wrong);
  });
});

describe('a session acts with the rights of its user', () => {
  it('lets an owner and a plain user act, and refuses a read-only member on REST and GraphQL alike', async () => {
    const reader = await addMember(server, 'read-only');
    await setPassword(server, reader.email, 'reader-password');
    const session = await login(server, reader.email, 'reader-password');
    expect(session.status).toBe(200);
    const headers = consoleHeaders(server, session, orgId);

    const me = await withCookie(server, '/v2/user', headers);
    const byToken = await call(server, '/v2/user', { auth: reader.token, headers: { 'x-axiom-org-id': orgId } });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(byToken.body);

    const byCookie = await withCookie(server, '/v2/datasets', headers, { method: 'POST', body: { name: 'reader-cookie' } });
    const byReaderToken = await call(server, '/v2/datasets', { ...json('POST', { name: 'reader-token' }, { 'x-axiom-org-id': orgId }), auth: reader.token });
    expect(byCookie.status).toBe(403);
    expect(byReaderToken.status).toBe(403);
    expect(byCookie.body.message).toBe(byReaderToken.body.message);

    const gql = await withCookie(server, '/graphql', headers, { method: 'POST', body: { query: 'mutation { createDataset(input: { name: "reader-gql" }) { name } }' } });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const listed = await withCookie(server, '/graphql', headers, { method: 'POST', body: { query: '{ viewer { email } }' } });
    expect(listed.body).toEqual({ data: { viewer: { email: reader.email } } });

    const writer = await addMember(server, 'user');
    await setPassword(server, writer.email, 'writer-password');
    const writerSession = await login(server, writer.email, 'writer-password');
    const writerHeaders = consoleHeaders(server, writerSession, orgId);
    const created = await withCookie(server, '/v2/datasets', writerHeaders, { method: 'POST', body: { name: 'writer-cookie' } });
    expect(created.status).toBe(200);
    const createdGql = await withCookie(server, '/graphql', writerHeaders, { method: 'POST', body: { query: 'mutation { createDataset(input: { name: "writer-gql" }) { name } }' } });
    expect(createdGql.body).toEqual({ data: { createDataset: { name: 'writer-gql' } } });
  });

  it('lets an Authorization header win over the cookie', async () => {
    const reader = await addMember(server, 'read-only');
    await setPassword(server, reader.email, 'reader-password');
    const session = await login(server, reader.email, 'reader-password');
    const asAdmin = await withCookie(server, '/v2/user', { ...consoleHeaders(server, session, orgId), authorization: `Bearer ${server.adminToken}` });
    expect(asAdmin.body.email).toBe('admin@localhost');
    const badToken = await withCookie(server, '/v2/user', { ...consoleHeaders(server, session, orgId), authorization: 'Bearer xapt-not-a-token' });
    expect(badToken.status).toBe(401);
  });

  it('loses access to an organization at the next request after removal, and everything when the user is deleted', async () => {
    const member = await addMember(server, 'user');
    await setPassword(server, member.email, 'member-password');
    const session = await login(server, member.email, 'member-password');
    const headers = consoleHeaders(server, session, orgId);
    expect((await withCookie(server, '/v2/datasets', headers)).status).toBe(200);
    expect((await call(server, `/v2/users/${member.id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await withCookie(server, '/v2/datasets', headers);
    expect(after.status).toBe(403);
    expect((await withCookie(server, '/auth/session', headers)).body.organizations).toEqual([]);

    await server.app.services.store.prisma.user.delete({ where: { id: member.id } });
    expect((await withCookie(server, '/v2/datasets', headers)).status).toBe(401);
    expect((await withCookie(server, '/auth/session', headers)).status).toBe(401);
  });
});

describe('expiry', () => {
  it('slides the idle expiry with use and ends the session at the absolute expiry', async () => {
    const sessions = server.app.services.auth.sessions;
    const start = Date.now();
    let now = start;
    sessions.clock = () => now;
    try {
      const session = await login(server, 'admin@localhost', 'admin-password-1');
      const headers = consoleHeaders(server, session, orgId);
      // Used every 6 days, the 7-day idle expiry keeps moving; at 30 days the session ends anyway.
      for (const day of [6, 12, 18, 24, 29.9]) {
        now = start + day * DAY;
        expect((await withCookie(server, '/v2/datasets', headers)).status, `day ${day}`).toBe(200);
      }
      now = start + 30 * DAY + 1000;
      expect((await withCookie(server, '/v2/datasets', headers)).status).toBe(401);

      now = start;
      const idle = await login(server, 'admin@localhost', 'admin-password-1');
      now = start + 6 * DAY;
      expect((await withCookie(server, '/auth/session', { cookie: idle.cookie })).status).toBe(200);
      now = start + 13 * DAY - 60_000;
      expect((await withCookie(server, '/auth/session', { cookie: idle.cookie })).status).toBe(200);
      now = start + 20 * DAY;
      expect((await withCookie(server, '/auth/session', { cookie: idle.cookie })).status).toBe(401);
    } finally {
      sessions.clock = Date.now;
    }
  });
});

describe('sign-out and password changes', () => {
  it('ends the session on logout and clears the cookie', async () => {
    const session = await login(server, 'admin@localhost', 'admin-password-1');
    const out = await server.request('/auth/logout', { method: 'POST', headers: consoleHeaders(server, session), auth: false });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^eventdeck_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await withCookie(server, '/auth/session', { cookie: session.cookie })).status).toBe(401);
    expect((await withCookie(server, '/v2/datasets', consoleHeaders(server, session, orgId))).status).toBe(401);
  });

  it('revokes every session of the user on a password change and gives the changing one a fresh session', async () => {
    const member = await addMember(server, 'user');
    await setPassword(server, member.email, 'first-password');
    const a = await login(server, member.email, 'first-password');
    const b = await login(server, member.email, 'first-password');
    const short = await withCookie(server, '/auth/password', consoleHeaders(server, a), { method: 'POST', body: { currentPassword: 'first-password', newPassword: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/at least 8 characters/);
    const wrongCurrent = await withCookie(server, '/auth/password', consoleHeaders(server, a), { method: 'POST', body: { currentPassword: 'nope-nope', newPassword: 'second-password' } });
    expect(wrongCurrent.status).toBe(400);

    const changed = await server.request('/auth/password', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...consoleHeaders(server, a) },
      body: JSON.stringify({ currentPassword: 'first-password', newPassword: 'second-password' }),
      auth: false,
    });
    expect(changed.status).toBe(200);
    const fresh = (changed.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(fresh).toMatch(/^eventdeck_session=eds-/);
    expect(fresh).not.toBe(a.cookie);
    expect((await withCookie(server, '/auth/session', { cookie: a.cookie })).status).toBe(401);
    expect((await withCookie(server, '/auth/session', { cookie: b.cookie })).status).toBe(401);
    expect((await withCookie(server, '/auth/session', { cookie: fresh })).status).toBe(200);
    expect((await login(server, member.email, 'first-password')).status).toBe(401);
    expect((await login(server, member.email, 'second-password')).status).toBe(200);
  });
});
