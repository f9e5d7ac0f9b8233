// The dashboard editor's document changes (unknown properties kept, positions written over layout
// items), the binding of `declare query_parameters` into `let` statements for the filter bar,
// the time window's stored and request forms with the comparison shift, collapsible sections
// (membership, folding, add, rename, move, delete) and a gauge's range and threshold bands.
import { describe, expect, it } from 'vitest';
import type { DashboardDocument } from '../../../console/src/api/dashboards';
import { completeLayout, withChart, withoutChart, withPositions } from '../../../console/src/pages/dashboards/document';
import { arcPoint, bandColor, gaugeOptionsOf, gaugeScale } from '../../../console/src/pages/dashboards/gauge';
import { hiddenChartIds, sectionBlocks, withoutSection, withSection, withSectionChanged, withSectionMoved } from '../../../console/src/pages/dashboards/sections';
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

describe('sections', () => {
  // Rows: top (0-3) outside sections; section s1 at row 4 holding a and b side by side (5-8) and
  // c (9-10); section s2 at row 11 holding d (12-14).
  const sectioned: DashboardDocument = {
    ...base,
    charts: [
      { id: 'top', type: 'Statistic', query: { apl: "['web'] | count" } },
      { id: 's1', type: 'Section', name: 'Traffic' },
      { id: 'a', type: 'TimeSeries', query: { apl: "['web'] | count" } },
      { id: 'b', type: 'Table', query: { apl: "['web'] | count" } },
      { id: 'c', type: 'Note', text: 'hi' },
      { id: 's2', type: 'Section', name: 'Errors', collapsedByDefault: true, color: 'red' },
      { id: 'd', type: 'Statistic', query: { apl: "['web'] | count" } },
    ],
    layout: [
      { i: 'top', x: 0, y: 0, w: 12, h: 4 },
      { i: 's1', x: 0, y: 4, w: 12, h: 1 },
      { i: 'a', x: 0, y: 5, w: 6, h: 4 },
      { i: 'b', x: 6, y: 5, w: 6, h: 4 },
      { i: 'c', x: 0, y: 9, w: 12, h: 2 },
      { i: 's2', x: 0, y: 11, w: 12, h: 1 },
      { i: 'd', x: 3, y: 12, w: 3, h: 3 },
    ],
  };
  const rows = (document: DashboardDocument) => Object.fromEntries(document.layout.map((item) => [item.i, item.y]));

  it('gives each section the charts below it up to the next section', () => {
    const { unsectioned, sections } = sectionBlocks(sectioned);
    expect(unsectioned).toEqual(['top']);
    expect(sections.map((block) => [block.section.id, block.chartIds])).toEqual([
      ['s1', ['a', 'b', 'c']],
      ['s2', ['d']],
    ]);
  });

  it('hides the charts of folded sections only', () => {
    expect([...hiddenChartIds(sectioned, (section) => section.collapsedByDefault === true)]).toEqual(['d']);
    expect([...hiddenChartIds(sectioned, (section) => section.id === 's1')].sort()).toEqual(['a', 'b', 'c']);
    expect(hiddenChartIds(sectioned, () => false).size).toBe(0);
  });

  it('adds a section below everything, renames it and sets it to start folded', () => {
    const added = withSection(sectioned, 'Latency');
    const section = added.charts[added.charts.length - 1]!;
    expect(section).toMatchObject({ type: 'Section', name: 'Latency' });
    expect(added.layout[added.layout.length - 1]).toEqual({ i: section.id, x: 0, y: 15, w: 12, h: 1 });
    const renamed = withSectionChanged(added, section.id, { name: 'Slow pages', collapsedByDefault: true });
    expect(renamed.charts.find((chart) => chart.id === section.id)).toMatchObject({ name: 'Slow pages', collapsedByDefault: true });
    const opened = withSectionChanged(sectioned, 's2', { collapsedByDefault: false });
    expect(opened.charts.find((chart) => chart.id === 's2')).toEqual({ id: 's2', type: 'Section', name: 'Errors', color: 'red' });
  });

  it('moves a section with its charts, keeping their arrangement and what layout items carry', () => {
    const pinned = { ...sectioned, layout: sectioned.layout.map((item) => (item.i === 'd' ? { ...item, pinned: true } : item)) };
    const moved = withSectionMoved(pinned, 's2', -1);
    // s2 (4 rows) now starts where s1 started; s1 (7 rows) follows.
    expect(rows(moved)).toEqual({ top: 0, s2: 4, d: 5, s1: 8, a: 9, b: 9, c: 13 });
    expect(moved.layout.find((item) => item.i === 'd')).toEqual({ i: 'd', x: 3, y: 5, w: 3, h: 3, pinned: true });
    expect(sectionBlocks(moved).sections.map((block) => [block.section.id, block.chartIds])).toEqual([
      ['s2', ['d']],
      ['s1', ['a', 'b', 'c']],
    ]);
    expect(rows(withSectionMoved(moved, 's2', 1))).toEqual(rows(sectioned));
    expect(withSectionMoved(sectioned, 's1', -1)).toBe(sectioned);
    expect(withSectionMoved(sectioned, 's2', 1)).toBe(sectioned);
  });

  it('deletes a section keeping its charts, or with them', () => {
    const kept = withoutSection(sectioned, 's2');
    expect(kept.charts.map((chart) => chart.id)).toEqual(['top', 's1', 'a', 'b', 'c', 'd']);
    expect(sectionBlocks(kept).sections[0]!.chartIds).toEqual(['a', 'b', 'c', 'd']);
    const dropped = withoutSection(sectioned, 's1', true);
    expect(dropped.charts.map((chart) => chart.id)).toEqual(['top', 's2', 'd']);
    expect(dropped.layout.map((item) => item.i)).toEqual(['top', 's2', 'd']);
  });
});

describe('gauge', () => {
  const gauge = (options: Record<string, unknown>) => gaugeOptionsOf({ id: 'g', type: 'Gauge', query: { apl: "['web'] | count" }, options });

  it('reads its options defensively', () => {
    expect(gauge({ min: 0, max: 500, unit: 'ms', decimals: 1, thresholds: [{ value: 300 }, { value: 100 }, { value: 'x' }], colorScale: 'redToGreen' })).toEqual({
      min: 0,
      max: 500,
      unit: 'ms',
      decimals: 1,
      thresholds: [100, 300],
      colorScale: 'redToGreen',
    });
    expect(gauge({ min: 'low', colorScale: 'purple' })).toEqual({ unit: '', thresholds: [], colorScale: 'greenToRed' });
  });

  it("cuts the range into bands at the thresholds and finds the value's band", () => {
    const options = gauge({ min: 0, max: 500, thresholds: [{ value: 100 }, { value: 300 }] });
    const scale = gaugeScale(150, options);
    expect(scale.bands.map((band) => [band.from, band.to])).toEqual([
      [0, 100],
      [100, 300],
      [300, 500],
    ]);
    expect(scale.band).toBe(1);
    expect(scale.fraction).toBeCloseTo(0.3);
    expect(gaugeScale(300, options).band).toBe(2);
    expect(gaugeScale(-5, options).fraction).toBe(0);
    expect(gaugeScale(900, options).fraction).toBe(1);
    // Green for the low band, red for the high one; the other way round on request.
    expect(scale.bands[0]!.color).toBe('hsl(130, 70%, 36%)');
    expect(scale.bands[2]!.color).toBe('hsl(0, 70%, 36%)');
    expect(bandColor(0, 3, 'redToGreen')).toBe('hsl(0, 70%, 36%)');
  });

  it('picks a round maximum when none is set, and ignores thresholds outside the range', () => {
    const scale = gaugeScale(42, gauge({ thresholds: [{ value: 20 }, { value: 1000 }], max: 100 }));
    expect(scale.bands.map((band) => [band.from, band.to])).toEqual([
      [0, 20],
      [20, 100],
    ]);
    expect(gaugeScale(42, gauge({})).max).toBe(50);
    expect(gaugeScale(730, gauge({})).max).toBe(900);
  });

  it('places points on the half circle from left to right', () => {
    const center = { x: 100, y: 100 };
    expect(arcPoint(0, 80, center).x).toBeCloseTo(20);
    expect(arcPoint(0.5, 80, center).y).toBeCloseTo(20);
    expect(arcPoint(1, 80, center).x).toBeCloseTo(180);
  });
});
