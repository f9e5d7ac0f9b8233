// The Monitors and Notifiers pages in a real browser against the real server, whose monitor
// clock the test moves: a webhook notifier is created in its form and its test notification
// reaches a local receiver marked as a test; a Slack notifier's masked secret survives an edit;
// from the Query page "Create monitor" carries the query into the editor, whose preview marks the
// runs that would have fired (checked against what the test counts from its own events); the
// saved monitor fires into the receiver, its status page shows the open alert and its history,
// the list shows its state, and the notifier's delivery log shows both deliveries.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { VirtualClock } from '../../helpers/monitors/virtual-clock';
import { chromiumAvailable, type ConsoleContext, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

const MINUTE = 60_000;
const DATASET = 'mon-web';
const clock = new VirtualClock();
let server: TestServer;
let receiver: Receiver;
let browser: Browser;
let session: ConsoleContext;
let client: ReturnType<typeof apiOf>;
let org: string;
const time = monitorTime(clock, () => (server ? [server] : []));

/** A whole minute in the past; the events sit in the minutes before it. */
const BASE = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE;
/** Events per minute, by minutes before BASE. */
const PER_MINUTE: Record<number, number> = { 40: 1, 33: 4, 32: 5, 26: 2, 20: 6, 14: 1 };
const THRESHOLD = 3;
const PERIOD = { start: new Date(BASE - 45 * MINUTE).toISOString(), end: new Date(BASE).toISOString() };
const APL = `['${DATASET}'] | summarize hits = count() by bin(_time, 1m)`;

/**
 * Where a threshold monitor (>= 3, every minute over the last minute) fires, counted from the
 * events: a run at minute end E reads the minute before it, and opens the alert when that
 * minute reaches the threshold and the minute before that did not.
 */
function expectedFirings(): string[] {
  const firings: string[] = [];
  for (let end = BASE - 45 * MINUTE; end <= BASE; end += MINUTE) {
    const count = (minutesBefore: number) => PER_MINUTE[minutesBefore] ?? 0;
    const minute = (BASE - (end - MINUTE)) / MINUTE;
    if (count(minute) >= THRESHOLD && count(minute + 1) < THRESHOLD) firings.push(new Date(end).toISOString());
  }
  return firings;
}

async function expectAccessible(page: Page) {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD }, { monitorClock: clock });
  client = apiOf(server, clock);
  await client.dataset(DATASET);
  const events = Object.entries(PER_MINUTE).flatMap(([minutesBefore, count]) =>
    Array.from({ length: count }, (_, i) => ({ _time: new Date(BASE - Number(minutesBefore) * MINUTE + 15_000 + i * 2_000).toISOString(), status: 500 })),
  );
  await client.ok(`/v1/datasets/${DATASET}/ingest`, 'POST', events);
  browser = await launchChromium();
  session = await openConsole(browser);
  await signIn(session.page, server.url);
  org = new URL(session.page.url()).pathname.split('/')[2]!;
}, 60_000);

afterAll(async () => {
  await session?.context.close();
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

describe.skipIf(!chromiumAvailable)('Monitors and Notifiers pages', () => {
  it('create a notifier, preview and save a monitor from a query, and see it fire', async () => {
    const { page } = session;

    // Notifiers: a webhook made in the form; its test notification reaches the receiver.
    await page.goto(`${server.url}/app/${org}/monitors/notifiers`);
    await page.getByRole('heading', { level: 1, name: 'Notifiers' }).waitFor();
    await page.getByRole('button', { name: 'New notifier' }).click();
    const form = page.getByRole('form', { name: 'New notifier' });
    await form.getByLabel('Name').fill('Receiver hook');
    await form.getByLabel('Channel').selectOption('webhook');
    await form.getByLabel('URL').fill('not a url');
    await form.getByRole('button', { name: 'Create notifier' }).click();
    // The server's own message for the bad URL.
    await expect.poll(() => form.getByRole('alert').textContent(), { timeout: 15_000 }).toContain('must be an http:// or https:// URL');
    await form.getByLabel('URL').fill(`${receiver.url}/hook`);
    await form.getByRole('button', { name: 'Create notifier' }).click();
    const hookRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Receiver hook' }) });
    await hookRow.waitFor();
    const [hook] = (await client.ok('/v2/notifiers')).filter((notifier: any) => notifier.name === 'Receiver hook');
    expect(hook.properties).toEqual({ webhook: { url: `${receiver.url}/hook` } });

    await hookRow.getByRole('button', { name: 'Send test notification' }).click();
    const [testRequest] = await receiver.waitFor(1, 45_000);
    expect(testRequest!.path).toBe('/hook');
    expect(testRequest!.json.event.monitorID).toBe('test');
    expect(testRequest!.json.event.title).toBe('Test notification for Receiver hook');

    // A Slack notifier shows its URL masked as the API masks it, and keeps it through an edit.
    const slack = await client.notifier({ name: 'Chat', properties: { slack: { slackUrl: `${receiver.url}/slack/T1/B2/secret-part` } } });
    await page.reload();
    const chatRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Chat' }) });
    expect(await chatRow.getByRole('cell').nth(1).textContent()).toBe(slack.properties.slack.slackUrl);
    expect(slack.properties.slack.slackUrl).not.toContain('secret-part');
    await chatRow.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit Chat' });
    expect(await edit.getByLabel('Incoming webhook URL').inputValue()).toBe(slack.properties.slack.slackUrl);
    await edit.getByLabel('Name').fill('Team chat');
    await edit.getByRole('button', { name: 'Save' }).click();
    const teamRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Team chat' }) });
    await teamRow.getByRole('button', { name: 'Send test notification' }).click();
    const [, slackTest] = await receiver.waitFor(2, 45_000);
    expect(slackTest!.path).toBe('/slack/T1/B2/secret-part');

    // From the Query page, "Create monitor" hands the query and its period to the editor.
    await page.goto(`${server.url}/app/${org}/query?${new URLSearchParams({ apl: APL, start: PERIOD.start, end: PERIOD.end })}`);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { level: 1, name: 'New monitor' }).waitFor();
    const handed = new URL(page.url()).searchParams;
    expect(handed.get('apl')).toBe(APL);
    expect(await page.getByRole('textbox', { name: 'APL query' }).textContent()).toBe(APL);

    await page.getByLabel('Name', { exact: true }).fill('Busy minutes');
    await page.getByLabel('Operator').selectOption('AboveOrEqual');
    await page.getByLabel('Every (minutes)').fill('1');
    await page.getByLabel('Over the last (minutes)').fill('1');
    // Without a threshold the server says what is missing.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toContain('threshold');
    await page.getByLabel('Threshold', { exact: true }).fill(String(THRESHOLD));
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const fired = page.getByRole('list', { name: 'Would have fired' });
    await fired.waitFor({ timeout: 15_000 });
    const marked = await fired.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('data-due-at')));
    expect(marked).toEqual(expectedFirings());
    expect(await page.getByRole('img', { name: /^Preview:/ }).getAttribute('aria-label')).toContain(`${expectedFirings().length} runs that would have fired`);
    await page.getByLabel('Receiver hook').check();
    await expectAccessible(page);
    await page.getByRole('region', { name: 'Preview' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'monitors-editor');

    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { level: 1, name: 'Busy minutes' }).waitFor();
    const monitorId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const saved = await client.ok(`/v2/monitors/${monitorId}`);
    expect(saved).toMatchObject({ type: 'Threshold', operator: 'AboveOrEqual', threshold: THRESHOLD, intervalMinutes: 1, rangeMinutes: 1, aplQuery: APL, notifierIds: [hook.id] });

    // Four events now cross the threshold: the next run fires into the receiver.
    await client.ingest(DATASET, [{ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 }]);
    const alert = await time.until(() => receiver.received.find((request) => request.json?.event?.monitorID === monitorId), 'the alert');
    expect(alert.json.action).toBe('Open');
    expect(alert.json.event.value).toBe(4);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Busy minutes' }).waitFor();
    const openAlerts = page.getByRole('table', { name: 'Open alerts' });
    await openAlerts.waitFor();
    expect(await openAlerts.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe('Busy minutes');
    const transitions = page.getByRole('table', { name: 'Alert transitions' });
    expect(await transitions.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')))).toEqual(['open']);
    await expectAccessible(page);
    await screenshot(page, 'monitors-status');

    // The list: its state and a strip whose latest run opened the alert.
    await page.getByRole('link', { name: 'All monitors' }).click();
    await page.getByRole('heading', { level: 1, name: 'Monitors' }).waitFor();
    const row = page.locator(`tr[data-monitor-id="${monitorId}"]`);
    await row.waitFor();
    expect(await row.locator('.monitor-state').textContent()).toBe('1 open alert');
    expect(await row.locator('.run-cell').last().getAttribute('data-state')).toBe('opened');
    await expectAccessible(page);
    await screenshot(page, 'monitors-list');

    // The notifier's log: the test and the alert, both delivered (recorded once the receiver answered).
    await eventually(async () => ((await client.deliveries(hook.id)).length === 2 ? true : undefined), 15_000, 'two deliveries');
    await page.getByRole('link', { name: 'Notifiers' }).click();
    await hookRow.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('table', { name: 'Delivery log of Receiver hook' });
    await log.waitFor();
    await expect
      .poll(() => log.locator('tbody tr').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-test')} ${r.getAttribute('data-outcome')}`)), { timeout: 15_000 })
      .toEqual(['false delivered', 'true delivered']);
    expect(await log.locator('tbody tr').first().textContent()).toContain(monitorId);
    await expectAccessible(page);
    await screenshot(page, 'notifiers');

    // Disable from the status page; the editor opens on the saved definition.
    await page.goto(`${server.url}/app/${org}/monitors/${monitorId}`);
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await client.ok(`/v2/monitors/${monitorId}`)).disabled).toBe(true);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit monitor' }).waitFor();
    expect(await page.getByLabel('Threshold', { exact: true }).inputValue()).toBe(String(THRESHOLD));
    expect(await page.getByLabel('Disabled').isChecked()).toBe(true);
    expect(await page.getByLabel('Receiver hook').isChecked()).toBe(true);
    session.expectClean();
  }, 60_000);
});
