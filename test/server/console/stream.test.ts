// The Stream page in a real browser against the real server: a signed-in user picks a dataset and
// sees events posted over REST and OTLP arrive in "Live events", errors highlighted; a filter
// keeps only matching events; pausing counts new events without showing them until resume;
// an opened event shows its JSON; starred queries become dataset + filter (or are refused); a
// dataset the server refuses shows its message.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TailBuffer } from '../../../console/src/pages/stream/tail-buffer';
import { startTestServer, type TestServer } from '../../helpers/server';
import { chromiumAvailable, type ConsoleContext, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

const DATASET = 'stream-web';
const OTHER_DATASET = 'stream-other';

let server: TestServer;
let browser: Browser;
/** One signed-in browser context for the whole file; each test opens the page afresh. */
let consoleContext: ConsoleContext;
let org: string;

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const response = await server.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
}

const ingest = (events: Record<string, unknown>[], dataset = DATASET) => post(`/v1/datasets/${dataset}/ingest`, events);

/** One OTLP/JSON log record, sent the way an OpenTelemetry exporter does. */
function otlpLog(body: string, severityText: string, severityNumber: number) {
  return {
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
        scopeLogs: [
          {
            scope: { name: 'stream-test' },
            logRecords: [{ timeUnixNano: `${BigInt(Date.now()) * 1_000_000n}`, severityNumber, severityText, body: { stringValue: body } }],
          },
        ],
      },
    ],
  };
}

const liveEvents = (page: Page) => page.getByRole('log', { name: 'Live events' });
/** The connection status when it says the tail is live (and nothing else). */
const liveStatus = (page: Page) => page.getByRole('status').filter({ hasText: /^\s*Live\s*$/ });
const lineWith = (page: Page, text: string) => liveEvents(page).getByRole('button').filter({ hasText: text });

/** Opens the Stream page of the admin's organization on the given query string. */
async function openStream(search = ''): Promise<Page> {
  const { page } = consoleContext;
  await page.goto(`${server.url}/app/${org}/stream${search}`);
  await liveEvents(page).waitFor();
  return page;
}

/**
 * Waits until the tail is following: the subscription starts reading at the moment it is
 * registered, so events are posted until one shows, then the list is cleared.
 */
async function waitUntilTailing(page: Page, dataset = DATASET, marker: Record<string, unknown> = {}): Promise<void> {
  await expect.poll(() => liveStatus(page).count(), { timeout: 10_000 }).toBe(1);
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    await ingest([{ message: `warm-up ${attempt}`, ...marker }], dataset);
    try {
      await lineWith(page, 'warm-up').first().waitFor({ timeout: 1500 });
      break;
    } catch {
      // Not yet: post another.
    }
  }
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect.poll(() => liveEvents(page).getByRole('button').count()).toBe(0);
}

describe.skipIf(!chromiumAvailable)('Stream page', () => {
  beforeAll(async () => {
    // Two tails per holder at most: a page that left a tail open would soon be refused one.
    server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, LIVE_TAIL_COALESCE_MS: '150', LIVE_TAIL_MAX_PER_TOKEN: '2' });
    for (const name of [DATASET, OTHER_DATASET]) await post('/v2/datasets', { name });
    // Filters name `status`: the datasets must know the field before a tail can filter on it.
    for (const name of [DATASET, OTHER_DATASET]) await ingest([{ message: 'seed', status: 200 }], name);
    browser = await launchChromium();
    consoleContext = await openConsole(browser);
    await signIn(consoleContext.page, server.url);
    org = new URL(consoleContext.page.url()).pathname.split('/')[2]!;
  }, 60_000);

  // Each test answers for its own page only.
  beforeEach(() => {
    consoleContext.problems.length = 0;
    consoleContext.outside.length = 0;
  });

  afterAll(async () => {
    await consoleContext?.context.close();
    await browser?.close();
    await server?.close();
  });

  it('shows events from REST and OTLP as they arrive, errors in red, and opens one', async () => {
    const page = await openStream();
    await page.getByLabel('Dataset', { exact: true }).selectOption(DATASET);
    expect(new URL(page.url()).searchParams.get('dataset')).toBe(DATASET);
    await waitUntilTailing(page);

    await ingest([
      { message: 'database unreachable', level: 'error', service: 'api' },
      { message: 'slow response', level: 'warn', service: 'api' },
      { message: 'user signed in', level: 'info', service: 'auth' },
    ]);
    await post('/v1/logs', otlpLog('otlp payment declined', 'ERROR', 17), { 'x-axiom-dataset': DATASET });

    const failure = lineWith(page, 'database unreachable');
    await failure.waitFor({ timeout: 10_000 });
    await lineWith(page, 'otlp payment declined').waitFor({ timeout: 10_000 });
    await lineWith(page, 'user signed in').waitFor({ timeout: 10_000 });
    expect(await liveEvents(page).getByRole('button').count()).toBe(4);

    // Levels: the badge names it, and error lines are tinted red, warnings amber, others not.
    const tint = (text: string) => lineWith(page, text).evaluate((element) => getComputedStyle(element).backgroundColor);
    const rgb = (color: string) => color.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];
    expect(await failure.locator('.level-badge').textContent()).toBe('error');
    expect(await lineWith(page, 'otlp payment declined').locator('.level-badge').textContent()).toBe('error');
    expect(await lineWith(page, 'slow response').locator('.level-badge').textContent()).toBe('warn');
    const [red, green, blue] = rgb(await tint('database unreachable'));
    expect(red).toBeGreaterThan(green + 10);
    expect(red).toBeGreaterThan(blue + 10);
    const [amberRed, amberGreen, amberBlue] = rgb(await tint('slow response'));
    expect(amberRed).toBeGreaterThan(amberBlue + 10);
    expect(amberGreen).toBeGreaterThan(amberBlue);
    expect(await tint('user signed in')).not.toBe(await tint('database unreachable'));

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'stream');

    // Opening an event shows its whole JSON.
    await failure.click();
    const json = page.getByRole('region', { name: 'Event JSON' });
    await json.waitFor();
    const shown = JSON.parse((await json.textContent()) ?? '') as Record<string, unknown>;
    expect(shown).toMatchObject({ message: 'database unreachable', level: 'error', service: 'api' });
    expect(typeof shown._time).toBe('string');
    await screenshot(page, 'stream-event');

    // UTC shows the event's own time to the millisecond; wrapping lets long lines break.
    await page.getByRole('button', { name: 'UTC' }).click();
    const iso = new Date(String(shown._time)).toISOString();
    const utcText = `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
    expect(await failure.locator('time').textContent()).toBe(utcText);
    const whiteSpace = () => failure.locator('.stream-fields').evaluate((element) => getComputedStyle(element).whiteSpace);
    expect(await whiteSpace()).toBe('nowrap');
    await page.getByRole('button', { name: 'Wrap lines' }).click();
    expect(await whiteSpace()).toBe('pre-wrap');
    await consoleContext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(shown);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close event' }).click();
    await json.waitFor({ state: 'detached' });

    consoleContext.expectClean();
  }, 60_000);

  it('keeps only events matching the filter, from the URL too', async () => {
    const page = await openStream(`?dataset=${OTHER_DATASET}`);
    await page.getByLabel('Filter', { exact: true }).fill('status >= 500');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('filter')).toBe('status >= 500');
    await waitUntilTailing(page, OTHER_DATASET, { status: 599 });

    const events = [
      { uri: '/a', status: 200 },
      { uri: '/b', status: 503 },
      { uri: '/c', status: 404 },
      { uri: '/d', status: 500 },
      { uri: '/e', status: 302 },
    ];
    await ingest(events, OTHER_DATASET);
    const matching = events.filter((event) => event.status >= 500).map((event) => `uri=${event.uri}`);
    for (const text of matching) await lineWith(page, text).waitFor({ timeout: 10_000 });
    // The others were stored in the same request, so they would have come in the same read.
    const lines = await liveEvents(page).getByRole('button').allTextContents();
    expect(lines).toHaveLength(matching.length);
    for (const text of matching) expect(lines.some((line) => line.includes(text))).toBe(true);
    expect(await lineWith(page, 'uri=/b').locator('.level-badge').textContent()).toBe('error');

    // A link with the filter opens the same tail.
    await page.reload();
    await expect.poll(() => page.getByLabel('Filter', { exact: true }).textContent()).toBe('status >= 500');
    expect(await page.getByLabel('Dataset', { exact: true }).inputValue()).toBe(OTHER_DATASET);

    consoleContext.expectClean();
  }, 60_000);

  it('counts new events while paused and shows them on resume', async () => {
    const page = await openStream(`?dataset=${DATASET}`);
    await waitUntilTailing(page);

    await page.getByRole('button', { name: 'Pause' }).click();
    const held = ['held one', 'held two', 'held three'];
    await ingest(held.map((message) => ({ message })));
    await page.getByRole('status').filter({ hasText: `${held.length} new events` }).waitFor({ timeout: 10_000 });
    expect(await liveEvents(page).getByRole('button').count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Resume' }).click();
    for (const message of held) await lineWith(page, message).waitFor();
    expect(await liveEvents(page).getByRole('button').count()).toBe(held.length);
    expect(await page.getByText('new events').count()).toBe(0);

    consoleContext.expectClean();
  }, 60_000);

  it('follows a starred query as dataset + filter and refuses one that is not a filter', async () => {
    await post('/v2/apl-starred-queries', { name: 'Server errors', dataset: DATASET, query: { apl: `['${DATASET}'] | where status >= 500` } });
    await post('/v2/apl-starred-queries', { name: 'Errors per minute', dataset: DATASET, query: { apl: `['${DATASET}'] | summarize count() by bin(_time, 1m)` } });
    const page = await openStream();

    await page.getByLabel('Starred query').selectOption({ label: 'Errors per minute' });
    await page.getByRole('alert').filter({ hasText: 'cannot be followed live' }).waitFor();
    expect(new URL(page.url()).searchParams.get('dataset')).toBeNull();

    await page.getByLabel('Starred query').selectOption({ label: 'Server errors' });
    await expect.poll(() => new URL(page.url()).searchParams.get('filter')).toBe('status >= 500');
    expect(new URL(page.url()).searchParams.get('dataset')).toBe(DATASET);
    await expect.poll(() => page.getByLabel('Filter', { exact: true }).textContent()).toBe('status >= 500');
    expect(await page.getByRole('alert').count()).toBe(0);
    await liveStatus(page).waitFor({ timeout: 10_000 });

    // Leaving the page closes its tail: coming back again and again is never refused for
    // holding too many (two per holder here).
    for (let round = 0; round < 3; round++) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Query' }).click();
      await page.waitForURL(/\/query/);
      await page.goBack();
      await liveStatus(page).waitFor({ timeout: 20_000 });
    }
    expect(await page.getByText('Stopped:').count()).toBe(0);

    consoleContext.expectClean();
  }, 120_000);

  it('keeps retrying while the token holds as many tails as it may, and goes live once one closes', async () => {
    const page = await openStream(`?dataset=${DATASET}`);
    await liveStatus(page).waitFor({ timeout: 20_000 });
    const second = await consoleContext.context.newPage();
    await second.goto(`${server.url}/app/${org}/stream?dataset=${DATASET}`);
    // The earlier tests' tails may still be counted for a moment: this page then retries (1 s, 2 s,
    // 4 s, then every 5 s) until one is released.
    await liveStatus(second).waitFor({ timeout: 60_000 });

    const third = await consoleContext.context.newPage();
    try {
      await third.goto(`${server.url}/app/${org}/stream?dataset=${DATASET}`);
      await third.getByRole('status').filter({ hasText: /Reconnecting .*LIVE_TAIL_MAX_PER_TOKEN/ }).waitFor({ timeout: 20_000 });
      expect(await third.getByText('Stopped:').count()).toBe(0);
      await screenshot(third, 'stream-reconnecting');
      await second.close();
      await liveStatus(third).waitFor({ timeout: 60_000 });
    } finally {
      await third.close();
      if (!second.isClosed()) await second.close();
    }
    consoleContext.expectClean();
  }, 240_000);

  it("shows the server's refusal when the dataset cannot be followed", async () => {
    const page = await openStream('?dataset=no-such-dataset');
    const stopped = page.getByRole('status').filter({ hasText: 'Stopped:' });
    await stopped.waitFor({ timeout: 10_000 });
    expect(await stopped.textContent()).toContain('no-such-dataset');
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    consoleContext.expectClean();
  }, 60_000);
});

describe('what the Stream page keeps of a tail', () => {
  const event = (n: number, data: Record<string, unknown> = {}) => ({ time: new Date(1_700_000_000_000 + n).toISOString(), sysTime: '', rowId: String(n), data: { n, ...data } });
  const numbers = (buffer: TailBuffer) => buffer.view().lines.flatMap((line) => (line.kind === 'event' ? [line.event.data.n as number] : []));

  it('keeps the newest 2,000 events, with skipped markers where the server left some out', () => {
    const buffer = new TailBuffer();
    const all = Array.from({ length: 2600 }, (_, i) => i + 1);
    for (let start = 0; start < all.length; start += 100) buffer.add({ events: all.slice(start, start + 100).map((n) => event(n)), skipped: start === 2500 ? 7 : 0 });
    buffer.flush();
    expect(numbers(buffer)).toEqual(all.slice(-2000));
    const lines = buffer.view().lines;
    const marker = lines.findIndex((line) => line.kind === 'skipped');
    expect(lines[marker]).toMatchObject({ kind: 'skipped', count: 7 });
    expect(lines[marker + 1]).toMatchObject({ kind: 'event', event: { rowId: '2501' } });
    expect(buffer.view().receivedEvents).toBe(2600);
  });

  it('counts events while paused without showing them, and shows them on resume', () => {
    const buffer = new TailBuffer();
    buffer.add({ events: [event(1)], skipped: 0 });
    buffer.flush();
    buffer.setPaused(true);
    buffer.add({ events: [2, 3, 4].map((n) => event(n)), skipped: 0 });
    buffer.flush();
    expect(numbers(buffer)).toEqual([1]);
    expect(buffer.view().pendingEvents).toBe(3);
    buffer.setPaused(false);
    expect(numbers(buffer)).toEqual([1, 2, 3, 4]);
    expect(buffer.view().pendingEvents).toBe(0);
  });

  it('reads levels from the usual fields', () => {
    const levels = (data: Record<string, unknown>) => {
      const buffer = new TailBuffer();
      buffer.add({ events: [event(1, data)], skipped: 0 });
      buffer.flush();
      const line = buffer.view().lines[0]!;
      return line.kind === 'event' ? line.level : undefined;
    };
    expect(levels({ level: 'FATAL' })).toBe('error');
    expect(levels({ severity: 'critical' })).toBe('error');
    expect(levels({ severityText: 'Warning' })).toBe('warn');
    expect(levels({ 'log.level': 'error' })).toBe('error');
    expect(levels({ log: { level: 'warn' } })).toBe('warn');
    expect(levels({ severity_number: 18 })).toBe('error');
    expect(levels({ status: 503 })).toBe('error');
    expect(levels({ status: '404' })).toBe('warn');
    expect(levels({ status: 200 })).toBe('none');
    expect(levels({ message: 'error in the text only' })).toBe('none');
  });
});
