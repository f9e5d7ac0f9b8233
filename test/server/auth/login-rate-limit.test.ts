// Password guessing is slowed down per account (5 failures per 15 minutes by default) and per
// client address (10): past the limit, sign-in answers 429 with Retry-After, even for the right
// password; a successful sign-in clears the account's count.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { login, setPassword } from '../../helpers/sign-in';
import { addMember } from '../../helpers/teams';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectLimited(result: { status: number; body: any }, retryAfter: string | null) {
  expect(result.status).toBe(429);
  expect(result.body.code).toBe(429);
  expect(result.body.message).toMatch(/too many failed sign-ins/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(15 * 60);
}

async function loginWithRetryAfter(target: TestServer, email: string, password: string) {
  const response = await target.request('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    auth: false,
  });
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') };
}

describe('login rate limits', () => {
  it('limits failures per account, then refuses even the right password', async () => {
    server = await startTestServer();
    await setPassword(server, 'admin@localhost', 'admin-password-1');
    for (let i = 0; i < 5; i++) expect((await login(server, 'admin@localhost', `guess-${i}`)).status).toBe(401);
    const limited = await loginWithRetryAfter(server, 'ADMIN@localhost', 'admin-password-1');
    expectLimited(limited, limited.retryAfter);
    // Another account from the same address is still allowed (5 failures < 10 per address).
    const member = await addMember(server, 'user');
    await setPassword(server, member.email, 'member-password');
    expect((await login(server, member.email, 'member-password')).status).toBe(200);
  });

  it('limits failures per client address across accounts', async () => {
    server = await startTestServer();
    await setPassword(server, 'admin@localhost', 'admin-password-1');
    for (let i = 0; i < 10; i++) expect((await login(server, `nobody-${i}@example.com`, 'whatever-password')).status).toBe(401);
    const limited = await loginWithRetryAfter(server, 'admin@localhost', 'admin-password-1');
    expectLimited(limited, limited.retryAfter);
  });

  it('clears the account count on success', async () => {
    server = await startTestServer({ LOGIN_FAILURES_PER_ADDRESS: '100' });
    await setPassword(server, 'admin@localhost', 'admin-password-1');
    for (let i = 0; i < 4; i++) expect((await login(server, 'admin@localhost', `guess-${i}`)).status).toBe(401);
    expect((await login(server, 'admin@localhost', 'admin-password-1')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(server, 'admin@localhost', `again-${i}`)).status).toBe(401);
    expect((await login(server, 'admin@localhost', 'admin-password-1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(server, 'admin@localhost', `more-${i}`)).status).toBe(401);
    expect((await login(server, 'admin@localhost', 'admin-password-1')).status).toBe(429);
  });
});
