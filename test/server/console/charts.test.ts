// The Query page's charts and field facets in a real browser against the real server: a
// signed-in user charts `count() by bin(_time, 1m), status` over events posted over REST, reads
// the series in the legend, hides one, finds an annotation's marker, drags over the chart to zoom (the URL's range follows and
// the query reruns); a histogram() draws a heatmap; raw results get the count strip; a field's
// facet lists its top values with counts (null included) and "filter for" narrows the query.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { chromiumAvailable, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

let server: TestServer;
let browser: Browser;

const MINUTE = 60_000;
/** Ten whole minutes, starting a few hours back so "now" never cuts them. */
const T0 = Math.floor(Date.now() / (60 * MINUTE)) * 60 * MINUTE - 3 * 60 * MINUTE;
const MINUTES = 10;

interface WebEvent {
  _time: string;
  status: number;
  duration: number;
  region?: string;
}

/**
 * Minute m holds m + 1 events with status 200, two with 500 when m is a multiple of 3, and one
 * 404 in minute 5, each at 10 s + i s into its minute. Only the 500s carry a region.
 */
const EVENTS: WebEvent[] = [];
for (let m = 0; m < MINUTES; m++) {
  const statuses = [...Array<number>(m + 1).fill(200), ...(m % 3 === 0 ? [500, 500] : []), ...(m === 5 ? [404] : [])];
  statuses.forEach((status, i) => {
    const n = EVENTS.length;
    EVENTS.push({ _time: new Date(T0 + m * MINUTE + (10 + i) * 1000).toISOString(), status, duration: (n * 37) % 300, ...(status === 500 ? { region: 'eu' } : {}) });
  });
}
const countWhere = (test: (event: WebEvent) => boolean) => EVENTS.filter(test).length;

const START = new Date(T0).toISOString();
const END = new Date(T0 + MINUTES * MINUTE).toISOString();

beforeAll(async () => {
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  const created = await server.request('/v2/datasets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'web' }) });
  expect(created.status, await created.clone().text()).toBe(200);
  const ingested = await server.request('/v1/datasets/web/ingest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(EVENTS) });
  expect(ingested.status, await ingested.clone().text()).toBe(200);
  const annotation = { type: 'deploy', datasets: ['web'], title: 'Deploy v2', description: 'Rolled out to every region', time: new Date(T0 + 4 * MINUTE).toISOString() };
  const annotated = await server.request('/v2/annotations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(annotation) });
  expect(annotated.status, await annotated.clone().text()).toBe(201);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The query editor's text (a textarea or CodeMirror's content element). */
const queryText = async (page: Page) => {
  const editor = page.getByLabel('Query', { exact: true });
  return (await editor.evaluate((node) => node instanceof HTMLTextAreaElement)) ? editor.inputValue() : ((await editor.textContent()) ?? '');
};
const status = (page: Page) => page.getByRole('status').filter({ hasText: /rows? in|Running|cancelled/ });

async function openQuery(page: Page, apl: string, range = { start: START, end: END }): Promise<void> {
  const org = new URL(page.url()).pathname.split('/')[2]!;
  const search = new URLSearchParams({ apl, start: range.start, end: range.end, tz: 'UTC', view: 'table' });
  await page.goto(`${server.url}/app/${org}/query?${search}`);
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

describe.skipIf(!chromiumAvailable)('Query page charts and facets', () => {
  it('charts series by group, toggles them, zooms by dragging, and draws a heatmap', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await signIn(page, server.url);
    await openQuery(page, "['web'] | summarize count() by bin(_time, 1m), status");

    const chart = page.getByRole('img', { name: /^Time series chart/ });
    await chart.waitFor({ timeout: 15_000 });
    // Groups 200, 404 and 500, over the ten minutes.
    expect(await chart.getAttribute('aria-label')).toContain(`3 series over ${MINUTES} time bins`);
    const legend = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Avg' }) });
    const toggles = legend.getByRole('button');
    expect((await toggles.allTextContents()).sort()).toEqual(['200', '404', '500']);
    // The 200 series: m + 1 per minute, so min 1, max 10, last 10.
    const row200 = legend.getByRole('row').filter({ has: page.getByRole('button', { name: '200', exact: true }) });
    expect(await row200.getByRole('cell').allTextContents()).toEqual(['1', String(MINUTES), String((MINUTES + 1) / 2), String(MINUTES)]);

    const toggle404 = legend.getByRole('button', { name: '404', exact: true });
    expect(await toggle404.getAttribute('aria-pressed')).toBe('true');
    await toggle404.click();
    expect(await toggle404.getAttribute('aria-pressed')).toBe('false');

    // The annotation inside the range is a focusable marker whose title shows on focus.
    const marker = page.getByRole('button', { name: 'Annotation: Deploy v2' });
    await marker.focus();
    await expect.poll(() => page.getByRole('tooltip').filter({ hasText: 'Rolled out to every region' }).isVisible()).toBe(true);

    await expectAccessible(page);
    await screenshot(page, 'chart');

    // Drag from 2:30 to 5:30 into the range: the plot spans the ten minutes exactly.
    const plot = (await chart.locator('.u-over').boundingBox())!;
    const xOf = (minutes: number) => plot.x + (minutes / MINUTES) * plot.width;
    const y = plot.y + plot.height / 2;
    await page.mouse.move(xOf(2.5), y);
    await page.mouse.down();
    await page.mouse.move(xOf(4), y, { steps: 4 });
    await page.mouse.move(xOf(5.5), y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('start')).not.toBe(START);
    const zoomed = new URL(page.url()).searchParams;
    expect(Math.abs(Date.parse(zoomed.get('start')!) - (T0 + 2.5 * MINUTE))).toBeLessThan(MINUTE);
    expect(Math.abs(Date.parse(zoomed.get('end')!) - (T0 + 5.5 * MINUTE))).toBeLessThan(MINUTE);
    // The query reran over the new range: events of minutes 3, 4 and 5 (their seconds 10+ are inside).
    await expect.poll(() => page.getByRole('img', { name: /^Time series chart/ }).getAttribute('aria-label'), { timeout: 15_000 }).toContain('over 3 time bins');

    await openQuery(page, "['web'] | summarize histogram(duration, 50) by bin(_time, 1m)");
    const heatmap = page.getByRole('img', { name: /^Heatmap of histogram_duration/ });
    await heatmap.waitFor({ timeout: 15_000 });
    const buckets = new Set(EVENTS.map((event) => Math.floor(event.duration / 50) * 50)).size;
    expect(await heatmap.getAttribute('aria-label')).toContain(`${MINUTES} time bins by ${buckets} buckets of width 50`);
    await expectAccessible(page);
    session.expectClean();
  }, 60_000);

  it('shows the count strip above raw results and facets that filter the query', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await signIn(page, server.url);
    await openQuery(page, "['web'] | where duration >= 0 | take 1000");
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(new RegExp(`^${EVENTS.length} rows in `));

    const strip = page.getByRole('region', { name: 'Event count over time' });
    await strip.waitFor({ timeout: 15_000 });
    expect(await strip.getByRole('img').getAttribute('aria-label')).toContain(`${EVENTS.length} events`);

    const facets = page.getByRole('region', { name: 'Field values' });
    await facets.getByRole('button', { name: /^status/ }).click();
    const statusValues = facets.getByRole('list', { name: 'Top values of status' });
    await statusValues.waitFor({ timeout: 15_000 });
    const expected = [200, 500, 404].map((value) => [String(value), countWhere((event) => event.status === value).toLocaleString()]);
    const shown = await statusValues.getByRole('listitem').evaluateAll((items) =>
      items.map((item) => [item.querySelector('.facet-value-name')!.textContent, item.querySelector('.facet-value-count')!.textContent]),
    );
    expect(shown).toEqual(expected);

    await facets.getByRole('button', { name: /^region/ }).click();
    const regionValues = facets.getByRole('list', { name: 'Top values of region' });
    await regionValues.waitFor({ timeout: 15_000 });
    expect(await regionValues.getByRole('listitem').allTextContents()).toEqual([`(null)${countWhere((event) => !event.region)}`, `eu${countWhere((event) => event.region === 'eu')}`]);
    await expectAccessible(page);

    // Filter for the null region (isnull), then for status 200.
    await regionValues.getByRole('button', { name: 'Filter for value (null)' }).click();
    await expect.poll(() => queryText(page)).toMatch(/where isnull\(region\)/);
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(new RegExp(`^${countWhere((event) => !event.region)} rows in `));
    await expect.poll(() => statusValues.getByRole('listitem').count(), { timeout: 15_000 }).toBe(2);
    await statusValues.getByRole('button', { name: 'Filter for value 200' }).click();
    await expect.poll(() => queryText(page)).toMatch(/where status == 200/);
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(new RegExp(`^${countWhere((event) => event.status === 200 && !event.region)} rows in `));

    // An aggregating query has no count strip.
    await openQuery(page, "['web'] | summarize count() by status");
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(/^3 rows in /);
    expect(await page.getByRole('region', { name: 'Event count over time' }).count()).toBe(0);
    session.expectClean();
  }, 60_000);
});
