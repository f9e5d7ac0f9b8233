// What a signed-in user manages for themselves and what an admin hands out, over HTTP: the
// user's time zone (REST and GraphQL), their own sessions (list, end one, end all others; never
// someone else's), their personal tokens (create, use, revoke), and invitations by link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { consoleHeaders, login, setPassword, withCookie } from '../../helpers/sign-in';
import { addMember, adminOrg, call, json } from '../../helpers/teams';

let server: TestServer;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  orgId = await adminOrg(server);
  await setPassword(server, 'admin@localhost', 'admin-password-1');
});
afterAll(() => server.close());

describe('the time zone of the current user', () => {
  it('is null at first, set and cleared through PUT /v2/user, and read by GraphQL', async () => {
    expect((await call(server, '/v2/user')).body).toMatchObject({ email: 'admin@localhost', timeZone: null });
    const set = await call(server, '/v2/user', json('PUT', { timeZone: 'Europe/Paris' }));
    expect(set).toMatchObject({ status: 200, body: { name: 'Admin', timeZone: 'Europe/Paris' } });
    expect((await call(server, '/v2/user')).body.timeZone).toBe('Europe/Paris');
    const viewer = await server.graphql('{ viewer { name timeZone } }');
    expect(viewer.data).toEqual({ viewer: { name: 'Admin', timeZone: 'Europe/Paris' } });

    const renamed = await server.graphql('mutation { updateViewer(name: "Root", timeZone: "America/New_York") { name timeZone } }');
    expect(renamed.data).toEqual({ updateViewer: { name: 'Root', timeZone: 'America/New_York' } });
    const cleared = await server.graphql('mutation { updateViewer(timeZone: null) { name timeZone } }');
    expect(cleared.data).toEqual({ updateViewer: { name: 'Root', timeZone: null } });
    expect((await call(server, '/v2/user', json('PUT', { name: 'Admin' }))).body).toMatchObject({ name: 'Admin', timeZone: null });
  });

  it('refuses an unknown zone and an empty update with 400', async () => {
    const unknown = await call(server, '/v2/user', json('PUT', { timeZone: 'Mars/Olympus' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/timeZone.*IANA time zone/);
    expect((await call(server, '/v2/user', json('PUT', {}))).status).toBe(400);
    expect((await call(server, '/v2/user')).body.timeZone).toBeNull();
  });
});

describe('the sessions of the signed-in user', () => {
  it('lists them with the current one marked, ends one, then every other, and never touches another user', async () => {
    const member = await addMember(server, 'user');
    await setPassword(server, member.email, 'member-password-1');
    const theirs = await login(server, member.email, 'member-password-1');

    const first = await login(server, 'admin@localhost', 'admin-password-1', { 'user-agent': 'first-browser' });
    const second = await login(server, 'admin@localhost', 'admin-password-1', { 'user-agent': 'second-browser' });
    const third = await login(server, 'admin@localhost', 'admin-password-1', { 'user-agent': 'third-browser' });
    const listed = await withCookie(server, '/auth/sessions', { cookie: first.cookie });
    expect(listed.status).toBe(200);
    const agents = (listed.body as { userAgent: string }[]).map((session) => session.userAgent);
    expect(agents).toEqual(expect.arrayContaining(['first-browser', 'second-browser', 'third-browser']));
    expect(agents).not.toContain(undefined);
    const current = (listed.body as { id: string; current: boolean; userAgent: string; ip: string; createdAt: string; lastSeenAt: string }[]).filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ userAgent: 'first-browser', ip: '127.0.0.1' });
    expect(Date.parse(current[0]!.createdAt)).toBeLessThanOrEqual(Date.parse(current[0]!.lastSeenAt));
    const secondId = (listed.body as { id: string; userAgent: string }[]).find((s) => s.userAgent === 'second-browser')!.id;

    // Another user's session id is not found, and their session lives on.
    const memberSessions = await withCookie(server, '/auth/sessions', { cookie: theirs.cookie });
    const memberSessionId = (memberSessions.body as { id: string }[])[0]!.id;
    const foreign = await withCookie(server, `/auth/sessions/${memberSessionId}`, consoleHeaders(server, first), { method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect((await withCookie(server, '/auth/session', { cookie: theirs.cookie })).status).toBe(200);

    // Without the CSRF token, nothing ends.
    expect((await withCookie(server, `/auth/sessions/${secondId}`, { cookie: first.cookie, origin: server.url }, { method: 'DELETE' })).status).toBe(403);
    expect((await withCookie(server, '/auth/session', { cookie: second.cookie })).status).toBe(200);

    expect((await withCookie(server, `/auth/sessions/${secondId}`, consoleHeaders(server, first), { method: 'DELETE' })).status).toBe(204);
    expect((await withCookie(server, '/auth/session', { cookie: second.cookie })).status).toBe(401);
    expect((await withCookie(server, '/v2/datasets', { cookie: second.cookie })).status).toBe(401);

    const others = await withCookie(server, '/auth/sessions', consoleHeaders(server, first), { method: 'DELETE' });
    expect(others.status).toBe(200);
    expect(others.body.ended).toBeGreaterThanOrEqual(1);
    expect((await withCookie(server, '/auth/session', { cookie: third.cookie })).status).toBe(401);
    expect((await withCookie(server, '/auth/session', { cookie: first.cookie })).status).toBe(200);
    expect((await withCookie(server, '/auth/session', { cookie: theirs.cookie })).status).toBe(200);
    const left = await withCookie(server, '/auth/sessions', { cookie: first.cookie });
    expect((left.body as { current: boolean }[]).map((s) => s.current)).toEqual([true]);
  });

  it('needs a session', async () => {
    expect((await call(server, '/auth/sessions', { auth: false })).status).toBe(401);
  });
});

describe('personal tokens of the current user', () => {
  it('creates one whose secret works once shown, lists it without the secret, and revokes it', async () => {
    const created = await call(server, '/v2/user/tokens', json('POST', { name: 'laptop', description: 'scripts' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'laptop', description: 'scripts', expiresAt: null });
    const secret = created.body.token as string;
    expect(secret).toMatch(/^xapt-/);
    // It acts for the admin, in the organization it names.
    expect((await call(server, '/v2/user', { auth: secret, headers: { 'x-axiom-org-id': orgId } })).body.email).toBe('admin@localhost');
    const listed = await call(server, '/v2/user/tokens');
    expect(listed.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: created.body.id, name: 'laptop' })]));
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    // Someone else can neither see nor revoke it.
    const member = await addMember(server, 'admin');
    expect((await call(server, '/v2/user/tokens', { auth: member.token })).body.map((t: { id: string }) => t.id)).not.toContain(created.body.id);
    expect((await call(server, `/v2/user/tokens/${created.body.id}`, { method: 'DELETE', auth: member.token })).status).toBe(404);

    expect((await call(server, `/v2/user/tokens/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(server, '/v2/user', { auth: secret, headers: { 'x-axiom-org-id': orgId } })).status).toBe(401);
  });

  it('takes an expiry in the future, refuses bad input, and is refused to API tokens', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await call(server, '/v2/user/tokens', json('POST', { name: 'short', expiresAt }));
    expect(created.body.expiresAt).toBe(expiresAt);
    const past = await call(server, '/v2/user/tokens', json('POST', { name: 'late', expiresAt: '2001-01-01T00:00:00Z' }));
    expect(past.status).toBe(400);
    expect((await call(server, '/v2/user/tokens', json('POST', { name: '' }))).status).toBe(400);
    const api = await call(server, '/v2/tokens', json('POST', { name: 'org token', orgCapabilities: { datasets: ['read'] } }));
    expect((await call(server, '/v2/user/tokens', { auth: api.body.token })).status).toBe(403);
  });

  it('is managed from a console session too', async () => {
    const session = await login(server, 'admin@localhost', 'admin-password-1');
    const created = await withCookie(server, '/v2/user/tokens', consoleHeaders(server, session), { method: 'POST', body: { name: 'from the console' } });
    expect(created.status).toBe(200);
    expect((await call(server, '/v2/datasets', { auth: created.body.token, headers: { 'x-axiom-org-id': orgId } })).status).toBe(200);
  });
});

describe('POST /v2/users/invitations', () => {
  it('returns a one-time link that makes the person a member with the role once used', async () => {
    const invited = await call(server, '/v2/users/invitations', json('POST', { email: 'Grace@Example.com', role: 'read-only' }));
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ email: 'grace@example.com', role: { id: 'read-only' }, organization: { id: orgId }, mailed: false });
    expect(invited.body.url).toBe(`${server.app.services.config.publicUrl}/app/accept#${invited.body.token}`);
    expect(Date.parse(invited.body.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // Not a member until the link is used.
    expect((await call(server, '/v2/users')).body.map((u: { email: string }) => u.email)).not.toContain('grace@example.com');
    const accepted = await call(server, '/auth/links/accept', { ...json('POST', { token: invited.body.token, password: 'grace-password-1' }), auth: false });
    expect(accepted.status).toBe(200);
    const members = (await call(server, '/v2/users')).body as { email: string; role: { id: string } }[];
    expect(members.find((u) => u.email === 'grace@example.com')?.role.id).toBe('read-only');
    // A member already: 409.
    expect((await call(server, '/v2/users/invitations', json('POST', { email: 'grace@example.com', role: 'user' }))).status).toBe(409);
  });

  it('refuses bad input, unknown roles, callers without users:create and roles beyond the caller', async () => {
    expect((await call(server, '/v2/users/invitations', json('POST', { email: 'not-an-email', role: 'user' }))).status).toBe(400);
    const unknown = await call(server, '/v2/users/invitations', json('POST', { email: 'x@example.com', role: 'no-such-role' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/no-such-role/);
    const reader = await addMember(server, 'user');
    expect((await call(server, '/v2/users/invitations', { ...json('POST', { email: 'y@example.com', role: 'user' }), auth: reader.token })).status).toBe(403);
    const admin = await addMember(server, 'admin');
    expect((await call(server, '/v2/users/invitations', { ...json('POST', { email: 'z@example.com', role: 'owner' }), auth: admin.token })).status).toBe(403);
    expect((await call(server, '/v2/users/invitations', { ...json('POST', { email: 'z@example.com', role: 'user' }), auth: admin.token })).status).toBe(200);
  });
});
