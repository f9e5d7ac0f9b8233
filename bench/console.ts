// The console in Debian's Chromium against a server holding 1,000,000 events (ingested through
// the API), measured as a person feels it:
//   - cold load: a fresh browser context (empty cache, session cookie already set) opening the
//     Query page, until the editor takes input;
//   - first route JavaScript: gzip bytes of every script that cold load fetched;
//   - Run to first row: clicking Run for `take 10000` until the first row of the results grid
//     is painted (the frame after it appears), median of several runs;
//   - scrolling 65,000 rows: the longest task the main thread ran while the grid is scrolled
//     from top to bottom (PerformanceObserver 'longtask', which reports tasks over 50 ms).
// Targets: cold load <= 1.5 s, first route <= 300 kB gzip, first row <= 400 ms, no task > 100 ms.
//
//   npm run bench:console
//   BENCH_EVENTS=200000 BENCH_RUNS=5 npm run bench:console
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ingestBodies, spreadBodies } from './ingest-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const BATCH = 10_000;
const TOKEN = 'xapt-bench-console-token-00000000000';
const PASSWORD = 'bench-console-password';
const CHROMIUM = '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../console/dist', import.meta.url));
const START_MS = Date.parse('2024-01-01T00:00:00Z');
const SPAN_MS = 24 * 3_600_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Gzip bytes of the console's scripts a page loaded (by their file names under /app/assets/). */
function gzipBytesOf(urls: readonly string[]): { files: string[]; gzip: number } {
  const files = [...new Set(urls.map((url) => new URL(url).pathname).filter((pathname) => pathname.startsWith('/app/assets/') && pathname.endsWith('.js')))];
  const gzip = files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(DIST, file.slice('/app/'.length))), { level: 9 }).length, 0);
  return { files, gzip };
}

/** Replaces the editor's text the way a person does: select all, type. */
async function typeQuery(page: Page, apl: string) {
  const editor = page.getByRole('textbox', { name: 'Query' });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(apl);
}

// The in-page code is plain JavaScript text: tsx names inner functions through a helper that
// exists only in Node, so functions handed to page.evaluate must not come from this file's code.
const RUN_TO_FIRST_ROW = `new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent.trim() === 'Run');
  if (!button) return reject(new Error('no Run button'));
  const grid = () => document.querySelector('[role="grid"][aria-label="Results"]');
  const status = () => document.querySelector('[role="status"]')?.textContent ?? '';
  const timeout = setTimeout(() => reject(new Error('no row within 30 s')), 30000);
  let started = 0;
  let sawRunning = false;
  const observer = new MutationObserver(() => {
    if (/Running/.test(status())) sawRunning = true;
    const row = grid()?.querySelector('[role="row"][data-row]');
    if (sawRunning && row && /rows/.test(status()) && !/Running/.test(status())) {
      observer.disconnect();
      requestAnimationFrame(() => {
        clearTimeout(timeout);
        resolve(performance.now() - started);
      });
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  started = performance.now();
  button.click();
})`;

/** Milliseconds from the Run click (in the page's clock) to the frame after the first row shows. */
function runToFirstRow(page: Page): Promise<number> {
  return page.evaluate(RUN_TO_FIRST_ROW) as Promise<number>;
}

const LONGEST_TASK_WHILE_SCROLLING = `new Promise((resolve) => {
  const grid = document.querySelector('[role="grid"][aria-label="Results"]');
  const scrollable = [grid, ...grid.querySelectorAll('*')].find((element) => element.scrollHeight > element.clientHeight + 10);
  const tasks = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration)));
  observer.observe({ type: 'longtask' });
  const steps = 240;
  let step = 0;
  let mostRows = 0;
  const tick = () => {
    step++;
    scrollable.scrollTop = (scrollable.scrollHeight * step) / steps;
    mostRows = Math.max(mostRows, grid.querySelectorAll('[role="row"][data-row]').length);
    if (step < steps) requestAnimationFrame(tick);
    else setTimeout(() => {
      observer.disconnect();
      resolve({ longest: tasks.length ? Math.max(...tasks) : 0, count: tasks.length, mostRows });
    }, 300);
  };
  requestAnimationFrame(tick);
})`;

/** Scrolls the results grid from top to bottom in 240 frames; the longest task (ms; 0 if none over 50). */
function longestTaskWhileScrolling(page: Page): Promise<{ longest: number; count: number; mostRows: number }> {
  return page.evaluate(LONGEST_TASK_WHILE_SCROLLING) as Promise<{ longest: number; count: number; mostRows: number }>;
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  if (!existsSync(path.join(DIST, 'index.html'))) throw new Error('the console is not built: npm run build:console');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'eventdeck-bench-console-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_TOKEN: TOKEN, ADMIN_PASSWORD: PASSWORD, MODEL_CATALOG_SOURCE: '/nonexistent' });
  const app = await createApp(config);
  const url = await app.server.listen({ host: '127.0.0.1', port: 0 });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await fetch(`${url}/v2/datasets`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) });
    const started = performance.now();
    await ingestBodies(url, TOKEN, 'bench', spreadBodies(EVENTS, BATCH, START_MS, SPAN_MS));
    console.log(`ingested ${EVENTS.toLocaleString('en-US')} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const orgs = (await (await fetch(`${url}/v2/orgs`, { headers })).json()) as { id: string }[];
    const org = orgs[0]!.id;
    const range = `start=${encodeURIComponent('2023-12-31T00:00:00Z')}&end=${encodeURIComponent('2024-01-03T00:00:00Z')}`;

    // Sign in once; later contexts reuse the session cookie (storage state) but not the cache.
    const first = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const signInPage = await first.newPage();
    await signInPage.goto(`${url}/app/`);
    await signInPage.getByLabel('Email').fill('admin@localhost');
    await signInPage.getByLabel('Password').fill(PASSWORD);
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    await signInPage.getByRole('navigation', { name: 'Main' }).waitFor();
    const storageState = await first.storageState();
    await first.close();

    const loads: number[] = [];
    const scripts: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, storageState });
      const page = await context.newPage();
      if (run === 0) page.on('request', (request) => scripts.push(request.url()));
      const begin = Date.now();
      await page.goto(`${url}/app/${org}/query?${range}`);
      await page.getByRole('textbox', { name: 'Query' }).click();
      await page.keyboard.insertText('x');
      loads.push(Date.now() - begin);
      await context.close();
    }

    // The same request from Node, for what the server and the transfer take of the first row's time.
    const requestTimes: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const begin = performance.now();
      const response = await fetch(`${url}/v1/datasets/_apl?format=tabular`, {
        method: 'POST',
        headers: { ...headers, 'accept-encoding': 'br' },
        body: JSON.stringify({ apl: "['bench'] | take 10000", startTime: '2023-12-31T00:00:00Z', endTime: '2024-01-03T00:00:00Z', limit: 65000 }),
      });
      await response.json();
      if (run > 0) requestTimes.push(performance.now() - begin);
    }

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, storageState });
    const page = await context.newPage();
    await page.goto(`${url}/app/${org}/query?${range}`);
    await typeQuery(page, "['bench'] | take 10000");
    await runToFirstRow(page); // warm-up
    const firstRows: number[] = [];
    for (let run = 0; run < RUNS; run++) firstRows.push(await runToFirstRow(page));

    await typeQuery(page, "['bench'] | take 65000");
    await runToFirstRow(page);
    await page.getByRole('status').filter({ hasText: /65,?000 rows/ }).waitFor({ timeout: 60_000 });
    const scroll = await longestTaskWhileScrolling(page);
    await context.close();

    const script = gzipBytesOf(scripts);
    const report: [string, string, string][] = [
      ['cold load to a usable editor (median)', `${median(loads)} ms`, '<= 1500 ms'],
      ['first route JavaScript, gzip', `${(script.gzip / 1024).toFixed(1)} kB (${script.files.length} files)`, '<= 300 kB'],
      ['Run to first row painted, take 10000 (median)', `${median(firstRows).toFixed(0)} ms`, '<= 400 ms'],
      ['  of which the request from Node (median)', `${median(requestTimes).toFixed(0)} ms`, ''],
      ['longest task while scrolling 65,000 rows', `${scroll.longest.toFixed(0)} ms (${scroll.count} tasks over 50 ms, ${scroll.mostRows} rows drawn at most)`, '<= 100 ms'],
    ];
    console.log(`\n${EVENTS.toLocaleString('en-US')} events, ${RUNS} runs each`);
    for (const [what, figure, target] of report) console.log(`${what.padEnd(48)} ${figure.padEnd(28)} target ${target}`);
    console.log(`cold loads: ${loads.join(', ')} ms; first rows: ${firstRows.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
