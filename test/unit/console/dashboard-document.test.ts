// The dashboard editor's document changes (unknown properties kept, positions written over layout
// items), the binding of `declare query_parameters` into `let` statements for the filter bar,
// and the time window's stored and request forms with the comparison shift.
import { describe, expect, it } from 'vitest';
import type { DashboardDocument } from '../../../console/src/api/dashboards';
import { completeLayout, withChart, withoutChart, withPositions } from '../../../console/src/pages/dashboards/document';
import { bindParameters, declaredParameters, defaultText } from '../../../console/src/pages/dashboards/query-parameters';
import { againstMillis, boundMillis, requestBound, shiftedWindow, storedBound } from '../../../console/src/pages/dashboards/time-window';

const base: DashboardDocument = {
  name: 'Ops',
  owner: 'X-AXIOM-EVERYONE',
  schemaVersion: 2,
  refreshTime: 60,
  timeWindowStart: 'qr-now-1h',
  timeWindowEnd: 'qr-now',
  theme: 'dark',
  charts: [{ id: 'a', type: 'TimeSeries', query: { apl: "['web'] | count", engine: 'x' }, extra: 1 }],
  layout: [{ i: 'a', x: 0, y: 0, w: 6, h: 4, pinned: true }],
};

describe('dashboard document changes', () => {
  it('keeps unknown properties of the document, its charts and layout items', () => {
    const moved = withPositions(base, [{ i: 'a', x: 6, y: 0, w: 6, h: 8 }]);
    expect(moved.theme).toBe('dark');
    expect(moved.charts[0]).toBe(base.charts[0]);
    expect(moved.layout[0]).toEqual({ i: 'a', x: 6, y: 0, w: 6, h: 8, pinned: true });
    expect(base.layout[0]!.x).toBe(0);
  });

  it('returns the same document when nothing moved', () => {
    expect(withPositions(base, [{ i: 'a', x: 0, y: 0, w: 6, h: 4 }])).toBe(base);
  });

  it('adds charts below the others and removes them with their layout item', () => {
    const added = withChart(base, { id: 'b', type: 'Statistic', query: { apl: "['web'] | count" } });
    expect(added.layout[1]).toEqual({ i: 'b', x: 0, y: 4, w: 3, h: 3 });
    const removed = withoutChart(added, 'a');
    expect(removed.charts.map((chart) => chart.id)).toEqual(['b']);
    expect(removed.layout.map((item) => item.i)).toEqual(['b']);
  });

  it('places charts the layout misses', () => {
    const missing = { ...base, charts: [...base.charts, { id: 'n', type: 'Note', text: 'hi' }] };
    expect(completeLayout(missing).map((item) => [item.i, item.y])).toEqual([
      ['a', 0],
      ['n', 4],
    ]);
  });
});

describe('query parameters', () => {
  const apl = 'declare query_parameters(status:long = 200, page:string = "/home", since:timespan);\n[\'web\'] | where status == status';

  it('reads the declaration', () => {
    const { parameters, body } = declaredParameters(apl);
    expect(parameters).toEqual([
      { name: 'status', type: 'long', defaultLiteral: '200' },
      { name: 'page', type: 'string', defaultLiteral: '"/home"' },
      { name: 'since', type: 'timespan' },
    ]);
    expect(body.trim()).toBe("['web'] | where status == status");
    expect(defaultText(parameters[1]!)).toBe('/home');
  });

  it('binds chosen values, else defaults, as let statements', () => {
    expect(bindParameters(apl, { status: '500', page: 'a"b' })).toBe('let status = 500;\nlet page = "a\\"b";\nlet since = 0s;\n[\'web\'] | where status == status');
    expect(bindParameters(apl, {})).toBe('let status = 200;\nlet page = "/home";\nlet since = 0s;\n[\'web\'] | where status == status');
    expect(bindParameters(apl, { status: 'not a number' }).startsWith('let status = 200;')).toBe(true);
  });

  it('leaves queries without a declaration alone', () => {
    expect(bindParameters("['web'] | count", { x: '1' })).toBe("['web'] | count");
  });
});

describe('time window', () => {
  it('converts quick ranges between the document and requests', () => {
    expect(requestBound('qr-now-1h')).toBe('now-1h');
    expect(requestBound('2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:00Z');
    expect(storedBound('now-15m')).toBe('qr-now-15m');
    expect(storedBound('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
  });

  it('moves the window back by the comparison period', () => {
    const now = Date.UTC(2026, 0, 2, 12);
    expect(boundMillis('qr-now-2h', now)).toBe(now - 2 * 3_600_000);
    expect(againstMillis('-1d')).toBe(86_400_000);
    expect(againstMillis('')).toBe(0);
    expect(shiftedWindow('qr-now-1h', 'qr-now', againstMillis('-1w'), now)).toEqual({
      startTime: new Date(now - 3_600_000 - 7 * 86_400_000).toISOString(),
      endTime: new Date(now - 7 * 86_400_000).toISOString(),
    });
    expect(shiftedWindow('qr-now-1h', 'qr-now', 0, now)).toBeUndefined();
  });
});
