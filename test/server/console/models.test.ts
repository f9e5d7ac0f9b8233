// The Models pages in a real browser against the real server's catalog: the list filtered by a
// provider and a capability equals the catalog API's answer to the same filter; a price filter and
// a sort narrow and order it as the API's figures say; two models compared side by side; a model's
// page shows its prices as the catalog API gives them, its price history and the link to its usage.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { chromiumAvailable, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

let server: TestServer;
let browser: Browser;

interface ApiModel {
  model_id: string;
  provider_id: string;
  input_cost_per_million: number | null;
  output_cost_per_million: number | null;
  cache_read_cost_per_million: number | null;
  max_input_tokens: number | null;
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function catalog(query: string): Promise<ApiModel[]> {
  const response = await server.request(`/api/v1/models?fill-with-zeros=false${query ? `&${query}` : ''}`, { auth: false });
  expect(response.status).toBe(200);
  return (await response.json()) as ApiModel[];
}

/** The model ids the list shows, in order. */
const shownIds = (page: Page) => page.getByRole('table', { name: 'Models' }).locator('tbody tr th a').allTextContents();
/** "$1,234.50" → 1234.5; an en dash → null. */
const amount = (text: string | null) => (text === null || text.trim() === '–' ? null : Number(text.replace(/[$,]/g, '')));

async function openModels(page: Page, search = ''): Promise<string> {
  await signIn(page, server.url);
  const org = new URL(page.url()).pathname.split('/')[2]!;
  await page.goto(`${server.url}/app/${org}/models${search}`);
  await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
  return org;
}

describe.skipIf(!chromiumAvailable)('Models pages', () => {
  it('filters by provider and capability as the catalog API does, by price, and sorts', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await openModels(page);
    const everything = await catalog('');
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toEqual(everything.slice(0, 50).map((model) => model.model_id));

    await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption('openai');
    // The box follows the address, which the router updates in a transition: click, then wait for it.
    const vision = page.getByRole('checkbox', { name: 'vision' });
    await vision.click();
    await expect.poll(() => vision.isChecked(), { timeout: 15_000 }).toBe(true);
    const openaiVision = await catalog('providers=openai&capability=vision');
    expect(openaiVision.length).toBeGreaterThan(0);
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toEqual(openaiVision.map((model) => model.model_id));
    expect(new URL(page.url()).searchParams.get('provider')).toBe('openai');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'models-list');

    // Back to every provider: at most $1 per million input tokens, cheapest output first.
    await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption('');
    await vision.click();
    await expect.poll(() => vision.isChecked(), { timeout: 15_000 }).toBe(false);
    await page.getByLabel('Max input price ($/M tokens)').fill('1');
    await page.getByRole('combobox', { name: 'Sort by', exact: true }).selectOption('output-price');
    const cheap = everything.filter((model) => model.input_cost_per_million !== null && model.input_cost_per_million <= 1);
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toHaveLength(cheap.length);
    const ids = await shownIds(page);
    expect([...ids].sort()).toEqual(cheap.map((model) => model.model_id).sort());
    const outputs = ids.map((id) => cheap.find((model) => model.model_id === id)!.output_cost_per_million ?? Infinity);
    expect(outputs).toEqual([...outputs].sort((a, b) => a - b));
    session.expectClean();
  }, 60_000);

  it('compares two models side by side', async () => {
    const session = await openConsole(browser);
    const { page } = session;
    await openModels(page, '?provider=anthropic');
    const anthropic = await catalog('providers=anthropic');
    expect(anthropic.length).toBeGreaterThanOrEqual(2);
    const [first, second] = anthropic;
    await page.getByRole('checkbox', { name: `Select ${first!.model_id} to compare` }).check();
    await page.getByRole('checkbox', { name: `Select ${second!.model_id} to compare` }).check();
    await page.getByRole('button', { name: 'Compare selected' }).click();
    const table = page.getByRole('table', { name: 'Models side by side' });
    await table.waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('ids')).toBe(`${first!.model_id},${second!.model_id}`);
    expect(await table.locator('thead th a').allTextContents()).toEqual([first!.model_id, second!.model_id]);
    const row = async (label: string) => (await table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell').allTextContents()).map((text) => amount(text.replace(' (lowest)', '')));
    const expectPrices = (shown: (number | null)[], expected: (number | null)[]) => expected.forEach((value, index) => expect(shown[index]).toBeCloseTo(value!, 9));
    expectPrices(await row('Input per million tokens'), [first!.input_cost_per_million, second!.input_cost_per_million]);
    expectPrices(await row('Output per million tokens'), [first!.output_cost_per_million, second!.output_cost_per_million]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'models-compare');
    session.expectClean();
  }, 60_000);

  it("shows a model's prices, price history and usage link, and the server's error for an unknown model", async () => {
    const session = await openConsole(browser);
    const { page } = session;
    const org = await openModels(page);
    const id = 'claude-3-opus-20240229';
    const model = (await (await server.request(`/api/v1/models/${id}?fill-with-zeros=false`, { auth: false })).json()) as ApiModel;
    await page.getByRole('link', { name: id, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: id }).waitFor();
    const prices = page.getByRole('table', { name: 'Prices' });
    const price = async (label: string) => amount(await prices.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell').textContent());
    await prices.waitFor({ timeout: 15_000 });
    expect(await price('Input per million tokens')).toBeCloseTo(model.input_cost_per_million!, 9);
    expect(await price('Output per million tokens')).toBeCloseTo(model.output_cost_per_million!, 9);
    expect(await price('Cache read per million tokens')).toBeCloseTo(model.cache_read_cost_per_million!, 9);
    const history = page.getByRole('table', { name: 'Price history' });
    await history.waitFor({ timeout: 15_000 });
    expect(amount(await history.locator('tbody tr').first().locator('td').nth(2).textContent())).toBeCloseTo(model.input_cost_per_million!, 9);
    expect(await page.getByRole('link', { name: 'Usage in dataset…' }).getAttribute('href')).toBe(`/app/${org}/llm-costs?model=${encodeURIComponent(id)}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'models-model');

    await page.goto(`${server.url}/app/${org}/models/no-such-model`);
    await expect.poll(() => page.locator('.error-box').textContent(), { timeout: 15_000 }).toContain('no-such-model');
    session.expectClean();
  }, 60_000);
});
