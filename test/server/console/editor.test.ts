// The console's APL editor in a real browser under the production CSP: it is a textbox named
// "Query", styled (CodeMirror's injected styles carry the nonce), completes datasets, tabular
// operators and the fields of the dataset the query reads with their types, underlines a broken
// query with the very message the server answers with a 400, and runs the query on Ctrl+Enter.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { chromiumAvailable, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

const DATASET = 'editor-events';
const EVENTS = [
  { status: 200, http_method: 'GET', duration_ms: 12.5 },
  { status: 503, http_method: 'POST', duration_ms: 830.25 },
  { status: 500, http_method: 'GET', duration_ms: 95 },
  { status: 404, http_method: 'DELETE', duration_ms: 3 },
];

describe.skipIf(!chromiumAvailable)('the APL editor', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
    const created = await server.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: DATASET }) });
    expect(created.status, await created.clone().text()).toBe(200);
    const now = Date.now();
    const events = EVENTS.map((event, index) => ({ _time: new Date(now - (index + 1) * 60_000).toISOString(), ...event }));
    const ingest = await server.request(`/v1/datasets/${DATASET}/ingest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(events) });
    expect(ingest.status, await ingest.clone().text()).toBe(200);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The editor's text, line by line as CodeMirror renders it. */
  const editorText = (page: Page) => page.locator('.cm-content .cm-line').allTextContents().then((lines) => lines.join('\n'));

  /**
   * Replaces the editor's text, cursor at the end: selects all and inserts over the selection as
   * a paste would (no completion pops up; the browser must not style the replaced line inline).
   */
  async function setText(page: Page, text: string) {
    const editor = page.getByRole('textbox', { name: 'Query' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    if (text) await page.keyboard.insertText(text);
    else await page.keyboard.press('Delete');
  }

  /** Tab once the list has been shown longer than CodeMirror's guard against accidental picks (75 ms). */
  async function acceptWithTab(page: Page) {
    await page.locator('.cm-tooltip-autocomplete li[aria-selected]').waitFor();
    await page.waitForTimeout(150);
    await page.keyboard.press('Tab');
  }

  /** The completion option with this label, once the list shows it. */
  const option = (page: Page, label: string) => page.locator('.cm-tooltip-autocomplete li').filter({ has: page.locator('.cm-completionLabel', { hasText: new RegExp(`^${label}$`) }) });

  it('completes datasets, operators and typed fields, shows the server\'s syntax error inline, and runs on Ctrl+Enter', async () => {
    const { page, expectClean } = await openConsole(browser);
    page.setDefaultTimeout(15_000);
    await signIn(page, server.url);
    await page.waitForURL(/\/app\/[^/]+\/query/);
    const editor = page.getByRole('textbox', { name: 'Query' });
    await editor.waitFor();

    // Styled: CodeMirror's own stylesheet applied (it sets the editor's display to flex).
    expect(await page.locator('.cm-editor').evaluate((element) => getComputedStyle(element).display)).toBe('flex');

    // A dataset inside ['…
    await setText(page, '');
    await page.keyboard.type("['editor-ev");
    await option(page, DATASET).waitFor();
    await acceptWithTab(page);
    expect(await editorText(page)).toBe(`['${DATASET}']`);

    // A tabular operator after the pipe, with its summary as detail.
    await page.keyboard.type(' | whe');
    const where = option(page, 'where');
    await where.waitFor();
    expect(await where.locator('.cm-completionDetail').textContent()).toMatch(/^Keeps the rows/);
    await acceptWithTab(page);
    expect(await editorText(page)).toBe(`['${DATASET}'] | where `);

    // A field of the dataset the query reads, with its type.
    await page.keyboard.type('http_m');
    const field = option(page, 'http_method');
    await field.waitFor();
    expect(await field.locator('.cm-completionDetail').textContent()).toBe('string');
    await screenshot(page, 'console-editor-completion');
    await acceptWithTab(page);
    expect(await editorText(page)).toBe(`['${DATASET}'] | where http_method`);

    // A broken query: the inline error is the server's own 400 message for the same text.
    const broken = `['${DATASET}'] | where (status > 400`;
    const answer = await server.request('/v1/datasets/_apl?format=tabular', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apl: broken }) });
    expect(answer.status).toBe(400);
    const serverMessage = ((await answer.json()) as { message: string }).message;
    expect(serverMessage).toMatch(/line 1, column/);
    await page.keyboard.press('Escape');
    await setText(page, broken);
    const message = page.locator('.apl-editor-error');
    await expect.poll(() => message.textContent(), { timeout: 5000 }).toBe(serverMessage);
    // Underlined where the parser stopped: at the end of the text, the last word.
    expect(await page.locator('.cm-lintRange-error').first().textContent()).toBe('400');
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'console-editor-error');

    // Fixed, the error goes; Ctrl+Enter runs the query and the page shows the expected rows.
    await setText(page, `['${DATASET}'] | where status >= 500`);
    await expect.poll(() => message.textContent(), { timeout: 5000 }).toBe('');
    const expectedRows = EVENTS.filter((event) => event.status >= 500).length;
    const request = page.waitForRequest((candidate) => candidate.url().includes('/v1/datasets/_apl') && candidate.method() === 'POST');
    await page.keyboard.press('Control+Enter');
    const sent = await request;
    expect((sent.postDataJSON() as { apl: string }).apl).toBe(`['${DATASET}'] | where status >= 500`);
    await page.getByRole('status').filter({ hasText: new RegExp(`^${expectedRows} rows`) }).waitFor();
    // Ctrl+Enter ran the query; it did not insert a line.
    expect(await editorText(page)).toBe(`['${DATASET}'] | where status >= 500`);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();
    expectClean();
  }, 90_000);
});
