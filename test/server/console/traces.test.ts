// The trace page in a real browser against the real server: a trace of three services sent with
// the OpenTelemetry SDK (an error span, a span event, a link, a span whose parent was never sent)
// and log records carrying its id, opened by clicking its trace id on the Query page; the tree's
// names, nesting and order, the durations, the error mark, the critical path, span details,
// logs (the waterfall's query asks only for the fields it draws; a span's attributes and links
// are read when it is opened), and folding a subtree are checked against what the test sent. The Traces page, a logs
// dataset and the Stream page open it too. Then a trace of 10,000 spans posted as OTLP/JSON
// renders, shows its count, and scrolls to its last span.
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, type Span as OtelSpan, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../../helpers/server';
import { chromiumAvailable, type ConsoleContext, launchChromium, openConsole, screenshot, seriousAccessibilityViolations, signIn, TEST_ADMIN_PASSWORD } from '../../helpers/browser';

const SPANS_DATASET = 'shop-traces';
const LOGS_DATASET = 'shop-logs';
const BIG_DATASET = 'big-traces';

/** The trace, in milliseconds after T0; `parent: 'missing'` hangs under a span never sent. */
interface PlannedSpan {
  key: string;
  service: string;
  name: string;
  parent?: string;
  start: number;
  end: number;
  error?: boolean;
}
const PLAN: PlannedSpan[] = [
  { key: 'root', service: 'frontend', name: 'GET /checkout', start: 0, end: 400 },
  { key: 'render', service: 'frontend', name: 'render cart', parent: 'root', start: 10, end: 60 },
  { key: 'orders', service: 'checkout', name: 'POST /orders', parent: 'root', start: 70, end: 380 },
  { key: 'analytics', service: 'frontend', name: 'send analytics', parent: 'root', start: 75, end: 90 },
  { key: 'cart', service: 'checkout', name: 'SELECT cart', parent: 'orders', start: 80, end: 120 },
  { key: 'email', service: 'checkout', name: 'queue email', parent: 'orders', start: 125, end: 200 },
  { key: 'charge', service: 'payments', name: 'charge card', parent: 'orders', start: 130, end: 370, error: true },
  { key: 'bank', service: 'payments', name: 'call bank', parent: 'charge', start: 140, end: 360 },
  { key: 'late', service: 'frontend', name: 'late retry', parent: 'missing', start: 390, end: 395 },
];
const CHARGE_EVENT_AT = 200;
/** Whole seconds, five minutes ago: inside the Query page's last hour. */
const T0 = Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000;
const at = (ms: number) => new Date(T0 + ms);

let server: TestServer;
let browser: Browser;
let session: ConsoleContext;
let org: string;
let traceId: string;
let otherTraceId: string;
let chargeSpanId: string;

const exporterOptions = (signal: string, dataset: string) => ({
  url: `${server.url}/v1/${signal}`,
  headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'X-Axiom-Dataset': dataset },
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const response = await server.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Sends PLAN through the SDK, one tracer provider per service; returns the spans' contexts. */
async function sendPlannedTrace() {
  const providers = new Map<string, BasicTracerProvider>();
  const tracerOf = (service: string) => {
    let provider = providers.get(service);
    if (!provider) {
      provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': service, 'host.name': `${service}-1` }),
        spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(exporterOptions('traces', SPANS_DATASET)))],
      });
      providers.set(service, provider);
    }
    return provider.getTracer('shop', '1.0.0');
  };
  const other = tracerOf('frontend').startSpan('elsewhere', { startTime: at(0) });
  other.end(at(1));
  const spans = new Map<string, OtelSpan>();
  for (const planned of PLAN) {
    const parentSpan = planned.parent ? spans.get(planned.parent) : undefined;
    const missingParent = { traceId: spans.get('root')?.spanContext().traceId ?? '', spanId: 'deadbeefdeadbeef', traceFlags: TraceFlags.SAMPLED };
    const context = parentSpan ? trace.setSpan(ROOT_CONTEXT, parentSpan) : planned.parent === 'missing' ? trace.setSpanContext(ROOT_CONTEXT, missingParent) : ROOT_CONTEXT;
    const span = tracerOf(planned.service).startSpan(
      planned.name,
      {
        kind: planned.key === 'root' ? SpanKind.SERVER : SpanKind.CLIENT,
        startTime: at(planned.start),
        attributes: planned.key === 'charge' ? { 'payment.amount': 42, 'http.request.method': 'POST' } : {},
        links: planned.key === 'charge' ? [{ context: other.spanContext(), attributes: { reason: 'retried payment' } }] : [],
      },
      context,
    );
    if (planned.key === 'charge') span.addEvent('retry', { attempt: 2 }, at(CHARGE_EVENT_AT));
    if (planned.error) span.setStatus({ code: SpanStatusCode.ERROR, message: 'card declined' });
    spans.set(planned.key, span);
  }
  for (const planned of [...PLAN].reverse()) spans.get(planned.key)!.end(at(planned.end));
  for (const provider of providers.values()) {
    await provider.forceFlush();
    await provider.shutdown();
  }
  return { spans, other: other.spanContext() };
}

/** One log record through the SDK into the logs dataset, written inside the failing span. */
async function sendLog(span: OtelSpan) {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'payments' }),
    processors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter(exporterOptions('logs', LOGS_DATASET)) })],
  });
  provider.getLogger('shop').emit({
    timestamp: at(150),
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    body: 'card declined by bank',
    context: trace.setSpan(ROOT_CONTEXT, span),
  });
  await provider.forceFlush();
  await provider.shutdown();
}

// What the page should show, computed from PLAN here.
const isTop = (planned: PlannedSpan) => !planned.parent || planned.parent === 'missing';
const childrenOf = (key: string) => PLAN.filter((planned) => planned.parent === key).sort((a, b) => a.start - b.start);
function expectedRows(): { name: string; service: string; level: number; duration: string }[] {
  const rows: { name: string; service: string; level: number; duration: string }[] = [];
  const visit = (planned: PlannedSpan, level: number) => {
    rows.push({ name: planned.name, service: planned.service, level, duration: `${planned.end - planned.start} ms` });
    for (const child of childrenOf(planned.key)) visit(child, level + 1);
  };
  // Roots first, then spans whose parent is missing, each in start order.
  const top = PLAN.filter(isTop).sort((a, b) => Number(a.parent === 'missing') - Number(b.parent === 'missing') || a.start - b.start);
  for (const planned of top) visit(planned, 1);
  return rows;
}
function expectedCriticalPath(): string[] {
  const path: string[] = [];
  let node: PlannedSpan | undefined = PLAN.find((planned) => !planned.parent);
  while (node) {
    path.push(node.name);
    node = childrenOf(node.key).reduce<PlannedSpan | undefined>((best, child) => (!best || child.end > best.end ? child : best), undefined);
  }
  return path;
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Spans' });
const treeItems = (page: Page) => tree(page).getByRole('treeitem');
const rowNamed = (page: Page, name: string) => treeItems(page).filter({ has: page.locator('.span-name', { hasText: new RegExp(`^${name.replace(/[/]/g, '\\/')}$`) }) });

async function shownRows(page: Page) {
  return treeItems(page).evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector('.span-name')?.textContent ?? '',
      service: item.querySelector('.span-service')?.textContent ?? '',
      level: Number(item.getAttribute('aria-level')),
      duration: item.querySelector('.span-duration')?.textContent ?? '',
      label: item.textContent ?? '',
      critical: item.classList.contains('critical'),
      errorMark: item.querySelector('.span-error-mark') !== null,
      eventMarks: item.querySelectorAll('.span-event-mark').length,
    })),
  );
}

describe.skipIf(!chromiumAvailable)('Trace page', () => {
  beforeAll(async () => {
    server = await startTestServer({ ADMIN_PASSWORD: TEST_ADMIN_PASSWORD });
    for (const name of [SPANS_DATASET, LOGS_DATASET, BIG_DATASET]) await post('/v2/datasets', { name });
    const sent = await sendPlannedTrace();
    traceId = sent.spans.get('root')!.spanContext().traceId;
    otherTraceId = sent.other.traceId;
    chargeSpanId = sent.spans.get('charge')!.spanContext().spanId;
    await sendLog(sent.spans.get('charge')!);
    // A second log record, in the spans' own dataset: listed with the logs, not as a span.
    const bank = sent.spans.get('bank')!.spanContext();
    await post(
      '/v1/logs',
      {
        resourceLogs: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'payments' } }] },
            scopeLogs: [{ logRecords: [{ timeUnixNano: `${BigInt(T0 + 300) * 1_000_000n}`, severityText: 'WARN', severityNumber: 13, body: { stringValue: 'slow bank response' }, traceId: bank.traceId, spanId: bank.spanId }] }],
          },
        ],
      },
      { 'x-axiom-dataset': SPANS_DATASET },
    );
    browser = await launchChromium();
    session = await openConsole(browser);
    await signIn(session.page, server.url);
    org = new URL(session.page.url()).pathname.split('/')[2]!;
  }, 60_000);

  beforeEach(() => {
    session.problems.length = 0;
    session.outside.length = 0;
  });

  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await server?.close();
  });

  it('opens a trace from the Query page and draws its tree, durations, error, critical path, details and logs', async () => {
    const { page } = session;
    // The queries the page sends: the waterfall's asks only for what it draws; a span's whole event is read when it is opened.
    const queries: string[] = [];
    const recordQuery = (request: { url(): string; postData(): string | null }) => {
      if (request.url().includes('/v1/datasets/_apl')) queries.push((JSON.parse(request.postData() ?? '{}') as { apl: string }).apl);
    };
    page.on('request', recordQuery);
    const apl = `['${SPANS_DATASET}'] | where name == 'GET /checkout'`;
    await page.goto(`${server.url}/app/${org}/query?${new URLSearchParams({ apl, start: 'now-1h', end: 'now' })}`);
    const link = page.getByRole('grid', { name: 'Results' }).getByRole('link', { name: traceId });
    await link.waitFor({ timeout: 15_000 });
    await link.click();
    await page.waitForURL(/\/traces\//);
    await expect.poll(() => new URL(page.url()).searchParams.get('start') ?? '').toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/app/${org}/traces/${traceId}`);
    expect(url.searchParams.get('dataset')).toBe(SPANS_DATASET);
    // The pinned range is the Query page's last hour.
    const start = new Date(url.searchParams.get('start')!).getTime();
    const end = new Date(url.searchParams.get('end')!).getTime();
    expect(end - start).toBe(3_600_000);
    expect(start).toBeLessThan(T0);
    expect(end).toBeGreaterThan(T0 + 400);

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Trace ${traceId}`);
    const summary = page.locator('.trace-summary');
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toContain(`${PLAN.length} spans`);
    const summaryText = (await summary.textContent())!;
    expect(summaryText).toContain(`${new Set(PLAN.map((planned) => planned.service)).size} services`);
    expect(summaryText).toContain(`${PLAN.filter((planned) => planned.error).length} error`);

    // Names, services, nesting, order and durations.
    const rows = await shownRows(page);
    expect(rows.map(({ name, service, level, duration }) => ({ name, service, level, duration }))).toEqual(expectedRows());
    // The error mark on the failing span only.
    expect(rows.filter((row) => row.errorMark).map((row) => row.name)).toEqual(PLAN.filter((planned) => planned.error).map((planned) => planned.name));
    expect(rows.find((row) => row.name === 'charge card')!.label).toContain('error');
    // The critical path, and the legend that says how it is chosen.
    expect(rows.filter((row) => row.critical).map((row) => row.name)).toEqual(expectedCriticalPath());
    await expect.poll(() => page.getByRole('list', { name: 'Legend' }).textContent()).toContain('Critical path: from the root, at each level the child span that ends last');
    // The span whose parent was never sent is at the top level, marked.
    const late = rows.find((row) => row.name === 'late retry')!;
    expect(late.level).toBe(1);
    expect(late.label).toContain('parent span missing');
    // The span event is a mark on its row.
    expect(rows.filter((row) => row.eventMarks > 0).map((row) => row.name)).toEqual(['charge card']);

    const spansQuery = queries.find((text) => text.includes(traceId) && text.includes('isnotnull(parent_span_id)'));
    expect(spansQuery).toContain('| project _time, span_id, parent_span_id, name = column_ifexists(');
    expect(spansQuery).not.toContain('attributes');
    expect(queries.filter((text) => text.includes('span_id == '))).toEqual([]);

    // The failing span's details: status, attributes and its link (read once it is opened), its event (from the span's start).
    await rowNamed(page, 'charge card').click();
    const details = page.getByRole('region', { name: 'charge card' });
    await details.waitFor();
    await expect.poll(() => details.textContent()).toContain('ERROR: card declined');
    await expect.poll(() => details.getByRole('row', { name: /payment\.amount/ }).textContent()).toContain('42');
    await expect.poll(() => details.getByRole('list', { name: 'Span events' }).textContent()).toContain(`+${CHARGE_EVENT_AT - 130} ms retry`);
    const linked = details.getByRole('list', { name: 'Span links' }).getByRole('link', { name: otherTraceId });
    expect(new URL(await linked.getAttribute('href') ?? '', server.url).pathname).toBe(`/app/${org}/traces/${otherTraceId}`);
    expect(queries.filter((text) => text.includes('span_id == '))).toEqual([expect.stringContaining(`span_id == "${chargeSpanId}"`)]);
    page.off('request', recordQuery);
    await screenshot(page, 'trace-waterfall');

    // The logs carrying the trace id, from both datasets, in time order; one shows its span.
    const logs = page.getByRole('list', { name: 'Logs of this trace' }).getByRole('listitem');
    await expect.poll(() => logs.count(), { timeout: 15_000 }).toBe(2);
    const logTexts = await logs.allTextContents();
    // Each at its offset from the trace's start.
    expect(logTexts[0]).toContain('+150 ms');
    expect(logTexts[0]).toContain('card declined by bank');
    expect(logTexts[1]).toContain('+300 ms');
    expect(logTexts[1]).toContain('slow bank response');
    await logs.nth(1).locator('summary').click();
    await logs.nth(1).getByRole('button', { name: 'Show its span' }).click();
    await page.getByRole('region', { name: 'call bank' }).waitFor();

    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // Folding "POST /orders" hides its subtree; Right arrow unfolds it.
    const orders = rowNamed(page, 'POST /orders');
    const subtree = 4;
    await orders.locator('[data-toggle]').click();
    await expect.poll(() => orders.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => treeItems(page).count()).toBe(PLAN.length - subtree);
    expect((await shownRows(page)).map((row) => row.name)).toEqual(expectedRows().map((row) => row.name).filter((name) => !['SELECT cart', 'queue email', 'charge card', 'call bank'].includes(name)));
    await orders.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => orders.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => treeItems(page).count()).toBe(PLAN.length);
    session.expectClean();
  });

  it('opens a trace by its id from the Traces page or from a logs dataset, and shows the server\'s message for a dataset it cannot read', async () => {
    const { page } = session;
    await page.goto(`${server.url}/app/${org}/traces`);
    await page.getByLabel('Trace ID').fill(traceId.toUpperCase());
    await page.getByRole('button', { name: 'Open trace' }).click();
    await page.waitForURL(new RegExp(`/traces/${traceId}\\?`));
    // No dataset named: every dataset with spans is searched.
    await expect.poll(() => page.locator('.trace-summary').textContent(), { timeout: 15_000 }).toContain(`${PLAN.length} spans`);
    expect(new URL(page.url()).searchParams.get('dataset')).toBeNull();

    // Opened from a dataset of logs, the spans are looked for where spans are.
    await page.goto(`${server.url}/app/${org}/traces/${traceId}?dataset=${LOGS_DATASET}`);
    await expect.poll(() => page.locator('.trace-summary').textContent(), { timeout: 15_000 }).toContain(`${PLAN.length} spans`);

    await page.goto(`${server.url}/app/${org}/traces/${traceId}?dataset=no-such-dataset`);
    const problem = page.getByRole('alert').filter({ hasText: 'no-such-dataset' });
    await problem.waitFor({ timeout: 15_000 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    session.expectClean();
  });

  it('opens a trace from an event of the Stream page, an hour either side of the event', async () => {
    const { page } = session;
    await page.goto(`${server.url}/app/${org}/stream?dataset=${LOGS_DATASET}`);
    const marker = page.getByRole('log', { name: 'Live events' }).getByRole('button').filter({ hasText: 'stream marker' }).first();
    // The tail reads from the moment it is registered: post until a line shows.
    const eventTime = at(100).toISOString();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      await post(`/v1/datasets/${LOGS_DATASET}/ingest`, [{ _time: eventTime, trace_id: traceId, message: 'stream marker' }]);
      try {
        await marker.waitFor({ timeout: 1500 });
        break;
      } catch {
        // Not following yet.
      }
    }
    await marker.click();
    const link = page.getByRole('complementary').getByRole('link', { name: traceId });
    const href = new URL((await link.getAttribute('href'))!, server.url);
    expect(href.pathname).toBe(`/app/${org}/traces/${traceId}`);
    expect(href.searchParams.get('dataset')).toBe(LOGS_DATASET);
    expect(new Date(href.searchParams.get('start')!).getTime()).toBe(new Date(eventTime).getTime() - 3_600_000);
    expect(new Date(href.searchParams.get('end')!).getTime()).toBe(new Date(eventTime).getTime() + 3_600_000);
    await link.click();
    await expect.poll(() => page.locator('.trace-summary').textContent(), { timeout: 15_000 }).toContain(`${PLAN.length} spans`);
    session.expectClean();
  });

  it('draws a trace of 10,000 spans and scrolls to its last span', async () => {
    const { page } = session;
    const bigTraceId = randomBytes(16).toString('hex');
    const spanId = (n: number) => n.toString(16).padStart(16, '0');
    const nanos = (ms: number) => `${BigInt(T0) * 1_000_000n + BigInt(Math.round(ms * 1_000_000))}`;
    // A root, 99 calls under it, 100 queries under each: 10,000 spans.
    const spans: Record<string, unknown>[] = [{ traceId: bigTraceId, spanId: spanId(1), name: 'batch job', kind: 2, startTimeUnixNano: nanos(0), endTimeUnixNano: nanos(10_000) }];
    let last = { name: '', start: -1 };
    for (let call = 1; call <= 99; call++) {
      const callId = spanId(1 + call);
      const callStart = call * 100;
      spans.push({ traceId: bigTraceId, spanId: callId, parentSpanId: spanId(1), name: `call ${call}`, kind: 3, startTimeUnixNano: nanos(callStart), endTimeUnixNano: nanos(callStart + 90) });
      for (let query = 1; query <= 100; query++) {
        const queryStart = callStart + query * 0.5;
        spans.push({ traceId: bigTraceId, spanId: spanId(1000 + call * 1000 + query), parentSpanId: callId, name: `query ${call}.${query}`, kind: 3, startTimeUnixNano: nanos(queryStart), endTimeUnixNano: nanos(queryStart + 0.4) });
        // The last row in tree order: the latest query of the latest call.
        if (callStart >= last.start) last = { name: `query ${call}.${query}`, start: callStart };
      }
    }
    expect(spans).toHaveLength(10_000);
    await post('/v1/traces', { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'batch' } }] }, scopeSpans: [{ spans }] }] }, { 'x-axiom-dataset': BIG_DATASET });

    const startedAt = performance.now();
    await page.goto(`${server.url}/app/${org}/traces/${bigTraceId}?${new URLSearchParams({ dataset: BIG_DATASET, start: new Date(T0 - 60_000).toISOString(), end: new Date(T0 + 60_000).toISOString() })}`);
    await treeItems(page).first().waitFor({ timeout: 30_000 });
    console.log(`trace of 10,000 spans: first draw ${Math.round(performance.now() - startedAt)} ms after navigation`);
    await expect.poll(() => page.locator('.trace-summary').textContent()).toContain('10,000 spans');
    // Virtualized: a screenful of rows in the DOM, not ten thousand.
    expect(await treeItems(page).count()).toBeLessThan(120);

    await tree(page).evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await rowNamed(page, last.name).waitFor({ timeout: 10_000 });
    await expect.poll(() => rowNamed(page, last.name).getAttribute('aria-level')).toBe('3');
    // And with the keyboard: Home, then End.
    await treeItems(page).first().focus();
    await page.keyboard.press('Home');
    await rowNamed(page, 'batch job').waitFor();
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.querySelector('.span-name')?.textContent)).toBe(last.name);
    session.expectClean();
  });
});
