// GraphiQL at /graphql in a real browser (Debian's headless Chromium, driven by playwright-core)
// whose every request to anything but 127.0.0.1 is blocked: the page must load completely from
// the server, under a Content-Security-Policy that allows nothing external, and run a catalog
// query typed into its editor. Outside CI the test is skipped when Chromium is not installed;
// in CI (`CI` set) a missing Chromium fails it, and `.ci/run` installs it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, openConsole } from '../../helpers/browser';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
beforeAll(async () => {
  if (chromiumAvailable) server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(!chromiumAvailable)('GraphiQL in a browser without internet', () => {
  it('serves the page with a policy that allows nothing external', async () => {
    const response = await server.request('/graphql', { headers: { accept: 'text/html' }, auth: false });
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/script-src 'sha256-[^']+'/);
    expect(policy).toMatch(/connect-src 'self'/);
    expect(policy).not.toMatch(/https?:|\*/);
    const html = await response.text();
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+rel="stylesheet"[^>]+href="http/);
  });

  it('loads from the server alone and runs a catalog query typed into the editor', async () => {
    const browser = await launchChromium();
    try {
      const { page, expectClean } = await openConsole(browser);
      await page.goto(`${server.url}/graphql`, { waitUntil: 'load' });
      await page.waitForSelector('.graphiql-query-editor .monaco-editor', { timeout: 30_000 });
      expect(await page.title()).toBe('eventdeck GraphQL');

      // Replace the default query with our own, as a user would type it.
      await page.click('.graphiql-query-editor .monaco-editor');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText('{ model(id: "gpt-4o-mini") { modelId providerId inputCostPerMillion } }');
      await page.click('.graphiql-execute-button');
      await page.waitForFunction(() => document.querySelector('.graphiql-response')?.textContent?.includes('inputCostPerMillion'), undefined, { timeout: 30_000 });
      // The response editor renders spaces as no-break spaces.
      const shown = JSON.parse((await page.textContent('.graphiql-response'))!.replaceAll('\u00a0', ' '));

      const source = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, { input_cost_per_token: number }>;
      expect(shown).toEqual({
        data: { model: { modelId: 'gpt-4o-mini', providerId: 'openai', inputCostPerMillion: source['openai/gpt-4o-mini']!.input_cost_per_token * 1_000_000 } },
      });
      expectClean();
    } finally {
      await browser.close();
    }
  }, 90_000);
});
