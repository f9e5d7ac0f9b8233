// Unit tests of the monitor core: the run grid, the alert state machine, match selection, Go
// template rendering with Axiom's JSON functions, address checks and Go time text. Expected
// values are worked out by hand.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { type AlertStates, advanceAlerts, type Observation } from '../../../src/monitors/alerts';
import { isPrivateAddress, isPrivateHostLiteral } from '../../../src/monitors/delivery/address-guard';
import { postJson, PermanentDeliveryError } from '../../../src/monitors/delivery/http';
import { DEFAULT_WEBHOOK_TEMPLATE, renderWebhookTemplate, rewriteJsonFunctions, SAMPLE_TEMPLATE_DATA, TemplateError } from '../../../src/monitors/delivery/template';
import { emptyMatchMemory, type MatchedEvent, selectMatches } from '../../../src/monitors/evaluation/match';
import { expectedBand } from '../../../src/monitors/evaluation/anomaly';
import { goTimeString } from '../../../src/monitors/go-time';
import { maskSecret } from '../../../src/monitors/notifier-definitions';
import * as grid from '../../../src/monitors/schedule';
import { startReceiver } from '../../helpers/receiver';

describe('the run grid', () => {
  const timing = { intervalMinutes: 5, rangeMinutes: 10, secondDelay: 0 };

  it('runs on phase + k * interval, the phase stable per monitor and inside the interval', () => {
    const phase = grid.phase('mon_a', 300_000);
    expect(phase).toBe(grid.phase('mon_a', 300_000));
    expect(phase).toBeGreaterThanOrEqual(0);
    expect(phase).toBeLessThan(300_000);
    const run = grid.nextRun('mon_a', timing, 1_000_000_000_000);
    expect((run.endMs - phase) % 300_000).toBe(0);
    expect(run.endMs).toBeGreaterThan(1_000_000_000_000);
    expect(run.endMs - 1_000_000_000_000).toBeLessThanOrEqual(300_000);
    expect(run.startMs).toBe(run.endMs - 600_000);
    expect(run.dueAt).toBe(run.endMs);
    // The next run after a run follows the grid, however late that run started.
    expect(grid.nextRun('mon_a', timing, run.dueAt + 123_456).endMs).toBe(run.endMs + 300_000);
  });

  it('spreads monitors of one interval over it', () => {
    const phases = new Set(Array.from({ length: 50 }, (_, i) => Math.floor(grid.phase(`mon_${i}`, 60_000) / 6_000)));
    expect(phases.size).toBeGreaterThan(5); // 50 monitors over ten 6-second slices
  });

  it('delays the run by secondDelay after the end of its window', () => {
    const delayed = { ...timing, secondDelay: 30 };
    const run = grid.nextRun('mon_a', delayed, 1_000_000_000_000);
    expect(run.dueAt - run.endMs).toBe(30_000);
    expect(run.dueAt).toBeGreaterThan(1_000_000_000_000);
  });

  it('collapses runs missed during downtime into one, for the latest grid point', () => {
    const first = grid.nextRun('mon_a', timing, 1_000_000_000_000);
    const now = first.dueAt + 3 * 300_000 + 1_000; // three more grid points passed
    const run = grid.runToDo('mon_a', timing, first.dueAt, now);
    expect(run.endMs).toBe(first.endMs + 3 * 300_000);
    expect(grid.nextRun('mon_a', timing, now).endMs).toBe(first.endMs + 4 * 300_000);
    // On time, the run is the one that was due.
    expect(grid.runToDo('mon_a', timing, first.dueAt, first.dueAt + 50).endMs).toBe(first.endMs);
  });
});

describe('alert states', () => {
  const rules = { triggerFromNRuns: 1, triggerAfterNPositiveResults: 1, notifyEveryRun: false, skipResolved: false };
  const now = new Date('2026-01-01T00:00:00Z');
  const observe = (positive: boolean, key = '', reason: Observation['reason'] = 'threshold'): Observation => ({
    key,
    positive,
    reason,
    value: positive ? 10 : 1,
    body: '',
    groupKeys: null,
    groupValues: null,
  });
  function replay(outcomes: boolean[], options = rules) {
    let states: AlertStates = {};
    const events: string[] = [];
    for (const outcome of outcomes) {
      const step = advanceAlerts(states, [observe(outcome)], options, now);
      states = step.states;
      for (const change of step.changes) events.push(`${change.transition ?? '-'}/${change.notify ?? '-'}`);
    }
    return events;
  }

  it('opens and closes once per crossing', () => {
    expect(replay([false, true, true, true, false, false, true])).toEqual(['open/Open', 'closed/Closed', 'open/Open']);
  });

  it('notifies every positive run while open with notifyEveryRun', () => {
    expect(replay([true, true, true, false], { ...rules, notifyEveryRun: true })).toEqual(['open/Open', '-/Open', '-/Open', 'closed/Closed']);
  });

  it('records the close but sends nothing with skipResolved', () => {
    expect(replay([true, false], { ...rules, skipResolved: true })).toEqual(['open/Open', 'closed/-']);
  });

  it('opens when N of the last M runs are positive, and closes when fewer are', () => {
    const twoOfThree = { ...rules, triggerFromNRuns: 3, triggerAfterNPositiveResults: 2 };
    // runs:      +      -      +  (2 of 3: open)   +      -   (2 of 3 still)  -  (1 of 3: close)
    expect(replay([true, false, true, true, false, false], twoOfThree)).toEqual(['open/Open', 'closed/Closed']);
    expect(replay([true, false, false, true, false, false], twoOfThree)).toEqual([]);
  });

  it('closes a group the query no longer returns, with value 0', () => {
    const opened = advanceAlerts({}, [{ ...observe(true, 'group:["a"]'), groupKeys: ['svc'], groupValues: ['a'] }], rules, now);
    const closed = advanceAlerts(opened.states, [], rules, now);
    expect(closed.changes).toEqual([expect.objectContaining({ transition: 'closed', notify: 'Closed', observation: expect.objectContaining({ value: 0, groupValues: ['a'] }) })]);
    expect(closed.states).toEqual({});
  });

  it('sends a crossing after a no-data alert although the alert stays open', () => {
    const noData = advanceAlerts({}, [observe(true, '', 'noData')], rules, now);
    const crossing = advanceAlerts(noData.states, [observe(true, '', 'threshold')], rules, now);
    expect(crossing.changes).toEqual([expect.objectContaining({ notify: 'Open' })]);
    expect(crossing.changes[0]!.transition).toBeUndefined();
  });
});

describe('match selection', () => {
  const event = (rowId: number, timeMs: number): MatchedEvent => ({ rowId: String(rowId), timeMs, event: { id: rowId } });

  it('notifies each event once across overlapping windows', () => {
    const first = selectMatches(emptyMatchMemory(), [event(1, 1000), event(2, 2000)], { now: 10_000, windowStartMs: 0 });
    expect(first.notify.map((e) => e.rowId)).toEqual(['1', '2']);
    const second = selectMatches(first.memory, [event(2, 2000), event(3, 9000)], { now: 70_000, windowStartMs: 1500 });
    expect(second.notify.map((e) => e.rowId)).toEqual(['3']);
    expect(Object.keys(second.memory.seen).sort()).toEqual(['2', '3']); // event 1 left every window
  });

  it('sends at most 10 a minute and drops the rest', () => {
    const many = Array.from({ length: 15 }, (_, i) => event(i + 1, 1000 + i));
    const run = selectMatches(emptyMatchMemory(), many, { now: 10_000, windowStartMs: 0 });
    expect(run.notify).toHaveLength(10);
    expect(run.memory.dropped).toBe(5);
    const later = selectMatches(run.memory, [event(100, 50_000)], { now: 30_000, windowStartMs: 0 });
    expect(later.notify).toHaveLength(0); // still the same minute
    const nextMinute = selectMatches(run.memory, [event(100, 50_000)], { now: 80_000, windowStartMs: 0 });
    expect(nextMinute.notify).toHaveLength(1);
  });
});

describe('anomaly band', () => {
  it('is expected ± tolerance percent of expected', () => {
    expect(expectedBand(200, 10)).toEqual({ low: 180, high: 220 });
    expect(expectedBand(-50, 20)).toEqual({ low: -60, high: -40 });
  });
});

describe('webhook templates', () => {
  it('renders Go templates with if/eq/else, range, with and printf', async () => {
    const template = '{{ if eq .Action "Open" }}firing{{ else }}resolved{{ end }}|{{ range $i, $k := .GroupKeys }}{{ $k }}={{ index $.GroupValues $i }}{{ end }}|{{ with .MatchedEvent }}{{ .message }}{{ end }}|{{ printf "%.1f" .Value }}';
    expect(await renderWebhookTemplate(template, SAMPLE_TEMPLATE_DATA)).toBe('firing|service=api|sample|12.0');
    expect(await renderWebhookTemplate(template, { ...SAMPLE_TEMPLATE_DATA, Action: 'Closed', GroupKeys: null, MatchedEvent: null })).toBe('resolved|||12.0');
  });

  it('writes values as JSON with jsonObject and jsonArray, in call and pipe form', async () => {
    const data = { ...SAMPLE_TEMPLATE_DATA, MatchedEvent: { msg: 'a "quoted" word', n: 2 }, GroupValues: ['x', 3] };
    expect(await renderWebhookTemplate('{{jsonObject .MatchedEvent}} {{ .GroupValues | jsonArray }} {{jsonArray $.GroupKeys}}', data)).toBe(
      '{"msg":"a \\"quoted\\" word","n":2} ["x",3] ["service"]',
    );
    expect(await renderWebhookTemplate('{{jsonObject .MatchedEvent}}', { ...data, MatchedEvent: null })).toBe('null');
  });

  it('leaves the function names alone inside strings and comments', () => {
    expect(rewriteJsonFunctions('{{ "jsonObject .Title" }}{{/* jsonArray .GroupKeys */}}')).toBe('{{ "jsonObject .Title" }}{{/* jsonArray .GroupKeys */}}');
    expect(rewriteJsonFunctions('a {{jsonObject .Body}} b')).toBe('a {{$.__json.Body}} b');
  });

  it('renders the default body as valid JSON in the documented shape', async () => {
    const rendered = JSON.parse(await renderWebhookTemplate(DEFAULT_WEBHOOK_TEMPLATE, { ...SAMPLE_TEMPLATE_DATA, Body: 'has "quotes"\nand lines' }));
    expect(rendered).toEqual({
      action: 'Open',
      event: {
        monitorID: 'mon_sample',
        body: 'has "quotes"\nand lines',
        description: 'A sample notification',
        queryEndTime: '2024-01-01 00:05:00 +0000 UTC',
        queryStartTime: '2024-01-01 00:00:00 +0000 UTC',
        timestamp: '2024-01-01 00:05:00 +0000 UTC',
        title: 'Sample monitor',
        value: 12,
        matchedEvent: { message: 'sample' },
        groupKeys: ['service'],
        groupValues: ['api'],
      },
    });
  });

  it('stops a template that runs too long or writes too much, and keeps working after', async () => {
    await expect(renderWebhookTemplate('{{ range 100000000 }}{{ printf "%999999d" 1 }}{{ end }}', SAMPLE_TEMPLATE_DATA)).rejects.toThrow(/ran longer than 2000 ms/);
    await expect(renderWebhookTemplate('{{ range 3 }}{{ printf "%900000d" 1 }}{{ end }}', SAMPLE_TEMPLATE_DATA)).rejects.toThrow(/more than 1048576 bytes/);
    expect(await renderWebhookTemplate('{{ .Title }}', SAMPLE_TEMPLATE_DATA)).toBe('Sample monitor');
  });

  it('reports template errors with their line', async () => {
    await expect(renderWebhookTemplate('ok\n{{ if .Action }}', SAMPLE_TEMPLATE_DATA)).rejects.toThrow(TemplateError);
    await expect(renderWebhookTemplate('ok\n{{ if .Action }}', SAMPLE_TEMPLATE_DATA)).rejects.toThrow(/line 2/);
    await expect(renderWebhookTemplate('{{ jsonObject "x" }}', SAMPLE_TEMPLATE_DATA)).rejects.toThrow(/apply to a template variable/);
  });
});

describe('private addresses', () => {
  it('recognizes loopback, private, link-local and mapped addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(address), address).toBe(false);
    expect(isPrivateHostLiteral('localhost')).toBe(true);
    expect(isPrivateHostLiteral('[::1]')).toBe(true);
    expect(isPrivateHostLiteral('hooks.slack.com')).toBe(false);
  });

  it('refuses at connection time a host name that resolves to an internal address', async () => {
    // The machine's own name is not caught by name, and resolves (through /etc/hosts) to an
    // address of the machine: loopback or private.
    const name = hostname();
    const addresses = await lookup(name, { all: true });
    if (!addresses.every((entry) => isPrivateAddress(entry.address))) return; // a public address: nothing to refuse
    const receiver = await startReceiver();
    try {
      await expect(postJson(`http://${name}:${receiver.port}/x`, '{}', { denyPrivate: true })).rejects.toThrow(PermanentDeliveryError);
      await expect(postJson(`http://${name}:${receiver.port}/x`, '{}', { denyPrivate: true })).rejects.toThrow(/NOTIFIER_DENY_PRIVATE/);
      await expect(postJson(`http://127.0.0.1:${receiver.port}/x`, '{}', { denyPrivate: true })).rejects.toThrow(PermanentDeliveryError);
      expect(receiver.all).toHaveLength(0);
      expect((await postJson(`http://127.0.0.1:${receiver.port}/x`, '{}', { denyPrivate: false })).status).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});

describe('masks and times', () => {
  it('masks URLs to their host and other secrets to their last four characters', () => {
    expect(maskSecret('https://hooks.slack.com/services/T0/B0/xyz')).toBe('https://hooks.slack.com/*****');
    expect(maskSecret('0123456789abcdef')).toBe('*****cdef');
    expect(maskSecret('short')).toBe('*****');
  });

  it("writes times as Go's time.Time does", () => {
    expect(goTimeString(1_719_586_557_631_364_493n)).toBe('2024-06-28 14:55:57.631364493 +0000 UTC');
    expect(goTimeString(1_719_586_557_500_000_000n)).toBe('2024-06-28 14:55:57.5 +0000 UTC');
    expect(goTimeString(1_719_586_557_000_000_000n)).toBe('2024-06-28 14:55:57 +0000 UTC');
    expect(goTimeString(1_719_586_557_631_364_493n, false)).toBe('2024-06-28 14:55:57 +0000 UTC');
  });
});
