// The Datasets pages in a real browser against the real server: a signed-in user creates a
// dataset, uploads an NDJSON file with one bad line and reads the answer with its failure (event
// and line), finds the stored count on the Query page, edits a field's description and unit (read
// back over the API), creates a virtual field, a map field and a view, changes the settings,
// creates an ingest-only token under "Send data" and ingests with the curl and Splunk HEC
// snippets as shown (the token cannot query), trims it, then deletes it by typing its name.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { chromiumAvailable, type ConsoleContext, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

const DATASET = 'console-uploads';
const DESCRIPTION = 'files from the console';
/** Waits for what the server must do first (the 2 cores are shared with other test files). */
const PATIENT = { timeout: 30_000 };
const TEST_TIMEOUT = 45_000;

let server: TestServer;
let browser: Browser;
/** One signed-in browser context for the whole file; each test opens its page afresh. */
let consoleContext: ConsoleContext;
let org: string;

/** Good events spread over the last minutes, nested and numeric fields included. */
const NOW = Date.now();
const GOOD = Array.from({ length: 7 }, (_, n) => ({
  _time: new Date(NOW - (n + 1) * 30_000).toISOString(),
  duration: 10 + n * 5,
  bytes: 1024 * (n + 1),
  req: { method: n % 2 === 0 ? 'GET' : 'POST' },
}));
const BAD_LINE = JSON.stringify({ _time: 'not a time at all', duration: 1 });
/** The bad line comes after a blank line, in the middle of the file. */
const LINES = [...GOOD.slice(0, 2).map((event) => JSON.stringify(event)), '', JSON.stringify(GOOD[2]), BAD_LINE, ...GOOD.slice(3).map((event) => JSON.stringify(event))];
const NDJSON = LINES.join('\n');
const BAD_LINE_NUMBER = LINES.indexOf(BAD_LINE) + 1;
/** Events sent with the "Send data" snippets (curl and Splunk HEC). */
const SENT_BY_SNIPPETS = 2;
const BAD_EVENT_NUMBER = LINES.filter((line) => line !== '').indexOf(BAD_LINE) + 1;

async function countStored(token = server.adminToken): Promise<Response> {
  return server.request('/v1/datasets/_apl?format=tabular', {
    method: 'POST',
    auth: token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apl: `['${DATASET}'] | summarize n = count()`, startTime: 'now-1d', endTime: 'now+1m' }),
  });
}

async function storedCount(): Promise<number> {
  const response = await countStored();
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { tables: { columns: unknown[][] }[] };
  return Number(answer.tables[0]!.columns[0]![0]);
}

/**
 * Sends a curl command as a shell would: its single-quoted words are the URL, the -H headers
 * and, last, the body (the snippets quote every word).
 */
function sendAsCurl(command: string): Promise<Response> {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'/g)].map((match) => match[1]!.replace(/'\\''/g, "'"));
  const [url, ...rest] = words;
  const body = rest.pop()!;
  const headers = Object.fromEntries(rest.map((header) => [header.slice(0, header.indexOf(':')), header.slice(header.indexOf(':') + 1).trim()]));
  expect(new URL(url!).origin).toBe(server.url);
  return fetch(url!, { method: 'POST', headers, body });
}

async function openDatasetPage(tab = ''): Promise<Page> {
  const { page } = consoleContext;
  await page.goto(`${server.url}/app/${org}/datasets/${DATASET}${tab ? `/${tab}` : ''}`);
  await page.getByRole('heading', { level: 1, name: DATASET }).waitFor();
  return page;
}

async function expectAccessible(page: Page) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  browser = await launchChromium();
  consoleContext = await openConsole(browser);
  consoleContext.page.setDefaultTimeout(30_000);
  await consoleContext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signIn(consoleContext.page, server.url);
  org = new URL(consoleContext.page.url()).pathname.split('/')[2]!;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!chromiumAvailable)('Datasets pages', () => {
  it('creates a dataset from the list', async () => {
    const { page } = consoleContext;
    await page.goto(`${server.url}/app/${org}/datasets`);
    await page.getByRole('heading', { level: 1, name: 'Datasets' }).waitFor();
    await page.getByRole('button', { name: 'New dataset' }).click();
    const form = page.getByRole('form', { name: 'New dataset' });
    // A bad name shows the server's message.
    await form.getByLabel('Name').fill('no spaces allowed');
    await form.getByRole('button', { name: 'Create dataset' }).click();
    await expect.poll(() => form.getByRole('alert').textContent(), PATIENT).toContain('ASCII letters, digits and "-"');

    await form.getByLabel('Name').fill(DATASET);
    await form.getByLabel('Description').fill(DESCRIPTION);
    await form.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { level: 1, name: DATASET }).waitFor();
    const created = await server.request(`/v2/datasets/${DATASET}`);
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ name: DATASET, description: DESCRIPTION, kind: 'axiom:events:v1' });

    await page.goto(`${server.url}/app/${org}/datasets`);
    const row = page.getByRole('table', { name: 'Datasets' }).getByRole('row').filter({ hasText: DATASET });
    await expect.poll(() => row.textContent(), PATIENT).toContain(DESCRIPTION);
    await expectAccessible(page);
    await screenshot(page, 'datasets-list');
    consoleContext.expectClean();
  }, TEST_TIMEOUT);

  it('uploads an NDJSON file with a bad line, shows the failure, and the Query page counts what was stored', async () => {
    const page = await openDatasetPage('upload');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'datasets-upload-')), 'events.ndjson');
    writeFileSync(file, NDJSON);
    await page.getByLabel('File', { exact: true }).setInputFiles(file);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const answer = page.getByRole('region', { name: 'Ingest answer' });
    await expect.poll(() => answer.getByRole('status').textContent(), PATIENT).toContain(`${GOOD.length} ingested, 1 failed`);
    const failures = page.getByRole('table', { name: 'Failures' });
    await expect.poll(() => failures.getByRole('row').count(), PATIENT).toBe(2);
    const failure = await failures.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(failure[0]).toBe(String(BAD_EVENT_NUMBER));
    expect(failure[1]).toBe(String(BAD_LINE_NUMBER));
    expect(failure[3]).toContain('invalid _time: "not a time at all"');
    expect(await page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('value')).toBe('100');
    await expectAccessible(page);
    await screenshot(page, 'datasets-upload');

    // The Query page finds the stored events.
    const apl = `['${DATASET}'] | summarize stored = count()`;
    await page.goto(`${server.url}/app/${org}/query?${new URLSearchParams({ apl, start: 'now-1d', end: 'now' })}`);
    const grid = page.getByRole('grid', { name: 'Results' });
    await expect.poll(() => grid.locator('[role="row"][data-row]').first().getByRole('gridcell').allTextContents(), PATIENT).toEqual([String(GOOD.length)]);
    expect(await storedCount()).toBe(GOOD.length);
    consoleContext.expectClean();
  }, TEST_TIMEOUT);

  it('shows the field tree, edits a field, charts it, and creates a virtual field', async () => {
    const page = await openDatasetPage();
    const tree = page.getByRole('navigation', { name: 'Fields' });
    await tree.getByRole('button', { name: /^req\.method\b/ }).waitFor();
    // Nested names are grouped under their first part.
    expect(await tree.locator('.group-name', { hasText: /^req$/ }).count()).toBe(1);

    await tree.getByRole('button', { name: /^duration\b/ }).click();
    const editor = page.getByRole('form', { name: 'Field duration' });
    await editor.getByLabel('Description').fill('time to first byte');
    await editor.getByLabel('Unit').fill('ms');
    await editor.getByRole('button', { name: 'Save' }).click();
    // The tree reloads with the new unit, and the form still says the edit was saved.
    await tree.getByRole('button', { name: /^duration ms\b/ }).waitFor();
    expect(await editor.getByRole('status').allTextContents()).toEqual(['Saved.']);
    const field = await (await server.request(`/v2/datasets/${DATASET}/fields/duration`)).json();
    expect(field).toMatchObject({ name: 'duration', type: 'integer', unit: 'ms', description: 'time to first byte', hidden: false });

    // Its quick chart: the statistics of the stored values.
    const durations = GOOD.map((event) => event.duration);
    const stats = page.getByRole('group', { name: 'Statistics of duration' });
    await expect.poll(() => stats.textContent(), PATIENT).toContain(`Events${durations.length}`);
    expect(await stats.textContent()).toContain(`Min${Math.min(...durations)}`);
    expect(await stats.textContent()).toContain(`Max${Math.max(...durations)}`);
    await expectAccessible(page);
    await screenshot(page, 'datasets-fields');

    // Top values of a string field.
    await tree.getByRole('button', { name: /^req\.method\b/ }).click();
    const top = page.getByRole('list', { name: 'Top values of req.method' });
    const gets = GOOD.filter((event) => event.req.method === 'GET').length;
    await expect.poll(() => top.getByRole('listitem').first().textContent(), PATIENT).toBe(`GET${gets}`);

    // A virtual field.
    await page.getByRole('navigation', { name: 'Dataset' }).getByRole('link', { name: 'Virtual fields' }).click();
    await page.getByRole('button', { name: 'New virtual field' }).click();
    const form = page.getByRole('form', { name: 'New virtual field' });
    await form.getByLabel('Name').fill('kb');
    await form.getByLabel('Expression (APL)').fill('bytes / 1024.0');
    await form.getByLabel('Unit').fill('KiB');
    await form.getByRole('button', { name: 'Create virtual field' }).click();
    await page.getByRole('table', { name: 'Virtual fields' }).getByRole('cell', { name: 'kb', exact: true }).waitFor();
    const virtualFields = await (await server.request(`/v2/vfields?dataset=${DATASET}`)).json();
    expect(virtualFields).toMatchObject([{ dataset: DATASET, name: 'kb', expression: 'bytes / 1024.0', unit: 'KiB' }]);
    await expectAccessible(page);
    consoleContext.expectClean();
  }, TEST_TIMEOUT);

  it('declares, renames and removes a map field, creates a view, and edits the settings', async () => {
    const mapFields = async () => (await server.request(`/v2/datasets/${DATASET}/mapfields`)).json();
    let page = await openDatasetPage('map-fields');
    await page.getByLabel('Map field name').fill('attributes.custom');
    await page.getByRole('button', { name: 'Add map field' }).click();
    await page.getByRole('table', { name: 'Map fields' }).getByRole('cell', { name: 'attributes.custom', exact: true }).waitFor();
    expect(await mapFields()).toEqual(['attributes.custom']);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Rename attributes.custom' }).click();
    await page.getByLabel('New name of attributes.custom').fill('attrs');
    await page.getByRole('form', { name: 'Rename map field attributes.custom' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(mapFields, PATIENT).toEqual(['attrs']);
    await page.getByRole('button', { name: 'Remove attrs' }).click();
    await expect.poll(mapFields, PATIENT).toEqual([]);

    page = await openDatasetPage('views');
    await page.getByRole('button', { name: 'New view' }).click();
    const viewForm = page.getByRole('form', { name: 'New view' });
    await viewForm.getByLabel('Name').fill('slow-uploads');
    await viewForm.getByLabel('Query (APL)').fill(`['${DATASET}'] | where duration > 20`);
    await viewForm.getByRole('button', { name: 'Create view' }).click();
    await page.getByRole('table', { name: 'Views' }).getByRole('cell', { name: 'slow-uploads', exact: true }).waitFor();
    const views = (await (await server.request('/v2/views')).json()) as { name: string; datasets: string[] }[];
    expect(views.find((view) => view.name === 'slow-uploads')).toMatchObject({ datasets: [DATASET] });
    await expectAccessible(page);

    page = await openDatasetPage('settings');
    const settings = page.getByRole('form', { name: 'Dataset settings' });
    await settings.getByLabel('Description').fill('edge uploads');
    await settings.getByLabel('Retention (days)').fill('30');
    await settings.getByLabel(/Delete events older than the retention/).check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count(), PATIENT).toBe(1);
    expect(await (await server.request(`/v2/datasets/${DATASET}`)).json()).toMatchObject({ description: 'edge uploads', retentionDays: 30, useRetentionPeriod: true });
    await expectAccessible(page);
    consoleContext.expectClean();
  }, TEST_TIMEOUT);

  it('creates an ingest-only token whose curl and HEC snippets ingest as pasted, and cannot query', async () => {
    const page = await openDatasetPage('send');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByLabel('Token', { exact: true }).textContent())!;
    expect(token).toMatch(/^xaat-/);
    const curl = (await page.getByLabel('curl snippet').textContent())!;
    expect(curl).toContain(token);

    const sent = await sendAsCurl(curl);
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect(await sent.json()).toMatchObject({ ingested: 1, failed: 0 });
    expect(await storedCount()).toBe(GOOD.length + 1);

    // Splunk HEC's snippet works the same way, with its own scheme and answer.
    const hec = await sendAsCurl((await page.getByLabel('Splunk HTTP Event Collector snippet').textContent())!);
    expect(hec.status, await hec.clone().text()).toBe(200);
    expect(await hec.json()).toEqual({ text: 'Success', code: 0 });
    expect(await storedCount()).toBe(GOOD.length + SENT_BY_SNIPPETS);

    // The token may ingest and nothing else.
    expect((await countStored(token)).status).toBe(403);
    await expectAccessible(page);
    await screenshot(page, 'datasets-send-data');
    consoleContext.expectClean();
  }, TEST_TIMEOUT);

  it('deletes the dataset once its name is typed', async () => {
    const { page } = consoleContext;
    await page.goto(`${server.url}/app/${org}/datasets`);
    // The list counts the events: the upload's and the one sent with the snippet.
    const row = page.getByRole('table', { name: 'Datasets' }).getByRole('row').filter({ hasText: DATASET });
    await row.waitFor();
    const header = await page.getByRole('table', { name: 'Datasets' }).getByRole('columnheader').allTextContents();
    await expect.poll(async () => (await row.getByRole('cell').allTextContents())[header.indexOf('Events')], PATIENT).toMatch(new RegExp(`^${GOOD.length + SENT_BY_SNIPPETS} · newest `));
    // Trim: a bad duration shows the server's message; an hour keeps every event (all are newer).
    await page.getByRole('button', { name: `Trim ${DATASET}` }).click();
    const trim = page.getByRole('dialog', { name: `Trim dataset ${DATASET}` });
    await trim.getByLabel('Delete events older than').fill('soon');
    await trim.getByRole('button', { name: 'Trim' }).click();
    await expect.poll(() => trim.getByRole('alert').count(), PATIENT).toBe(1);
    await trim.getByLabel('Delete events older than').fill('1h');
    await trim.getByRole('button', { name: 'Trim' }).click();
    await expect.poll(() => trim.getByRole('status').textContent(), PATIENT).toBe('0 events deleted.');
    expect(await storedCount()).toBe(GOOD.length + SENT_BY_SNIPPETS);
    await trim.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: `Delete ${DATASET}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete dataset ${DATASET}` });
    const confirm = dialog.getByRole('button', { name: 'Delete dataset' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the dataset's name to confirm").fill(DATASET.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the dataset's name to confirm").fill(DATASET);
    await confirm.click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'deleted' }).textContent(), PATIENT).toBe(`Dataset ${DATASET} deleted.`);
    expect((await server.request(`/v2/datasets/${DATASET}`)).status).toBe(404);
    await expect.poll(() => page.getByRole('table', { name: 'Datasets' }).count(), PATIENT).toBe(0);
    consoleContext.expectClean();
  }, TEST_TIMEOUT);
});
