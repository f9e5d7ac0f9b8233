// Changes to a dashboard document in the editor. Every change copies what was loaded and touches
// only what it must, so properties this console does not know (of the document, its charts and
// its layout items) survive a round trip through the editor.
import type { DashboardChart, DashboardDocument, LayoutItem } from '../../api/dashboards';

export const EVERYONE = 'X-AXIOM-EVERYONE';
export const GRID_COLUMNS = 12;

/** The chart kinds the server checks, in the order the editor offers them. */
export const CHART_KINDS = [
  { type: 'TimeSeries', label: 'Time series', query: true },
  { type: 'Statistic', label: 'Statistic', query: true },
  { type: 'Gauge', label: 'Gauge', query: true },
  { type: 'Table', label: 'Table', query: true },
  { type: 'Pie', label: 'Pie', query: true },
  { type: 'Heatmap', label: 'Heatmap', query: true },
  { type: 'LogStream', label: 'Log stream', query: true },
  { type: 'Scatter', label: 'Scatter', query: true },
  { type: 'TopK', label: 'Top values', query: true },
  { type: 'Note', label: 'Note (Markdown)', query: false },
  { type: 'MonitorList', label: 'Monitor list', query: false },
  { type: 'SmartFilter', label: 'Filter', query: false },
  { type: 'Spacer', label: 'Spacer', query: false },
] as const;

/** Kinds whose x axis is time: they share the crosshair, take drags and show annotations. */
export const TIME_KINDS = new Set(['TimeSeries', 'Heatmap']);

export function kindLabel(type: string): string {
  return CHART_KINDS.find((kind) => kind.type === type)?.label ?? type;
}

export function chartTitle(chart: DashboardChart): string {
  return chart.name?.trim() || kindLabel(chart.type);
}

/** A new, empty dashboard document. */
export function newDocument(name: string, owner: string, window = { start: 'qr-now-1h', end: 'qr-now' }): DashboardDocument {
  return { name, owner, schemaVersion: 2, refreshTime: 60, timeWindowStart: window.start, timeWindowEnd: window.end, charts: [], layout: [] };
}

/** A chart id not yet used in the document. */
export function freshChartId(document: DashboardDocument): string {
  const used = new Set(document.charts.map((chart) => chart.id));
  for (;;) {
    const id = `chart-${Math.random().toString(36).slice(2, 10)}`;
    if (!used.has(id)) return id;
  }
}

/** Default size of a new chart on the 12-column grid. */
function defaultSize(type: string): { w: number; h: number } {
  if (type === 'Statistic' || type === 'Spacer') return { w: 3, h: 3 };
  if (type === 'Gauge') return { w: 4, h: 4 };
  if (type === 'SmartFilter') return { w: 12, h: 2 };
  if (type === 'Note') return { w: 6, h: 4 };
  return { w: 6, h: 5 };
}

/** The y just below every laid-out chart. */
function bottomOf(layout: LayoutItem[]): number {
  return layout.reduce((bottom, item) => Math.max(bottom, (item.y ?? 0) + item.h), 0);
}

/** Adds a chart at the bottom of the grid. */
export function withChart(document: DashboardDocument, chart: DashboardChart): DashboardDocument {
  const size = defaultSize(chart.type);
  const item: LayoutItem = { i: chart.id, x: 0, y: bottomOf(document.layout), ...size };
  return { ...document, charts: [...document.charts, chart], layout: [...document.layout, item] };
}

export function withoutChart(document: DashboardDocument, chartId: string): DashboardDocument {
  return { ...document, charts: document.charts.filter((chart) => chart.id !== chartId), layout: document.layout.filter((item) => item.i !== chartId) };
}

/** Replaces one chart (a new object the caller built from a copy of the old one). */
export function withChartReplaced(document: DashboardDocument, chart: DashboardChart): DashboardDocument {
  return { ...document, charts: document.charts.map((existing) => (existing.id === chart.id ? chart : existing)) };
}

/**
 * The positions the grid reports, written over the layout items: x, y, w and h change, anything
 * else an item carried stays. Returns the same document when nothing moved.
 */
export function withPositions(document: DashboardDocument, positions: readonly { i: string; x: number; y: number; w: number; h: number }[]): DashboardDocument {
  const byId = new Map(positions.map((position) => [position.i, position]));
  let changed = false;
  const layout = document.layout.map((item) => {
    const position = byId.get(item.i);
    if (!position || (position.x === item.x && position.y === item.y && position.w === item.w && position.h === item.h)) return item;
    changed = true;
    return { ...item, x: position.x, y: position.y, w: position.w, h: position.h };
  });
  return changed ? { ...document, layout } : document;
}

/** Layout items for every chart: a chart the layout misses gets a place at the bottom. */
export function completeLayout(document: DashboardDocument): LayoutItem[] {
  const laidOut = new Set(document.layout.map((item) => item.i));
  const items = document.layout.filter((item) => document.charts.some((chart) => chart.id === item.i));
  let y = bottomOf(items);
  for (const chart of document.charts) {
    if (laidOut.has(chart.id)) continue;
    const size = defaultSize(chart.type);
    items.push({ i: chart.id, x: 0, y, ...size });
    y += size.h;
  }
  return items;
}

/** Who a dashboard is shared with, as people read it. */
export function ownerLabel(owner: string, currentUserId: string | undefined): string {
  if (owner === EVERYONE) return 'Everyone';
  if (owner === currentUserId) return 'Only me';
  return owner;
}
