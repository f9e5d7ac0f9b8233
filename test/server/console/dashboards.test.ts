// The Dashboards pages in a real browser against the real server: a dashboard built from the
// Query page's "Add to dashboard" and the editor's "Add chart", a chart resized, saved, reloaded
// and read back over REST; every chart kind drawn from one query batch with values the test
// computes from the events it posted (a note's Markdown rendered with its script and handler
// stripped, filters bound into the queries, a comparison period, a drag that sets the time range,
// an annotation added from a chart); a save that meets a newer version from a second
// browser context, answered with "Overwrite" and with "Reload", unknown properties kept; and
// collapsible sections (added, renamed, moved, folded by default) whose folded charts' queries
// leave the batch until unfolded, with a gauge coloured by its thresholds, across save and reload.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let browser: Browser;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Ten whole minutes, a few hours back so "now" never cuts them. */
const T0 = Math.floor(Date.now() / (60 * MINUTE)) * 60 * MINUTE - 3 * 60 * MINUTE;
const MINUTES = 10;
const URIS = ['/home', '/cart', '/pay'];

interface WebEvent {
  _time: string;
  status: number;
  duration: number;
  uri: string;
}

/** Minute m holds m + 1 events with status 200 and two with 500 when m is a multiple of 3. */
const EVENTS: WebEvent[] = [];
for (let m = 0; m < MINUTES; m++) {
  const statuses = [...Array<number>(m + 1).fill(200), ...(m % 3 === 0 ? [500, 500] : [])];
  statuses.forEach((status, i) => {
    const n = EVENTS.length;
    EVENTS.push({ _time: new Date(T0 + m * MINUTE + (10 + i) * 1000).toISOString(), status, duration: (n * 37) % 300, uri: URIS[n % URIS.length]! });
  });
}
/** The same ten minutes a day earlier, for the comparison period: three events in minute 1. */
const EARLIER: WebEvent[] = [0, 1, 2].map((i) => ({ _time: new Date(T0 - DAY + MINUTE + (10 + i) * 1000).toISOString(), status: 200, duration: 5, uri: '/home' }));

const START = new Date(T0).toISOString();
const END = new Date(T0 + MINUTES * MINUTE).toISOString();
const countWhere = (test: (event: WebEvent) => boolean) => EVENTS.filter(test).length;

const json = { 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<Response> {
  const response = await server.request(path, { method: 'POST', headers: json, body: JSON.stringify(body) });
  expect(response.ok, await response.clone().text()).toBe(true);
  return response;
}

async function storedDashboard(uid: string): Promise<{ version: number; dashboard: Record<string, any> }> {
  const response = await server.request(`/v2/dashboards/uid/${uid}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { version: number; dashboard: Record<string, any> };
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  await post('/v2/datasets', { name: 'web' });
  await post('/v1/datasets/web/ingest', [...EVENTS, ...EARLIER]);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const orgOf = (page: Page) => new URL(page.url()).pathname.split('/')[2]!;

async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

/** Types a query into the chart form's APL editor. */
async function typeQuery(page: Page, apl: string): Promise<void> {
  await page.getByLabel('Chart query', { exact: true }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(apl);
}

describe.skipIf(!chromiumAvailable)('Dashboards pages', () => {
  it('builds a dashboard from two queries, resizes a chart, saves it and finds it as saved', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await signIn(page, server.url);
    const org = orgOf(page);

    await page.goto(`${server.url}/app/${org}/dashboards`);
    await page.getByRole('heading', { level: 1, name: 'Dashboards' }).waitFor();
    await page.getByText('No dashboards yet').waitFor();

    // The Query page hands its query over.
    const apl = "['web'] | summarize count() by bin(_time, 1m), status";
    await page.goto(`${server.url}/app/${org}/query?${new URLSearchParams({ apl, start: START, end: END, tz: 'UTC', view: 'table' })}`);
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add to dashboard' }).waitFor();
    await page.getByLabel('New dashboard name').fill('Web health');
    await page.getByLabel('Chart title').fill('Requests by status');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Add chart' }).click();
    await page.getByRole('heading', { level: 1, name: 'Web health' }).waitFor();
    expect(new URL(page.url()).searchParams.get('edit')).toBe('1');
    const uid = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

    // Two series (200 and 500) over the ten minutes.
    const timeChart = page.getByRole('img', { name: /^Time series chart of Requests by status/ });
    await expect.poll(() => timeChart.getAttribute('aria-label'), { timeout: 15_000 }).toContain(`2 series over ${MINUTES} time bins`);

    // A second chart from the editor.
    await page.getByRole('button', { name: 'Add chart' }).click();
    const form = page.getByRole('dialog', { name: 'Add chart' });
    await form.getByLabel('Title').fill('Server errors');
    await form.getByLabel('Type').selectOption({ label: 'Statistic' });
    await typeQuery(page, "['web'] | where status >= 500 | count");
    await form.getByLabel('Title').click();
    await form.getByRole('button', { name: 'Add chart' }).click();
    const errors = page.getByRole('region', { name: 'Server errors' });
    const failures = countWhere((event) => event.status >= 500);
    await expect.poll(() => errors.locator('output').textContent(), { timeout: 15_000 }).toBe(String(failures));
    // Its options: a unit.
    await page.getByRole('button', { name: 'Options of Server errors' }).click();
    const options = page.getByRole('dialog', { name: 'Options of Server errors' });
    await options.getByLabel('Unit').fill('errors');
    await options.getByRole('button', { name: 'Apply options' }).click();
    await expect.poll(() => errors.locator('output').textContent()).toBe(`${failures} errors`);

    // Resize the time series by its corner: three columns wider, two rows taller.
    const cell = page.locator('.react-grid-item', { has: page.getByRole('region', { name: 'Requests by status' }) });
    const before = (await cell.boundingBox())!;
    const gridWidth = (await page.locator('.dashboard-grid').boundingBox())!.width;
    const column = gridWidth / 12;
    await cell.hover();
    const handle = (await cell.locator('.react-resizable-handle').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + column * 1.5, handle.y + 60, { steps: 5 });
    await page.mouse.move(handle.x + column * 3, handle.y + 140, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await cell.boundingBox())!.width).toBeGreaterThan(before.width + column * 2);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Unsaved changes' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'dashboards-edit');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /Saved version 2/ }).waitFor();

    // Over REST: both charts, and the time series nine columns wide and seven rows high.
    const stored = await storedDashboard(uid);
    expect(stored.version).toBe(2);
    expect(stored.dashboard.name).toBe('Web health');
    expect(stored.dashboard.charts.map((chart: { name: string; type: string }) => [chart.name, chart.type])).toEqual([
      ['Requests by status', 'TimeSeries'],
      ['Server errors', 'Statistic'],
    ]);
    const timeSeriesId = stored.dashboard.charts[0].id;
    const item = stored.dashboard.layout.find((entry: { i: string }) => entry.i === timeSeriesId);
    expect(item.w).toBe(9);
    expect(item.h).toBe(7);
    expect(stored.dashboard.charts[0].query.apl).toBe(apl);
    expect(stored.dashboard.charts[1].options.unit).toBe('errors');
    expect(stored.dashboard.timeWindowStart).toBe(START);

    // Reloaded, the page draws the saved layout.
    await page.goto(`${server.url}/app/${org}/dashboards/${uid}`);
    const reloaded = page.locator('.react-grid-item', { has: page.getByRole('region', { name: 'Requests by status' }) });
    await reloaded.waitFor();
    const width = (await reloaded.boundingBox())!.width;
    const grid = (await page.locator('.dashboard-grid').boundingBox())!.width;
    expect(Math.abs(width - (grid * 9) / 12)).toBeLessThan(column);
    await expect.poll(() => page.getByRole('region', { name: 'Server errors' }).locator('output').textContent(), { timeout: 15_000 }).toBe(`${failures} errors`);

    await page.goto(`${server.url}/app/${org}/dashboards`);
    await page.getByRole('link', { name: 'Web health' }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Web health' }) });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Everyone');
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('2');
    await expectAccessible(page);
    await screenshot(page, 'dashboards-list');
    session.expectClean();
  }, 60_000);

  it('draws every chart kind with the numbers of the posted events', async () => {
    const note = '# Runbook\n\nPage **on-call** when errors rise.\n\n<script>window.__pwned = 1</script><img alt="pixel" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="window.__pwned = 2">';
    const charts = [
      { id: 'ts', type: 'TimeSeries', name: 'Requests', query: { apl: "['web'] | summarize count() by bin(_time, 1m), status" } },
      { id: 'stat', type: 'Statistic', name: 'Matching status', query: { apl: 'declare query_parameters(wanted:long = 200, page:string = "");\n[\'web\'] | where status == wanted and (page == "" or uri == page) | count' } },
      {
        id: 'filters',
        type: 'SmartFilter',
        name: 'Filters',
        filters: [
          { id: 'wanted', name: 'Status', options: ['200', '500'] },
          { id: 'page', name: 'Page', query: { apl: "declare query_parameters(wanted:long = 200);\n['web'] | where status == wanted | distinct uri | order by uri asc" } },
        ],
      },
      { id: 'table', type: 'Table', name: 'By page', query: { apl: "['web'] | summarize count() by uri | order by uri asc" } },
      { id: 'pie', type: 'Pie', name: 'Status share', query: { apl: "['web'] | summarize count() by status" } },
      { id: 'heat', type: 'Heatmap', name: 'Durations', query: { apl: "['web'] | summarize histogram(duration, 50) by bin(_time, 1m)" } },
      { id: 'logs', type: 'LogStream', name: 'Failures', query: { apl: "['web'] | where status == 500 | project _time, status, uri" } },
      { id: 'scatter', type: 'Scatter', name: 'Duration by status', query: { apl: "['web'] | project duration, code = status" } },
      { id: 'topk', type: 'TopK', name: 'Top pages', query: { apl: "['web'] | summarize hits = count() by uri" } },
      { id: 'note', type: 'Note', text: note },
      { id: 'monitors', type: 'MonitorList', name: 'Watched', selectedMonitors: ['mon_missing'], columns: ['name'] },
      { id: 'spacer', type: 'Spacer' },
    ];
    const layout = charts.map((chart, index) => ({ i: chart.id, x: (index % 2) * 6, y: Math.floor(index / 2) * 5, w: 6, h: 5 }));
    const dashboard = { name: 'Every kind', owner: 'X-AXIOM-EVERYONE', schemaVersion: 2, refreshTime: 300, timeWindowStart: START, timeWindowEnd: END, against: '-1d', charts, layout };
    await post('/v2/dashboards', { uid: 'every-kind', dashboard });

    const session = await openConsole(browser, { viewport: { width: 1400, height: 2400 } });
    const { page } = session;
    await signIn(page, server.url);
    await page.goto(`${server.url}/app/${orgOf(page)}/dashboards/every-kind`);
    await page.getByRole('heading', { level: 1, name: 'Every kind' }).waitFor();

    // Time series: 200 and 500 over ten bins, and the earlier day's one series dotted.
    const timeChart = page.getByRole('img', { name: /^Time series chart of Requests/ });
    await expect.poll(() => timeChart.getAttribute('aria-label'), { timeout: 15_000 }).toContain(`2 series over ${MINUTES} time bins, compared with 1 series`);
    const legend = page.getByRole('region', { name: 'Requests' }).getByRole('table');
    const row200 = legend.getByRole('row').filter({ has: page.getByRole('button', { name: '200', exact: true }) });
    expect(await row200.getByRole('cell').allTextContents()).toEqual(['1', String(MINUTES), String((MINUTES + 1) / 2), String(MINUTES)]);

    // Statistic with the filters' defaults (status 200, any page); then status 500, whose pages
    // the page filter offers (its options depend on the status), then one of those pages.
    const matching = page.getByRole('region', { name: 'Matching status' }).locator('output');
    await expect.poll(() => matching.textContent()).toBe(String(countWhere((event) => event.status === 200)));
    const filters = page.getByRole('region', { name: 'Filters' });
    await filters.getByLabel('Status').selectOption('500');
    await expect.poll(() => matching.textContent(), { timeout: 15_000 }).toBe(String(countWhere((event) => event.status === 500)));
    const failedPages = [...new Set(EVENTS.filter((event) => event.status === 500).map((event) => event.uri))].sort();
    await expect.poll(() => filters.getByLabel('Page').locator('option').allTextContents()).toEqual(['Any', ...failedPages]);
    await filters.getByLabel('Page').selectOption(failedPages[0]!);
    await expect.poll(() => matching.textContent(), { timeout: 15_000 }).toBe(String(countWhere((event) => event.status === 500 && event.uri === failedPages[0])));

    // Table: one row per page, sorted.
    const tableRows = await page.getByRole('region', { name: 'By page rows' }).getByRole('row').allTextContents();
    const expectedRows = [...URIS].sort().map((uri) => `${uri}${countWhere((event) => event.uri === uri)}`);
    expect(tableRows.slice(1)).toEqual(expectedRows);

    // Pie: value and share per status.
    const pieRows = await page.getByRole('table', { name: 'Status share values' }).getByRole('row').allTextContents();
    const share = (count: number) => `${Math.round((count / EVENTS.length) * 1000) / 10}%`;
    const ok = countWhere((event) => event.status === 200);
    const failed = countWhere((event) => event.status === 500);
    expect(pieRows.map((text) => text.trim())).toEqual([`200${ok}${share(ok)}`, `500${failed}${share(failed)}`]);

    // Heatmap, log stream, scatter, top pages.
    const buckets = new Set(EVENTS.map((event) => Math.floor(event.duration / 50) * 50)).size;
    expect(await page.getByRole('img', { name: /^Heatmap of Durations/ }).getAttribute('aria-label')).toContain(`${MINUTES} time bins by ${buckets} buckets`);
    await page.getByRole('list', { name: `Failures: ${failed} events` }).waitFor();
    expect(await page.getByRole('img', { name: /^Scatter plot/ }).getAttribute('aria-label')).toContain(`${EVENTS.length} points`);
    const top = [...URIS].map((uri) => ({ uri, hits: countWhere((event) => event.uri === uri) })).sort((a, b) => b.hits - a.hits);
    const topItems = await page.getByRole('list', { name: 'Top pages' }).getByRole('listitem').allTextContents();
    expect(topItems).toEqual(top.map((entry) => `${entry.uri}${entry.hits}`));

    // The note: Markdown rendered, script and handler gone.
    const noteRegion = page.getByRole('region', { name: 'Note (Markdown)' });
    await noteRegion.getByRole('heading', { name: 'Runbook' }).waitFor();
    expect(await noteRegion.locator('strong').textContent()).toBe('on-call');
    expect(await noteRegion.locator('script').count()).toBe(0);
    expect(await noteRegion.locator('img').getAttribute('onerror')).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    await page.getByRole('region', { name: 'Watched' }).getByText('Monitor mon_missing (not found)').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'dashboards-view');

    // An annotation at a time picked on the time series.
    const plot = (await timeChart.locator('.u-over').boundingBox())!;
    const xOf = (minutes: number) => plot.x + (minutes / MINUTES) * plot.width;
    await page.getByRole('region', { name: 'Requests' }).getByRole('button', { name: 'Add annotation' }).click();
    await page.mouse.click(xOf(4), plot.y + plot.height / 2);
    const annotationForm = page.getByRole('form', { name: /^New annotation on web/ });
    await annotationForm.getByLabel('Title').fill('Deploy 7');
    await annotationForm.getByRole('button', { name: 'Save annotation' }).click();
    await page.getByRole('region', { name: 'Requests' }).getByRole('button', { name: 'Annotation: Deploy 7' }).waitFor({ timeout: 15_000 });
    const annotations = (await (await server.request(`/v2/annotations?datasets=web&start=${START}&end=${END}`)).json()) as { title: string; time: string }[];
    expect(annotations.map((annotation) => annotation.title)).toEqual(['Deploy 7']);
    expect(Math.abs(Date.parse(annotations[0]!.time) - (T0 + 4 * MINUTE))).toBeLessThan(MINUTE);

    // Dragging over the time series sets the dashboard's range: minutes 3, 4 and 5 remain.
    const y = plot.y + plot.height / 2;
    await page.mouse.move(xOf(2.5), y);
    await page.mouse.down();
    await page.mouse.move(xOf(4), y, { steps: 4 });
    await page.mouse.move(xOf(5.5), y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => timeChart.getAttribute('aria-label'), { timeout: 15_000 }).toContain('2 series over 3 time bins');
    session.expectClean();
  }, 60_000);

  it('shows a save conflict with a second browser, and overwrites or reloads', async () => {
    const dashboard = {
      name: 'Shared',
      owner: 'X-AXIOM-EVERYONE',
      schemaVersion: 2,
      refreshTime: 300,
      timeWindowStart: START,
      timeWindowEnd: END,
      theme: { accent: 'green' },
      charts: [{ id: 'n1', type: 'Note', text: 'Hello', 'x-pinned': true }],
      layout: [{ i: 'n1', x: 0, y: 0, w: 4, h: 3, 'x-locked': false }],
    };
    await post('/v2/dashboards', { uid: 'shared', dashboard });
    const first = await openConsole(browser);
    const second = await openConsole(browser);
    await signIn(first.page, server.url);
    await signIn(second.page, server.url);
    const open = async (page: Page) => {
      await page.goto(`${server.url}/app/${orgOf(page)}/dashboards/shared?edit=1`);
      await page.getByRole('heading', { level: 1, name: 'Shared' }).waitFor();
    };
    const rename = async (page: Page, name: string) => {
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
    };
    await open(first.page);
    await open(second.page);

    await rename(second.page, 'Renamed by the second');
    await second.page.getByRole('status').filter({ hasText: 'Saved version 2' }).waitFor();
    await rename(first.page, 'Renamed by the first');
    const conflict = first.page.getByRole('alertdialog', { name: 'Someone else saved this dashboard' });
    await conflict.waitFor();
    expect(await conflict.textContent()).toContain('now at version 2');
    await expectAccessible(first.page);
    await conflict.getByRole('button', { name: 'Overwrite' }).click();
    await first.page.getByRole('status').filter({ hasText: 'Saved version 3' }).waitFor();
    let stored = await storedDashboard('shared');
    expect(stored.dashboard.name).toBe('Renamed by the first');
    // What this console does not know survived the editor.
    expect(stored.dashboard.theme).toEqual({ accent: 'green' });
    expect(stored.dashboard.charts[0]['x-pinned']).toBe(true);
    expect(stored.dashboard.layout[0]['x-locked']).toBe(false);

    // The second one, still on version 2, meets the conflict and reloads the first one's version.
    await rename(second.page, 'Second again');
    const secondConflict = second.page.getByRole('alertdialog', { name: 'Someone else saved this dashboard' });
    await secondConflict.getByRole('button', { name: 'Reload' }).click();
    await second.page.getByRole('heading', { level: 1, name: 'Renamed by the first' }).waitFor();
    stored = await storedDashboard('shared');
    expect(stored.version).toBe(3);

    // The JSON editor applies the whole document; unknown properties ride along.
    await second.page.getByRole('button', { name: 'Edit JSON' }).click();
    const jsonDialog = second.page.getByRole('dialog', { name: 'Dashboard JSON' });
    await jsonDialog.getByLabel('Dashboard JSON').waitFor();
    await jsonDialog.getByRole('button', { name: 'Apply JSON' }).click();
    await second.page.getByRole('button', { name: 'Save', exact: true }).click();
    await second.page.getByRole('status').filter({ hasText: 'Saved version 4' }).waitFor();
    stored = await storedDashboard('shared');
    expect(stored.dashboard.theme).toEqual({ accent: 'green' });
    first.expectClean();
    second.expectClean();
  }, 60_000);

  it('folds sections, leaving their charts out of the query batch, and draws a gauge', async () => {
    const charts = [
      { id: 'total', type: 'Statistic', name: 'All requests', query: { apl: "['web'] | count" } },
      { id: 'sec-traffic', type: 'Section', name: 'Traffic' },
      { id: 'by-page', type: 'Table', name: 'By page', query: { apl: "['web'] | summarize count() by uri | order by uri asc" } },
      { id: 'sec-errors', type: 'Section', name: 'Errors' },
      { id: 'errs', type: 'Statistic', name: 'Server errors', query: { apl: "['web'] | where status >= 500 | count" } },
    ];
    const layout = [
      { i: 'total', x: 0, y: 0, w: 4, h: 3 },
      { i: 'sec-traffic', x: 0, y: 3, w: 12, h: 1 },
      { i: 'by-page', x: 0, y: 4, w: 6, h: 4 },
      { i: 'sec-errors', x: 0, y: 8, w: 12, h: 1 },
      { i: 'errs', x: 0, y: 9, w: 4, h: 3 },
    ];
    const dashboard = { name: 'Folds', owner: 'X-AXIOM-EVERYONE', schemaVersion: 2, refreshTime: 300, timeWindowStart: START, timeWindowEnd: END, charts, layout };
    await post('/v2/dashboards', { uid: 'folds', dashboard });

    const session = await openConsole(browser, { viewport: { width: 1400, height: 1600 } });
    const { page } = session;
    await signIn(page, server.url);
    const org = orgOf(page);
    /** The chart ids of the next query batch the page sends. */
    const nextBatch = async (action: () => Promise<unknown>): Promise<string[]> => {
      const request = page.waitForRequest((candidate) => new URL(candidate.url()).pathname === '/v1/query/batch');
      await action();
      const entries = JSON.parse((await request).postData() ?? '[]') as { queryId: string }[];
      return entries.map((entry) => entry.queryId).sort();
    };
    const chartShown = (id: string) => page.locator(`.dashboard-chart[data-chart-id="${id}"]`).count();

    await page.goto(`${server.url}/app/${org}/dashboards/folds?edit=1`);
    await page.getByRole('heading', { level: 1, name: 'Folds' }).waitFor();

    // A new section, renamed, with a gauge of the mean duration under it.
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByLabel('Name of section New section').fill('Latency');
    await page.getByRole('button', { name: 'Add chart' }).click();
    const form = page.getByRole('dialog', { name: 'Add chart' });
    await form.getByLabel('Title').fill('Mean duration');
    await form.getByLabel('Type').selectOption({ label: 'Gauge' });
    await typeQuery(page, "['web'] | summarize avg(duration)");
    await form.getByLabel('Title').click();
    await form.getByLabel('Unit').fill('ms');
    await form.getByLabel('Gauge minimum').fill('0');
    await form.getByLabel('Gauge maximum').fill('300');
    await form.getByLabel('Thresholds').fill('100, 200');
    await form.getByRole('button', { name: 'Add chart' }).click();
    // Latency moves above Errors; Errors starts folded for every viewer.
    await page.getByRole('button', { name: 'Move up, section Latency' }).click();
    await page.getByRole('group', { name: 'Section Errors' }).getByLabel('Folded by default').check();
    await expectAccessible(page);
    await screenshot(page, 'dashboards-sections-edit');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved version 2' }).waitFor();

    const stored = await storedDashboard('folds');
    const storedCharts = stored.dashboard.charts as { id: string; type: string; name?: string; collapsedByDefault?: boolean; options?: Record<string, unknown> }[];
    const rowOf = (id: string) => (stored.dashboard.layout as { i: string; y: number }[]).find((item) => item.i === id)!.y;
    const latency = storedCharts.find((chart) => chart.type === 'Section' && chart.name === 'Latency')!;
    const gauge = storedCharts.find((chart) => chart.type === 'Gauge')!;
    expect(gauge.options).toMatchObject({ unit: 'ms', min: 0, max: 300, thresholds: [{ value: 100 }, { value: 200 }] });
    expect(storedCharts.find((chart) => chart.id === 'sec-errors')!.collapsedByDefault).toBe(true);
    expect(rowOf('by-page')).toBeLessThan(rowOf(latency.id));
    expect(rowOf(latency.id)).toBeLessThan(rowOf(gauge.id));
    expect(rowOf(gauge.id)).toBeLessThan(rowOf('sec-errors'));

    // Viewing: Errors starts folded, so its statistic is neither drawn nor queried.
    let batch = await nextBatch(() => page.getByRole('button', { name: 'Done' }).click());
    expect(batch).toEqual(['by-page', gauge.id, 'total'].sort());
    expect(await chartShown('errs')).toBe(0);
    expect(await page.getByRole('group', { name: 'Section Errors' }).getByRole('button', { name: 'Errors' }).getAttribute('aria-expanded')).toBe('false');

    // The gauge: the mean duration of the posted events, in the band its thresholds give it.
    const mean = EVENTS.reduce((sum, event) => sum + event.duration, 0) / EVENTS.length;
    const band = [100, 200].filter((threshold) => mean >= threshold).length;
    const meter = page.getByRole('meter', { name: /^Mean duration/ });
    await expect.poll(() => meter.getAttribute('aria-valuenow'), { timeout: 15_000 }).not.toBeNull();
    expect(Number(await meter.getAttribute('aria-valuenow'))).toBeCloseTo(mean, 6);
    expect(await meter.getAttribute('aria-valuemin')).toBe('0');
    expect(await meter.getAttribute('aria-valuemax')).toBe('300');
    expect(await meter.getAttribute('data-band')).toBe(String(band));
    const bandColour = await meter.locator(`path[data-band="${band}"]`).getAttribute('stroke');
    expect(await meter.locator('text.dashboard-gauge-value').getAttribute('fill')).toBe(bandColour);
    expect(await meter.locator('path').count()).toBe(3);

    // Folding Traffic drops its table from the page and the batch; unfolding Errors brings its statistic back.
    batch = await nextBatch(() => page.getByRole('button', { name: 'Traffic' }).click());
    expect(batch).toEqual([gauge.id, 'total'].sort());
    expect(await chartShown('by-page')).toBe(0);
    batch = await nextBatch(() => page.getByRole('button', { name: 'Errors' }).click());
    expect(batch).toEqual([gauge.id, 'errs', 'total'].sort());
    const failures = countWhere((event) => event.status >= 500);
    await expect.poll(() => page.getByRole('region', { name: 'Server errors' }).locator('output').textContent(), { timeout: 15_000 }).toBe(String(failures));
    await expectAccessible(page);
    await screenshot(page, 'dashboards-sections');

    // Reloaded, this viewer's folds hold (Traffic folded, Errors open) and the gauge is as saved.
    batch = await nextBatch(() => page.reload());
    expect(batch).toEqual([gauge.id, 'errs', 'total'].sort());
    await page.getByRole('meter', { name: /^Mean duration/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('meter', { name: /^Mean duration/ }).getAttribute('data-band')).toBe(String(band));
    expect(await chartShown('by-page')).toBe(0);
    batch = await nextBatch(() => page.getByRole('button', { name: 'Traffic' }).click());
    expect(batch).toEqual(['by-page', gauge.id, 'errs', 'total'].sort());
    const pageRows = page.getByRole('region', { name: 'By page rows' }).getByRole('row');
    const expectedPages = [...URIS].sort().map((uri) => `${uri}${countWhere((event) => event.uri === uri)}`);
    await expect.poll(async () => (await pageRows.allTextContents()).slice(1), { timeout: 15_000 }).toEqual(expectedPages);
    session.expectClean();
  }, 60_000);
});
