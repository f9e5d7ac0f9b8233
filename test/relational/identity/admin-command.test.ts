// `npm run -s admin -- token --org ORG_ID --email EMAIL` beside a running server, over the same
// configuration: stdout holds the new personal token and nothing else, and the server accepts it
// at once. Mistakes go to stderr with a non-zero exit and nothing on stdout.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { adminOrg, call, json } from '../../helpers/teams';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let server: TestServer;
let orgId: string;
beforeAll(async () => {
  server = await startTestServer();
  orgId = await adminOrg(server);
});
afterAll(() => server.close());

async function admin(args: string[]) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'admin', '--', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...server.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run admin -- token', () => {
  it('prints only a new personal token of the member, which the running server accepts', async () => {
    const added = await call(server, '/v2/users', json('POST', { name: 'Operator', email: 'ops@example.com', role: 'read-only' }));
    expect(added.status).toBe(200);
    const { code, stdout } = await admin(['token', '--org', orgId, '--email', 'ops@example.com']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^xapt-[0-9a-f-]{36}\n$/);
    const token = stdout.trim();
    const me = await call(server, '/v2/user', { auth: token });
    expect(me).toMatchObject({ status: 200, body: { id: added.body.id, email: 'ops@example.com', role: { id: 'read-only' } } });
    // It acts with the member's role: read-only members cannot create datasets.
    expect((await call(server, '/v2/datasets', { ...json('POST', { name: 'nope' }), auth: token })).status).toBe(403);
  });

  it('refuses unknown organizations, non-members and incomplete command lines', async () => {
    const unknownOrg = await admin(['token', '--org', 'no-such-org', '--email', 'admin@localhost']);
    expect(unknownOrg).toMatchObject({ code: 1, stdout: '' });
    expect(unknownOrg.stderr).toMatch(/organization "no-such-org" not found/);
    const stranger = await admin(['token', '--org', orgId, '--email', 'nobody@example.com']);
    expect(stranger).toMatchObject({ code: 1, stdout: '' });
    expect(stranger.stderr).toMatch(/no member with email "nobody@example.com"/);
    const incomplete = await admin(['token', '--org', orgId]);
    expect(incomplete).toMatchObject({ code: 2, stdout: '' });
    expect(incomplete.stderr).toMatch(/--org and --email are required/);
  });
});
