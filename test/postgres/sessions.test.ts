// Console sessions over PostgreSQL with two instances: a session started through one works
// through the other (the session row is read every time), its use slides the idle expiry that
// both see, and signing out or changing the password through one ends it on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/postgres';
import { freshPostgresDatabase, startTestServer, type TestServer } from '../helpers/server';
import { consoleHeaders, login, setPassword, withCookie } from '../helpers/sign-in';
import { adminOrg } from '../helpers/teams';

const DAY = 86_400_000;

describe('sessions over PostgreSQL, two instances', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let orgId: string;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    a = await startTestServer({ DATABASE_URL: database.url });
    b = await startTestServer({ DATABASE_URL: database.url });
    orgId = await adminOrg(a);
    await setPassword(a, 'admin@localhost', 'admin-password-1');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('serves a session through either instance, slides it, and ends it everywhere', async () => {
    const session = await login(a, 'admin@localhost', 'admin-password-1');
    expect(session.status).toBe(200);
    const headers = consoleHeaders(b, session, orgId);
    expect((await withCookie(b, '/v2/datasets', headers)).status).toBe(200);
    expect((await withCookie(b, '/v2/datasets', headers, { method: 'POST', body: { name: 'from-b' } })).status).toBe(200);

    const start = Date.now();
    a.app.services.auth.sessions.clock = () => start + 6 * DAY;
    b.app.services.auth.sessions.clock = () => start + 12 * DAY;
    try {
      // Used through A on day 6, the session is still alive through B on day 12.
      expect((await withCookie(a, '/auth/session', headers)).status).toBe(200);
      expect((await withCookie(b, '/auth/session', headers)).status).toBe(200);
    } finally {
      a.app.services.auth.sessions.clock = Date.now;
      b.app.services.auth.sessions.clock = Date.now;
    }

    const other = await login(b, 'admin@localhost', 'admin-password-1');
    expect((await withCookie(a, '/auth/logout', consoleHeaders(a, session), { method: 'POST' })).status).toBe(204);
    expect((await withCookie(b, '/auth/session', headers)).status).toBe(401);
    expect((await withCookie(a, '/auth/session', { cookie: other.cookie })).status).toBe(200);
    const changed = await withCookie(b, '/auth/password', consoleHeaders(b, other), { method: 'POST', body: { currentPassword: 'admin-password-1', newPassword: 'admin-password-2' } });
    expect(changed.status).toBe(200);
    expect((await withCookie(a, '/auth/session', { cookie: other.cookie })).status).toBe(401);
    expect((await login(a, 'admin@localhost', 'admin-password-2')).status).toBe(200);
  });
});
