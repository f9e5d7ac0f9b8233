// Drives pages of the server (the console, GraphiQL) in Debian's Chromium through playwright-core, the way people use it: every
// request to anything but 127.0.0.1 is blocked and recorded (the console must need nothing from
// outside), and console errors, failed CSP checks and uncaught exceptions are collected, so a
// test can require there were none. Outside CI, tests are skipped when Chromium is missing; in CI
// (`CI` set) a missing Chromium fails them (`.ci/run` installs it).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable && process.env.CI) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
if (!chromiumAvailable) console.warn(`Skipping console browser tests: ${CHROMIUM} is not installed (apt-get install -y chromium).`);

/** The password the console tests give the bootstrap admin (`ADMIN_PASSWORD`). */
export const TEST_ADMIN_PASSWORD = 'console-test-password-1';
export const TEST_ADMIN_EMAIL = 'admin@localhost';

/** Screenshots for the console guide (docs/guides/console.md) land here when SCREENSHOTS_DIR is set. */
const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR;

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface ConsoleContext {
  context: BrowserContext;
  page: Page;
  /** Requests that tried to leave 127.0.0.1 (blocked). */
  outside: string[];
  /** Console errors, CSP violations and uncaught exceptions. */
  problems: string[];
  /** Fails the test when anything left the machine or the page reported an error. */
  expectClean(): void;
}

/** A fresh browser context (no cookies) with one page, watched for outside requests and errors. */
export async function openConsole(browser: Browser, options: { viewport?: { width: number; height: number } } = {}): Promise<ConsoleContext> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  const page = await context.newPage();
  const problems: string[] = [];
  watch(page, problems);
  context.on('page', (other) => watch(other, problems));
  return {
    context,
    page,
    outside,
    problems,
    expectClean() {
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    },
  };
}

/** Messages that are expected while testing failures on purpose (e.g. a 401 after sign-out). */
const EXPECTED_NETWORK_ERROR = /Failed to load resource: the server responded with a status of (401|403|400|404|409|412|429)/;

function watch(page: Page, problems: string[]) {
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !EXPECTED_NETWORK_ERROR.test(text)) problems.push(text);
    else if (/Content Security Policy/i.test(text)) problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(error.message));
}

/** Signs in through the sign-in page and waits for the console's navigation. */
export async function signIn(page: Page, baseUrl: string, email = TEST_ADMIN_EMAIL, password = TEST_ADMIN_PASSWORD, path = '/app/'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

const AXE_SOURCE = path.join(path.dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js');

/**
 * Runs axe-core in the page (read from the package, no outside request) and returns the
 * serious and critical violations, described enough to fix them.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the console's policy allows only its own scripts.
  await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => JSON.stringify(node.target)).slice(0, 5) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.targets.join(', ')}`);
}

/** Saves a screenshot for the docs when SCREENSHOTS_DIR is set (`npm run docs:screenshots`). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`) });
}
