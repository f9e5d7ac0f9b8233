// One-time links and the operator commands: `npm run admin -- invite | reset | password` (as a
// process for the command's contract, in this process through the function the script calls for
// the rest), the link's description and its use (a new user signed in and a member with the
// invited role; a reset ending the old sessions), refusal of used and expired links, the links
// mailed when SMTP_URL is set, and ADMIN_PASSWORD at start.
import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailCatcher, startMailCatcher } from '../../helpers/mail';
import { startTestServer, type TestServer } from '../../helpers/server';
import { consoleHeaders, login, setPassword, signedInFrom, withCookie } from '../../helpers/sign-in';
import { addMember, adminOrg, call, json } from '../../helpers/teams';
import { runAdminCommand } from '../../../scripts/admin';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PUBLIC_URL = 'https://console.example.test';
/** Each run of the command starts a TypeScript process: seconds on a busy machine. */
const CLI_TIMEOUT = 180_000;

let server: TestServer;
let orgId: string;
let smtp: MailCatcher;

beforeAll(async () => {
  smtp = await startMailCatcher();
  server = await startTestServer({ PUBLIC_URL, LOGIN_FAILURES_PER_ADDRESS: '100' });
  orgId = await adminOrg(server);
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

/** Runs the command in this process, through the function the script calls. */
async function admin(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCommand(args, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...server.env, ...options.env }, {
    stdin: Readable.from([options.input ?? '']),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** Runs `npm run -s admin -- ...` as a process of its own, for the command's contract. */
async function adminProcess(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const child = run('npm', ['run', '-s', 'admin', '--', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...server.env, ...options.env },
  });
  child.child.stdin?.end(options.input ?? '');
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function tokenOf(url: string): string {
  const match = new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/app/accept#(edl-[A-Za-z0-9_-]+)\\n$`).exec(url);
  expect(match, url).not.toBeNull();
  return match![1]!;
}

async function accept(body: Record<string, unknown>) {
  return signedInFrom(await server.request('/auth/links/accept', { ...json('POST', body), auth: false }));
}

describe('invitations', () => {
  it('invites a new user, who accepts, is signed in, and is a member with the role', async () => {
    const email = 'new.person@example.com';
    const invited = await adminProcess(['invite', '--email', email, '--org', orgId, '--role', 'read-only']);
    expect(invited.code, invited.stderr).toBe(0);
    const token = tokenOf(invited.stdout);

    const described = await call(server, `/auth/links/${token}`, { auth: false });
    expect(described).toMatchObject({ status: 200, body: { kind: 'invite', email, organization: { id: orgId, name: 'Default' } } });
    // Not a member until the link is used.
    expect(await server.app.services.store.prisma.membership.count({ where: { orgId, user: { email } } })).toBe(0);

    const tooShort = await accept({ token, password: 'short' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.message).toMatch(/at least 8 characters/);

    const accepted = await accept({ token, password: 'chosen-password', name: 'New Person' });
    expect(accepted.status).toBe(200);
    expect(accepted.cookie).toMatch(/^eventdeck_session=eds-/);
    expect(accepted.body).toMatchObject({ user: { email, name: 'New Person' }, organizations: [{ id: orgId, role: 'read-only' }] });
    const me = await withCookie(server, '/v2/user', consoleHeaders(server, accepted, orgId));
    expect(me).toMatchObject({ status: 200, body: { email, role: { id: 'read-only' } } });
    expect((await login(server, email, 'chosen-password')).status).toBe(200);

    const reused = await accept({ token, password: 'another-password' });
    expect(reused.status).toBe(410);
    expect(reused.body.message).toMatch(/already been used/);
    expect((await call(server, `/auth/links/${token}`, { auth: false })).status).toBe(410);
    expect((await login(server, email, 'another-password')).status).toBe(401);
  }, CLI_TIMEOUT);

  it('refuses unknown links, unknown organizations and roles, and bad command lines', async () => {
    expect((await call(server, '/auth/links/edl-unknown', { auth: false })).status).toBe(404);
    expect((await accept({ token: 'edl-unknown', password: 'chosen-password' })).status).toBe(400);
    expect((await accept({ password: 'chosen-password' })).status).toBe(400);
    const links = server.app.services.auth.loginLinks;
    await expect(links.invite('x@example.com', 'no-such-org')).rejects.toThrow(/organization "no-such-org" not found/);
    await expect(links.invite('x@example.com', orgId, 'wizard')).rejects.toThrow(/role "wizard" does not exist/);
    await expect(links.invite('not an email', orgId)).rejects.toThrow('"not an email" is not an email address');
    const unknownRole = await admin(['invite', '--email', 'x@example.com', '--org', orgId, '--role', 'wizard']);
    expect(unknownRole).toMatchObject({ code: 1, stdout: '' });
    expect(unknownRole.stderr).toMatch(/role "wizard" does not exist/);
    const incomplete = await adminProcess(['invite', '--email', 'x@example.com']);
    expect(incomplete).toMatchObject({ code: 2, stdout: '' });
  }, CLI_TIMEOUT);

  it('refuses an expired invitation', async () => {
    const links = server.app.services.auth.loginLinks;
    const link = await links.invite('late@example.com', orgId, 'user');
    links.clock = () => Date.now() + 7 * 86_400_000 + 1000;
    try {
      expect((await call(server, `/auth/links/${link.token}`, { auth: false })).status).toBe(410);
      const late = await accept({ token: link.token, password: 'chosen-password' });
      expect(late.status).toBe(410);
      expect(late.body.message).toMatch(/expired/);
    } finally {
      links.clock = Date.now;
    }
    expect((await call(server, `/auth/links/${link.token}`, { auth: false })).status).toBe(200);
  });
});

describe('password resets and the password command', () => {
  it('resets a password through a link, ending the old sessions; the link lasts an hour', async () => {
    const member = await addMember(server, 'user');
    await setPassword(server, member.email, 'old-password');
    const old = await login(server, member.email, 'old-password');
    const reset = await admin(['reset', '--email', member.email]);
    expect(reset.code, reset.stderr).toBe(0);
    const token = tokenOf(reset.stdout);
    expect((await call(server, `/auth/links/${token}`, { auth: false })).body).toEqual({ kind: 'reset', email: member.email });

    const links = server.app.services.auth.loginLinks;
    links.clock = () => Date.now() + 3_600_000 + 1000;
    try {
      expect((await accept({ token, password: 'new-password' })).status).toBe(410);
    } finally {
      links.clock = Date.now;
    }
    const accepted = await accept({ token, password: 'new-password' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.organizations).toEqual([{ id: orgId, name: 'Default', role: 'user' }]);
    expect((await withCookie(server, '/auth/session', { cookie: old.cookie })).status).toBe(401);
    expect((await login(server, member.email, 'old-password')).status).toBe(401);
    expect((await login(server, member.email, 'new-password')).status).toBe(200);
    await expect(server.app.services.auth.loginLinks.reset('nobody@example.com')).rejects.toThrow(/no user/);
  }, CLI_TIMEOUT);

  it('sets a password read from stdin', async () => {
    const member = await addMember(server, 'user');
    const set = await admin(['password', '--email', member.email], { input: 'typed-password\n' });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('');
    expect((await login(server, member.email, 'typed-password')).status).toBe(200);
    const short = await admin(['password', '--email', member.email], { input: 'short\n' });
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
    expect((await login(server, member.email, 'typed-password')).status).toBe(200);
  }, CLI_TIMEOUT);
});

describe('links by mail', () => {
  it('mails the invitation when SMTP_URL is set', async () => {
    const email = 'mailed@example.com';
    const invited = await admin(['invite', '--email', email, '--org', orgId], {
      env: { SMTP_URL: smtp.url, SMTP_FROM: 'eventdeck <noreply@eventdeck.test>' },
    });
    expect(invited.code, invited.stderr).toBe(0);
    const url = invited.stdout.trim();
    const mail = smtp.mails.find((m) => m.envelopeTo.includes(email));
    expect(mail).toBeDefined();
    expect(mail!.mail.from?.text).toContain('noreply@eventdeck.test');
    expect(mail!.mail.text).toContain(url);
    expect(mail!.mail.html).toContain(`href="${url}"`);
    expect((await accept({ token: tokenOf(invited.stdout), password: 'mailed-password' })).status).toBe(200);
  }, CLI_TIMEOUT);
});

describe('ADMIN_PASSWORD', () => {
  it('sets the bootstrap admin password at start and replaces it when it changes, ending sessions', async () => {
    const first = await startTestServer({ ADMIN_PASSWORD: 'first-admin-password' });
    let second: TestServer | undefined;
    try {
      const signedIn = await login(first, 'admin@localhost', 'first-admin-password');
      expect(signedIn.status).toBe(200);
      const env = first.env;
      await first.app.close();
      second = await startTestServer({ ...env, ADMIN_PASSWORD: 'second-admin-password' }, { dataDir: first.dataDir });
      expect((await withCookie(second, '/auth/session', { cookie: signedIn.cookie })).status).toBe(401);
      expect((await login(second, 'admin@localhost', 'first-admin-password')).status).toBe(401);
      const again = await login(second, 'admin@localhost', 'second-admin-password');
      expect(again.status).toBe(200);
      await second.app.close();
      // The same value at the next start keeps the sessions.
      second = await startTestServer({ ...env, ADMIN_PASSWORD: 'second-admin-password' }, { dataDir: first.dataDir });
      expect((await withCookie(second, '/auth/session', { cookie: again.cookie })).status).toBe(200);
    } finally {
      await second?.app.close().catch(() => {});
      await first.close().catch(() => {});
    }
  }, CLI_TIMEOUT);
});
