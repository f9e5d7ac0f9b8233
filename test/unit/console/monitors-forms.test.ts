// The pure parts of the Monitors pages: the run strip's cells from the run grid and the alert
// transitions, the editor's form mapped to the API's monitor fields per kind, the preview's
// period bounds, and notifier forms that send masked secrets back unchanged.
import { describe, expect, it } from 'vitest';
import type { Monitor, Notifier } from '../../../console/src/api/monitors';
import { emptyNotifierForm, notifierFormOf, notifierInputOf, withChannel } from '../../../console/src/pages/monitors/channel-fields';
import { emptyForm, formOf, inputOfForm, withType } from '../../../console/src/pages/monitors/monitor-form';
import { absoluteBound } from '../../../console/src/pages/monitors/preview-range';
import { stripCells, stripSummary } from '../../../console/src/pages/monitors/run-strip';

const MINUTE = 60_000;
const T = Date.parse('2026-11-20T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('run strip', () => {
  it('colours each run slot by the alert transitions in and before it', () => {
    const cells = stripCells(
      {
        intervalMinutes: 1,
        createdAt: iso(T - 5.5 * MINUTE),
        lastRunAt: iso(T),
        lastError: null,
        history: [
          { name: 'm', timestamp: iso(T - 3 * MINUTE), state: 'open' },
          { name: 'm', timestamp: iso(T - 1 * MINUTE), state: 'closed' },
        ],
      },
      8,
    );
    // Slots end at T-7m … T; the monitor exists from T-5.5m.
    expect(cells.map((cell) => cell.state)).toEqual(['none', 'none', 'ok', 'ok', 'opened', 'open', 'closed', 'ok']);
    expect(cells[4]!.changes).toEqual(['m: open']);
    expect(stripSummary(cells)).toBe('Last 6 runs: 3 no alert open, 1 alert opened, 1 alert open, 1 alert closed');
  });

  it('marks the latest run when its query failed, and is empty before any run', () => {
    const input = { intervalMinutes: 5, createdAt: iso(T - 60 * MINUTE), lastRunAt: iso(T), lastError: 'dataset gone', history: [] };
    expect(stripCells(input, 3).map((cell) => cell.state)).toEqual(['ok', 'ok', 'error']);
    expect(stripCells({ ...input, lastRunAt: null }, 3)).toEqual([]);
  });
});

describe('monitor form', () => {
  it('sends the fields of the chosen kind, numbers as typed', () => {
    const form = { ...emptyForm({ apl: "['w'] | summarize count() by bin(_time, 1m)", start: 'now-1h', end: 'now' }), name: 'n', threshold: '2.5', columnName: ' count_ ' };
    const threshold = inputOfForm(form);
    expect(threshold).toMatchObject({ type: 'Threshold', operator: 'Above', threshold: 2.5, columnName: 'count_', intervalMinutes: 5, rangeMinutes: 5, disabledUntil: null });
    expect(threshold).not.toHaveProperty('tolerance');

    const anomaly = inputOfForm({ ...withType(form, 'AnomalyDetection'), tolerance: '20', compareDays: '7' });
    expect(anomaly).toMatchObject({ type: 'AnomalyDetection', operator: 'Above', tolerance: 20, compareDays: 7 });
    expect(anomaly).not.toHaveProperty('threshold');

    const match = inputOfForm({ ...withType(form, 'MatchEvent'), resolvable: true, notifyByGroup: true });
    expect(match).toMatchObject({ type: 'MatchEvent', resolvable: true, notifyByGroup: false, triggerFromNRuns: 1 });
    expect(match).not.toHaveProperty('operator');

    // A threshold left empty is not sent (the server says it is required); text that is no number is sent as such.
    expect(inputOfForm({ ...form, threshold: '' })).not.toHaveProperty('threshold');
    expect(Number.isNaN(inputOfForm({ ...form, intervalMinutes: 'x' }).intervalMinutes)).toBe(true);
  });

  it('switching to anomaly picks an operator anomaly monitors take', () => {
    expect(withType({ ...emptyForm(), operator: 'AboveOrEqual' }, 'AnomalyDetection').operator).toBe('Above');
    expect(withType({ ...emptyForm(), operator: 'AboveOrBelow' }, 'Threshold').operator).toBe('Above');
  });

  it('round-trips a saved monitor', () => {
    const monitor: Monitor = {
      ...inputOfForm({ ...emptyForm(), name: 'n', aplQuery: 'q', threshold: '3', notifierIds: ['notify_1'] }),
      disabledUntil: '2026-12-01T08:00:00.000Z',
      id: 'mon_1',
      createdAt: iso(T),
      createdBy: 'u',
      updatedAt: iso(T),
    };
    const again = inputOfForm(formOf(monitor));
    expect(again).toMatchObject({ name: 'n', threshold: 3, notifierIds: ['notify_1'] });
    // The pause goes through a local datetime-local value to the minute.
    expect(again.disabledUntil).toBe('2026-12-01T08:00:00.000Z');
  });
});

describe('preview period', () => {
  it('turns relative bounds into times at the moment of the preview', () => {
    expect(absoluteBound('now-2h', T)).toBe(iso(T - 120 * MINUTE));
    expect(absoluteBound('now', T)).toBe(iso(T));
    expect(absoluteBound('2026-11-20T09:00:00Z', T)).toBe('2026-11-20T09:00:00.000Z');
    expect(absoluteBound('yesterday', T)).toBeUndefined();
  });
});

describe('notifier form', () => {
  const saved: Notifier = {
    id: 'notify_1',
    name: 'Hook',
    properties: { customWebhook: { url: 'https://x.example/h', body: '', headers: { 'X-A': '1' }, secretHeaders: { Authorization: '*****abcd' } } },
    createdAt: iso(T),
    createdBy: 'u',
    updatedAt: iso(T),
  };

  it('sends masked secrets back as the API showed them, so they are kept', () => {
    const form = notifierFormOf(saved, 'customWebhook');
    expect(form.values.secretHeaders).toBe('Authorization: *****abcd');
    expect(notifierInputOf(form)).toEqual({
      name: 'Hook',
      // An empty template is left out: the server's default, the default body.
      properties: { customWebhook: { url: 'https://x.example/h', headers: { 'X-A': '1' }, secretHeaders: { Authorization: '*****abcd' } } },
      disabledUntil: null,
    });
  });

  it('writes each channel in its API shape', () => {
    const email = withChannel(emptyNotifierForm(), 'email');
    expect(notifierInputOf({ ...email, name: 'Mail', values: { emails: 'a@example.com\n b@example.com ,c@example.com' } }).properties).toEqual({
      email: { emails: ['a@example.com', 'b@example.com', 'c@example.com'] },
    });
    const opsgenie = withChannel(emptyNotifierForm(), 'opsgenie');
    expect(notifierInputOf({ ...opsgenie, values: { apiKey: 'k', isEU: true } }).properties).toEqual({ opsgenie: { apiKey: 'k', isEU: true } });
    const pagerduty = withChannel(emptyNotifierForm(), 'pagerduty');
    expect(notifierInputOf({ ...pagerduty, values: { routingKey: 'r', token: '' } }).properties).toEqual({ pagerduty: { routingKey: 'r' } });
  });
});
