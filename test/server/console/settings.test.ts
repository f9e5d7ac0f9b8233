// The Settings pages in a real browser: the admin sets a time zone, makes a role that may query
// one dataset only and invites someone with it; the invited person accepts the link in a second
// browser, cannot list or query the other dataset (the page shows the server's refusal), creates
// a personal token that works from Node until it is revoked, and ends the session of a third
// browser signed in as them, which then lands on the sign-in page at its next step.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, type ConsoleContext, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let browser: Browser;
let org: string;

const suffix = Math.random().toString(36).slice(2, 7);
const ALLOWED = `alpha-${suffix}`;
const HIDDEN = `beta-${suffix}`;
const INVITED_EMAIL = `ada-${suffix}@example.com`;
const INVITED_PASSWORD = 'ada-password-123';
const ROLE_NAME = `${ALLOWED} readers`;
const now = Date.now();
const ALLOWED_EVENTS = [1, 2, 3].map((n) => ({ _time: new Date(now - n * 60_000).toISOString(), n, source: 'alpha' }));
const HIDDEN_EVENTS = [1, 2].map((n) => ({ _time: new Date(now - n * 60_000).toISOString(), n, source: 'beta' }));

/** Filled by the steps in order: the invitation link, then the invited person's browser. */
let invitationLink = '';
let invited: ConsoleContext | undefined;

async function post(path: string, body: unknown, auth?: string): Promise<Response> {
  return server.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(auth ? { auth } : {}) });
}

beforeAll(async () => {
  if (!chromiumAvailable) return;
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  for (const [name, events] of [
    [ALLOWED, ALLOWED_EVENTS],
    [HIDDEN, HIDDEN_EVENTS],
  ] as const) {
    expect((await post('/v2/datasets', { name })).status).toBe(200);
    expect((await post(`/v1/datasets/${name}/ingest`, events)).status).toBe(200);
  }
  org = ((await (await server.request('/v2/orgs')).json()) as { id: string }[])[0]!.id;
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const settings = (page: Page, area: string) => page.goto(`${server.url}/app/${org}/settings/${area}`);
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();

describe.skipIf(!chromiumAvailable)('Settings pages', () => {
  it('lets the admin set a time zone, make a role limited to one dataset, and invite someone with it', async () => {
    const admin = await openConsole(browser);
    const { page } = admin;
    page.setDefaultTimeout(30_000);
    await signIn(page, server.url);

    await settings(page, 'profile');
    await heading(page, 'Profile');
    // A blank name comes back with the server's message.
    await page.getByLabel('Name', { exact: true }).fill(' ');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/name/);
    await page.getByLabel('Name', { exact: true }).fill('Admin');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const user = (await (await server.request('/v2/user', { headers: { 'x-axiom-org-id': org } })).json()) as { timeZone: string };
    expect(user.timeZone).toBe('Asia/Tokyo');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-profile');

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Roles' }).click();
    await heading(page, 'Roles');
    await page.getByRole('button', { name: 'New role' }).click();
    const editor = page.getByRole('form', { name: 'New role' });
    await editor.getByLabel('Role name').fill(ROLE_NAME);
    await editor.getByLabel('Dataset name or *').fill(ALLOWED);
    await editor.getByRole('button', { name: 'Add dataset scope' }).click();
    await editor.getByRole('checkbox', { name: `${ALLOWED} Query read` }).check();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-roles');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: ROLE_NAME, exact: true }).waitFor();
    const roles = (await (await server.request('/v2/rbac/roles', { headers: { 'x-axiom-org-id': org } })).json()) as { id: string; name: string; datasetCapabilities: unknown; orgCapabilities: unknown }[];
    const role = roles.find((candidate) => candidate.name === ROLE_NAME)!;
    expect(role).toMatchObject({ datasetCapabilities: { [ALLOWED]: { query: ['read'] } }, orgCapabilities: {} });

    // A group giving the custom role to the admin.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Groups' }).click();
    await heading(page, 'Groups');
    await page.getByRole('button', { name: 'New group' }).click();
    const groupForm = page.getByRole('form', { name: 'New group' });
    await groupForm.getByLabel('Group name').fill('readers');
    await groupForm.getByRole('checkbox', { name: ROLE_NAME }).check();
    await groupForm.getByRole('checkbox', { name: /admin@localhost/ }).check();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await groupForm.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'readers', exact: true }).waitFor();
    const groups = (await (await server.request('/v2/rbac/groups', { headers: { 'x-axiom-org-id': org } })).json()) as { name: string; roles: string[]; members: string[] }[];
    const adminId = ((await (await server.request('/v2/user', { headers: { 'x-axiom-org-id': org } })).json()) as { id: string }).id;
    expect(groups.map(({ name, roles, members }) => ({ name, roles, members }))).toEqual([{ name: 'readers', roles: [role.id], members: [adminId] }]);

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Users' }).click();
    await heading(page, 'Users');
    const invite = page.getByRole('form', { name: 'Invite user' });
    await invite.getByLabel('Email').fill(INVITED_EMAIL);
    await invite.getByLabel('Role').selectOption(role.id);
    await invite.getByRole('button', { name: 'Invite user' }).click();
    const link = page.getByRole('textbox', { name: 'Invitation link' });
    await link.waitFor();
    invitationLink = await link.inputValue();
    expect(invitationLink).toMatch(new RegExp(`^${server.url}/app/accept#edl-`));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-users');

    // An API token that may ingest into the allowed dataset only.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API tokens' }).click();
    await heading(page, 'API tokens');
    await page.getByRole('button', { name: 'New API token' }).click();
    const tokenForm = page.getByRole('form', { name: 'New API token' });
    await tokenForm.getByLabel('Token name').fill('shipper');
    await tokenForm.getByLabel('Dataset name or *').fill(ALLOWED);
    await tokenForm.getByRole('button', { name: 'Add dataset scope' }).click();
    await tokenForm.getByRole('checkbox', { name: `${ALLOWED} Ingest create` }).check();
    await tokenForm.getByRole('button', { name: 'Create token' }).click();
    const apiSecret = await page.getByRole('textbox', { name: 'New API token' }).inputValue();
    expect(apiSecret).toMatch(/^xaat-/);
    expect((await post(`/v1/datasets/${ALLOWED}/ingest`, [{ n: 9 }], apiSecret)).status).toBe(200);
    expect((await post(`/v1/datasets/${HIDDEN}/ingest`, [{ n: 9 }], apiSecret)).status).not.toBe(200);
    admin.expectClean();
    await admin.context.close();
  });

  it('gives the invited person only the allowed dataset, a personal token that works until revoked', async () => {
    expect(invitationLink).not.toBe('');
    invited = await openConsole(browser);
    const { page } = invited;
    page.setDefaultTimeout(30_000);
    await page.goto(invitationLink);
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByLabel('Password', { exact: true }).fill(INVITED_PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    // The datasets API, asked from the page with its session, lists only the allowed dataset.
    const listed = await page.evaluate(async (orgId) => {
      const response = await fetch('/v2/datasets', { headers: { 'x-axiom-org-id': orgId } });
      return ((await response.json()) as { name: string }[]).map((dataset) => dataset.name);
    }, org);
    expect(listed).toEqual([ALLOWED]);

    // Its personal token, from the Tokens page.
    await settings(page, 'tokens');
    await heading(page, 'Personal tokens');
    await page.getByLabel('Token name').fill('script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretBox = page.getByRole('textbox', { name: 'New personal token' });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^xapt-/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'settings-tokens');

    const asInvited = { auth: secret, headers: { 'x-axiom-org-id': org } };
    const datasets = (await (await server.request('/v2/datasets', asInvited)).json()) as { name: string }[];
    expect(datasets.map((dataset) => dataset.name)).toEqual([ALLOWED]);
    const apl = (name: string) =>
      server.request('/v1/datasets/_apl?format=tabular', { ...asInvited, method: 'POST', headers: { ...asInvited.headers, 'content-type': 'application/json' }, body: JSON.stringify({ apl: `['${name}'] | count`, startTime: 'now-1d' }) });
    const allowed = await apl(ALLOWED);
    expect(allowed.status).toBe(200);
    const refused = await apl(HIDDEN);
    expect(refused.status).toBe(404);
    const refusal = ((await refused.json()) as { message: string }).message;
    expect(refusal).toContain(HIDDEN);

    // The Query page shows the same refusal for the hidden dataset.
    const query = new URLSearchParams({ apl: `['${HIDDEN}'] | count`, start: 'now-1d', end: 'now' });
    await page.goto(`${server.url}/app/${org}/query?${query}`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.locator('.error-box[role="alert"]').textContent(), { timeout: 10_000 }).toBe(refusal);

    await settings(page, 'tokens');
    await page.getByRole('button', { name: 'Revoke script' }).click();
    await page.getByRole('button', { name: 'Revoke now script' }).click();
    await expect.poll(() => page.getByText('No personal tokens yet.').count()).toBe(1);
    expect((await server.request('/v2/datasets', asInvited)).status).toBe(401);
    invited.expectClean();
  });

  it("ends another browser's session from the Sessions page, which then lands on the sign-in page", async () => {
    expect(invited).toBeDefined();
    const other = await openConsole(browser);
    other.page.setDefaultTimeout(30_000);
    await signIn(other.page, server.url, INVITED_EMAIL, INVITED_PASSWORD);
    await other.page.goto(`${server.url}/app/${org}/settings/profile`);
    await heading(other.page, 'Profile');

    const { page } = invited!;
    await settings(page, 'sessions');
    await heading(page, 'Sessions');
    // Two sessions of the invited person: this one, and the other browser's.
    const rows = page.locator('tbody tr').filter({ hasNotText: 'This session' });
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => page.getByText('This session').count()).toBe(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await rows.getByRole('button', { name: /^Revoke session from/ }).click();
    await rows.getByRole('button', { name: /^Revoke now session from/ }).click();
    await expect.poll(() => rows.count()).toBe(0);

    // The other browser's next step finds its session gone.
    await other.page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Sessions' }).click();
    await expect.poll(() => new URL(other.page.url()).pathname, { timeout: 10_000 }).toBe('/app/login');
    await other.page.getByRole('button', { name: 'Sign in' }).waitFor();
    // This browser is still signed in.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Profile' }).click();
    await heading(page, 'Profile');
    other.expectClean();
    invited!.expectClean();
  });
});
