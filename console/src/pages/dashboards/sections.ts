// Collapsible sections of a dashboard: which charts each section holds and the editor's changes
// to sections (add, rename, fold by default, move, delete).
//
// Axiom's dashboards have sections (a heading that folds the charts below it; folding stops their
// queries; the folded state is remembered per browser, and a section may be set to start folded),
// but Axiom's public dashboard document (v2 OpenAPI, `Dashboard` and `Chart`) describes no section.
// This console keeps a section where every client already keeps grid items, so other clients
// carry it unchanged:
//   chart:       { "id": "<id>", "type": "Section", "name": "<heading>", "collapsedByDefault"?: true }
//   layout item: { "i": "<id>", "x": 0, "y": <row>, "w": 12, "h": 1 }
// A section holds the charts laid out below its row, up to the next section's row; charts above
// the first section belong to none. Whether a viewer has a section folded lives in that viewer's
// browser (see fold-state.ts), starting from `collapsedByDefault`.
import type { DashboardChart, DashboardDocument, LayoutItem } from '../../api/dashboards';
import { completeLayout, freshChartId, GRID_COLUMNS } from './document';

export const SECTION = 'Section';

export interface SectionBlock {
  section: DashboardChart;
  /** Ids of the charts under the section's heading, top to bottom. */
  chartIds: string[];
}

export const isSection = (chart: DashboardChart): boolean => chart.type === SECTION;

export function sectionName(chart: DashboardChart): string {
  return chart.name?.trim() || 'Untitled section';
}

const rowOf = (item: LayoutItem) => item.y ?? 0;

/** Layout items in reading order: by row, a section before the charts of its row, then by column. */
function readingOrder(document: DashboardDocument): LayoutItem[] {
  const sectionIds = new Set(document.charts.filter(isSection).map((chart) => chart.id));
  return [...completeLayout(document)].sort((a, b) => rowOf(a) - rowOf(b) || Number(sectionIds.has(b.i)) - Number(sectionIds.has(a.i)) || a.x - b.x);
}

/** The charts outside every section, and each section with its charts, in reading order. */
export function sectionBlocks(document: DashboardDocument): { unsectioned: string[]; sections: SectionBlock[] } {
  const byId = new Map(document.charts.map((chart) => [chart.id, chart]));
  const unsectioned: string[] = [];
  const sections: SectionBlock[] = [];
  for (const item of readingOrder(document)) {
    const chart = byId.get(item.i);
    if (!chart) continue;
    if (isSection(chart)) sections.push({ section: chart, chartIds: [] });
    else if (sections.length > 0) sections[sections.length - 1]!.chartIds.push(chart.id);
    else unsectioned.push(chart.id);
  }
  return { unsectioned, sections };
}

/** Ids of the charts hidden by folded sections. */
export function hiddenChartIds(document: DashboardDocument, folded: (section: DashboardChart) => boolean): Set<string> {
  const hidden = new Set<string>();
  for (const block of sectionBlocks(document).sections) if (folded(block.section)) for (const id of block.chartIds) hidden.add(id);
  return hidden;
}

/** Adds a section at the bottom of the grid (below every chart, as a new section starts empty). */
export function withSection(document: DashboardDocument, name: string): DashboardDocument {
  const id = freshChartId(document).replace(/^chart-/, 'section-');
  const bottom = completeLayout(document).reduce((lowest, item) => Math.max(lowest, rowOf(item) + item.h), 0);
  const section: DashboardChart = { id, type: SECTION, name };
  const item: LayoutItem = { i: id, x: 0, y: bottom, w: GRID_COLUMNS, h: 1 };
  return { ...document, charts: [...document.charts, section], layout: [...completeLayout(document), item] };
}

/** Replaces one section's own properties (its name, whether it starts folded). */
export function withSectionChanged(document: DashboardDocument, sectionId: string, change: { name?: string; collapsedByDefault?: boolean }): DashboardDocument {
  const charts = document.charts.map((chart) => {
    if (chart.id !== sectionId) return chart;
    const next: DashboardChart = { ...chart };
    if (change.name !== undefined) next.name = change.name;
    if (change.collapsedByDefault === true) next.collapsedByDefault = true;
    else if (change.collapsedByDefault === false) delete next.collapsedByDefault;
    return next;
  });
  return { ...document, charts };
}

interface Block {
  ids: string[];
  top: number;
  bottom: number;
}

/**
 * Moves a section with its charts one place up (-1) or down (+1) among the sections: the blocks
 * are stacked again in their new order, each keeping its inner arrangement. Charts outside every
 * section stay on top. Returns the same document when the section cannot move that way.
 */
export function withSectionMoved(document: DashboardDocument, sectionId: string, direction: -1 | 1): DashboardDocument {
  const layout = completeLayout(document);
  const itemOf = new Map(layout.map((item) => [item.i, item]));
  const { unsectioned, sections } = sectionBlocks(document);
  const index = sections.findIndex((block) => block.section.id === sectionId);
  const target = index + direction;
  if (index < 0 || target < 0 || target >= sections.length) return document;
  const blocks: Block[] = sections.map((block) => {
    const ids = [block.section.id, ...block.chartIds];
    const items = ids.map((id) => itemOf.get(id)!);
    return { ids, top: rowOf(items[0]!), bottom: Math.max(...items.map((item) => rowOf(item) + item.h)) };
  });
  const unsectionedBottom = unsectioned.reduce((lowest, id) => Math.max(lowest, rowOf(itemOf.get(id)!) + itemOf.get(id)!.h), 0);
  const order = [...blocks];
  [order[index], order[target]] = [order[target]!, order[index]!];
  const newRow = new Map<string, number>();
  let cursor = Math.max(unsectionedBottom, blocks[0]!.top);
  for (const block of order) {
    for (const id of block.ids) newRow.set(id, cursor + rowOf(itemOf.get(id)!) - block.top);
    cursor += block.bottom - block.top;
  }
  return { ...document, layout: layout.map((item) => (newRow.has(item.i) && newRow.get(item.i) !== item.y ? { ...item, y: newRow.get(item.i)! } : item)) };
}

/**
 * Deletes a section. Its charts stay where they are (and so join the section above, or none), or
 * go with it when `withCharts` is set.
 */
export function withoutSection(document: DashboardDocument, sectionId: string, withCharts = false): DashboardDocument {
  const block = sectionBlocks(document).sections.find((candidate) => candidate.section.id === sectionId);
  if (!block) return document;
  const removed = new Set([sectionId, ...(withCharts ? block.chartIds : [])]);
  return { ...document, charts: document.charts.filter((chart) => !removed.has(chart.id)), layout: document.layout.filter((item) => !removed.has(item.i)) };
}
