// The LLM costs page in a real browser against the real server: GenAI calls of two models and two
// services posted over REST, one model's price changed by a catalog sync inside the range; the
// page's totals and per-model split equal genai_cost sums the test runs itself over REST, the
// price change is marked on the time axis, the what-if total equals the test's own figure from the
// other model's catalog prices, the top conversation is the one the test made most expensive,
// with its messages, and naming the cache read field shows what caching saved.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CATALOG, startTestServer, type TestServer } from '../../helpers/server';
import { chromiumAvailable, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

let server: TestServer;
let browser: Browser;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Two whole hours of calls, ending an hour before now. */
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
const START = new Date(T0 - HOUR).toISOString();
const END = new Date(T0 + 3 * HOUR).toISOString();
const OPUS = 'claude-3-opus-20240229';
const MINI = 'openai/gpt-4o-mini';
const WHAT_IF = 'gpt-4o';
const PRICE_CHANGE_AT = T0 + HOUR;
const EXPENSIVE = 'conv-big';
/** Cached input tokens of every fourth call (from the third on). */
const CACHED = 200;
const CACHE_FIELD = 'attributes.gen_ai.usage.cache_read_input_tokens';

interface Call {
  time: number;
  model: string;
  service: string;
  conversation: string;
  input: number;
  output: number;
}

/** Every 5 minutes a call, alternating models and services; one conversation gets far bigger calls. */
const CALLS: Call[] = Array.from({ length: 24 }, (_, i) => ({
  time: T0 + i * 5 * MINUTE + 7_000,
  model: i % 2 === 0 ? OPUS : MINI,
  service: i % 3 === 0 ? 'search' : 'chatbot',
  conversation: i % 8 === 0 ? EXPENSIVE : `conv-${i % 5}`,
  input: i % 8 === 0 ? 40_000 + i : 500 + 10 * i,
  output: i % 8 === 0 ? 4_000 : 100 + i,
}));

const eventOf = (call: Call, index: number) => ({
  _time: new Date(call.time).toISOString(),
  service: { name: call.service },
  attributes: {
    gen_ai: {
      operation: { name: 'chat' },
      request: { model: call.model },
      usage: { input_tokens: call.input, output_tokens: call.output, ...(index % 4 === 2 ? { cache_read_input_tokens: CACHED } : {}) },
      conversation: { id: call.conversation },
      input: { messages: JSON.stringify([{ role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] }, { role: 'user', parts: [{ type: 'text', content: `question number ${index}` }] }]) },
      output: { messages: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `answer number ${index}` }], finish_reason: 'stop' }]) },
    },
  },
});

const post = (pathAndQuery: string, body: unknown) => server.request(pathAndQuery, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function apl(query: string): Promise<Record<string, unknown>[]> {
  const response = await post('/v1/datasets/_apl?format=tabular', { apl: query, startTime: START, endTime: END });
  const answer = (await response.json()) as { tables: { fields: { name: string }[]; columns: unknown[][] }[] };
  expect(response.status, JSON.stringify(answer)).toBe(200);
  const table = answer.tables[0]!;
  return (table.columns[0] ?? []).map((_, row) => Object.fromEntries(table.fields.map((field, i) => [field.name, table.columns[i]![row]])));
}

const PRELUDE = "['genai'] | extend m = tostring(['attributes.gen_ai.request.model']), i = tolong(['attributes.gen_ai.usage.input_tokens']), o = tolong(['attributes.gen_ai.usage.output_tokens'])";

beforeAll(async () => {
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  expect((await post('/v2/datasets', { name: 'genai' })).status).toBe(200);
  const ingested = await post('/v1/datasets/genai/ingest', CALLS.map(eventOf));
  expect(ingested.status, await ingested.clone().text()).toBe(200);

  // Opus gets new prices an hour into the calls (a sync dated then).
  const catalog = JSON.parse(readFileSync(SMALL_CATALOG, 'utf8')) as Record<string, Record<string, unknown>>;
  catalog[OPUS] = { ...catalog[OPUS], input_cost_per_token: 0.00001, output_cost_per_token: 0.00005 };
  const changed = path.join(server.dataDir, 'catalog-changed.json');
  writeFileSync(changed, JSON.stringify(catalog));
  await server.app.services.catalog.sync({ kind: 'litellm', source: changed }, { now: () => new Date(PRICE_CHANGE_AT) });
  // The events' price table follows the sync in the background.
  const deadline = Date.now() + 20_000;
  const installed = async () => ((await apl(`print p = genai_get_pricing('${OPUS}')`))[0]?.p as { input_price_per_million?: number } | undefined)?.input_price_per_million === 10;
  while (!(await installed())) {
    if (Date.now() > deadline) throw new Error('the new prices never reached the events database');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(!chromiumAvailable)('LLM costs page', () => {
  it('shows totals, the split by model, price changes, the what-if and the top conversation', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await signIn(page, server.url);
    const org = new URL(page.url()).pathname.split('/')[2]!;
    await page.goto(`${server.url}/app/${org}/llm-costs?${new URLSearchParams({ dataset: 'genai', start: START, end: END, tz: 'UTC' })}`);
    await page.getByRole('heading', { level: 1, name: 'LLM costs' }).waitFor();

    // Totals against the test's own genai_cost sums (prices at each call's time).
    const [total] = await apl(`${PRELUDE} | summarize cost = sum(genai_cost(m, i, o)), calls = count()`);
    const totals = page.locator('dl[aria-label="Totals"]');
    await totals.waitFor({ timeout: 15_000 });
    const shownCost = Number(await totals.locator('div', { hasText: /^Cost/ }).locator('data').getAttribute('value'));
    expect(shownCost).toBeCloseTo(total!.cost as number, 10);
    expect(await totals.locator('div', { hasText: /^Calls/ }).locator('dd').textContent()).toBe(String(CALLS.length));

    // The split by model.
    const byModel = await apl(`${PRELUDE} | summarize cost = sum(genai_cost(m, i, o)) by m`);
    const table = page.getByRole('table', { name: 'Spend by model' });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, Number(tr.querySelector('data')!.getAttribute('value'))] as [string, number]));
    expect(rows.map(([name]) => name).sort()).toEqual(byModel.map((row) => row.m as string).sort());
    for (const [name, cost] of rows) expect(cost).toBeCloseTo(byModel.find((row) => row.m === name)!.cost as number, 10);
    const chart = page.getByRole('img', { name: /^Stacked cost per/ });
    expect(await chart.getAttribute('aria-label')).toContain('2 series');

    // The price change of Opus is marked on the time axis.
    const marker = page.getByRole('button', { name: `Annotation: Price change: ${OPUS}` }).first();
    await marker.waitFor({ timeout: 15_000 });
    await marker.focus();
    await expect.poll(() => page.getByRole('tooltip').filter({ hasText: 'per million tokens' }).first().isVisible()).toBe(true);

    // What-if on another model: every call's tokens at that model's catalog prices.
    const target = (await (await server.request(`/api/v1/models/${WHAT_IF}`, { auth: false })).json()) as { input_cost_per_token: number; output_cost_per_token: number };
    const repriced = CALLS.reduce((sum, call) => sum + call.input * target.input_cost_per_token + call.output * target.output_cost_per_token, 0);
    await page.getByRole('searchbox', { name: 'Search models' }).fill('gpt-4o');
    await page.getByRole('combobox', { name: 'Reprice on model' }).selectOption(WHAT_IF);
    const whatIf = page.locator('dl[aria-label="What-if totals"]');
    await whatIf.waitFor({ timeout: 15_000 });
    const values = await whatIf.locator('data').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('value'))));
    expect(values[0]).toBeCloseTo(total!.cost as number, 10);
    expect(values[1]).toBeCloseTo(repriced, 10);
    expect(new URL(page.url()).searchParams.get('whatIf')).toBe(WHAT_IF);

    // The most expensive conversation first, and its messages.
    const conversations = page.getByRole('table', { name: 'Most expensive conversations' });
    await conversations.waitFor({ timeout: 15_000 });
    expect(await conversations.locator('tbody tr').first().locator('th').textContent()).toBe(EXPENSIVE);
    await conversations.getByRole('button', { name: `Messages of ${EXPENSIVE}` }).click();
    const opened = page.getByRole('region', { name: `Conversation ${EXPENSIVE}` });
    const calls = CALLS.map((call, index) => ({ call, index })).filter(({ call }) => call.conversation === EXPENSIVE);
    await expect.poll(() => opened.getByRole('listitem').count(), { timeout: 15_000 }).toBe(calls.length);
    const texts = await opened.getByRole('listitem').allTextContents();
    calls.forEach(({ index }, position) => {
      expect(texts[position]).toContain(`question number ${index}`);
      expect(texts[position]).toContain(`answer number ${index}`);
    });

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.locator('.shell-main').evaluate((main) => main.scrollTo(0, 0));
    await screenshot(page, 'llm-costs');
    session.expectClean();
  }, 60_000);

  it('splits by service and narrows to one catalog model from a model link', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await signIn(page, server.url);
    const org = new URL(page.url()).pathname.split('/')[2]!;
    await page.goto(`${server.url}/app/${org}/llm-costs?${new URLSearchParams({ dataset: 'genai', start: START, end: END, by: 'service', model: 'gpt-4o-mini' })}`);
    const table = page.getByRole('table', { name: 'Spend by service' });
    await table.waitFor({ timeout: 15_000 });
    const expected = await apl(`${PRELUDE} | where m == '${MINI}' | summarize cost = sum(genai_cost(m, i, o)) by s = tostring(['service.name'])`);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, Number(tr.querySelector('data')!.getAttribute('value'))] as [string, number]));
    expect(rows.map(([name]) => name).sort()).toEqual(expected.map((row) => row.s as string).sort());
    for (const [name, cost] of rows) expect(cost).toBeCloseTo(expected.find((row) => row.s === name)!.cost as number, 10);
    // The spend chart's legend reads money: the cheap model's costs per bin (a ten-thousandth of a
    // dollar) are not rounded away to 0.
    const legend = page.getByRole('region', { name: 'Spend over time by service' }).getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Max' }) });
    const maxima = await legend.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1]!.textContent));
    expect(maxima).toHaveLength(expected.length);
    for (const max of maxima) expect(max).toMatch(/^\$0\.0*[1-9]\d*$/);
    await page.getByRole('button', { name: 'Show all models' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('model')).toBeNull();
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 15_000 }).toBe(2);

    // Naming the cache read field gives what caching saved.
    await page.getByText('Fields', { exact: true }).click();
    await page.getByLabel(/^Cache read tokens field/).fill(CACHE_FIELD);
    await page.getByRole('button', { name: 'Apply fields' }).click();
    const [saved] = await apl(`${PRELUDE}, c = tolong(['${CACHE_FIELD}']) | summarize saved = sum(genai_cost(m, i, o) - genai_cost(m, i, o, c))`);
    expect(saved!.saved as number).toBeGreaterThan(0);
    const savings = page.locator('dl[aria-label="Totals"] div', { hasText: /^Cache savings/ }).locator('data');
    await expect.poll(async () => Number(await savings.getAttribute('value', { timeout: 15_000 })), { timeout: 15_000 }).toBeCloseTo(saved!.saved as number, 10);
    expect(new URL(page.url()).searchParams.get('f.cache')).toBe(CACHE_FIELD);
    session.expectClean();
  }, 60_000);
});
