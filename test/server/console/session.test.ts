// Signing in and out of the console in a real browser: the sign-in page (accessible, a wrong
// password said plainly), the shell it leads to, signing out (the old cookie then gets 401), and
// a page of another origin that makes the browser post to the server with the session cookie:
// 127.0.0.1 on another port is another origin but the same site, so the browser does send the
// SameSite=Lax cookie, and only the Origin check and the CSRF token stand in the way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable,
  launchChromium,
  openConsole,
  screenshot,
  seriousAccessibilityViolations,
  signIn,
  TEST_ADMIN_PASSWORD,
} from '../../helpers/browser';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let browser: Browser;
/** A page on another port that posts to the server the way a hostile site would. */
let attacker: http.Server;
let attackerUrl: string;

function attackerPage(target: string): string {
  // A plain form post (no JavaScript needed, so no preflight) and a fetch with credentials.
  return `<!doctype html><html><body>
<form id="f" method="POST" action="${target}/v2/datasets" enctype="text/plain">
  <input name='{"name":"stolen-form","x":"' value='"}'>
</form>
<script>
  fetch(${JSON.stringify(`${target}/v2/datasets`)}, {
    method: 'POST', credentials: 'include', mode: 'no-cors',
    headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'stolen-fetch' }),
  }).finally(() => { document.title = 'fetched'; document.getElementById('f').submit(); });
</script></body></html>`;
}

beforeAll(async () => {
  if (!chromiumAvailable) return;
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  browser = await launchChromium();
  attacker = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(attackerPage(server.url));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
});

/** Names of the datasets the admin's organization holds, asked with the admin token. */
async function datasetNames(): Promise<string[]> {
  const response = await server.request('/v2/datasets');
  return ((await response.json()) as { name: string }[]).map((dataset) => dataset.name);
}

describe.skipIf(!chromiumAvailable)('signing in and out of the console', () => {
  it('refuses a wrong password, signs in, and after signing out the old cookie is refused', async () => {
    const session = await openConsole(browser);
    const { page, context } = session;
    await page.goto(`${server.url}/`);
    // `/` leads to the console, and without a session to the sign-in page.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/login');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await page.getByLabel('Email').fill('admin@localhost');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('wrong email or password');

    await signIn(page, server.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(expect.arrayContaining(['Query', 'Stream']));
    const [cookie] = (await context.cookies(server.url)).filter((candidate) => candidate.name === 'eventdeck_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const withOldCookie = () => server.request('/auth/session', { headers: { cookie: `${cookie!.name}=${cookie!.value}` }, auth: false });
    expect((await withOldCookie()).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await withOldCookie()).status).toBe(401);
    // Back in the console's pages, the browser is asked to sign in again.
    await page.goto(`${server.url}/app/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    session.expectClean();
    await context.close();
  }, 60_000);

  it('refuses what a page of another origin posts with the session cookie', async () => {
    const session = await openConsole(browser);
    const { page, context } = session;
    await signIn(page, server.url);
    const before = await datasetNames();

    // The browser sends the cookie along (same site), and the server must refuse: no dataset
    // appears, whichever way the page posted.
    const posts: { url: string; status: number; cookie: boolean }[] = [];
    context.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'POST' && new URL(request.url()).origin === server.url) {
        void request.allHeaders().then((headers) => posts.push({ url: request.url(), status: response.status(), cookie: /eventdeck_session=/.test(headers.cookie ?? '') }));
      }
    });
    const other = await context.newPage();
    await other.goto(attackerUrl);
    await expect.poll(() => posts.length, { timeout: 15_000 }).toBe(2);
    expect(posts.map((post) => post.status)).toEqual([403, 403]);
    expect(posts.every((post) => post.cookie)).toBe(true);
    expect(await datasetNames()).toEqual(before);

    // The console itself, same origin with its token, still may.
    await page.goto(`${server.url}/app/`);
    const created = await page.evaluate(async () => {
      const session = (await (await fetch('/auth/session')).json()) as { csrfToken: string; organizations: { id: string }[] };
      const response = await fetch('/v2/datasets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken, 'x-axiom-org-id': session.organizations[0]!.id },
        body: JSON.stringify({ name: 'made-by-the-console' }),
      });
      return response.status;
    });
    expect(created).toBe(200);
    expect(await datasetNames()).toContain('made-by-the-console');
    // The refused posts show up as failed requests in the attacker's page; nothing else went wrong.
    expect(session.outside).toEqual([]);
    await context.close();
  }, 60_000);
});
