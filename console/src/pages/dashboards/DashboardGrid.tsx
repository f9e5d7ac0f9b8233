// The charts on the 12-column grid (react-grid-layout): fixed in view mode; in edit mode each
// chart moves by its handle and resizes by its corner, and the new positions go back into the
// document's layout items. Section headings span the grid's width; the charts of a folded
// section are left out of the grid, and the charts below move up.
import { useEffect, useMemo } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { DashboardChart, DashboardDocument } from '../../api/dashboards';
import { ChartPanel } from './charts/ChartPanel';
import type { ChartResult, DashboardContext } from './charts/panel-types';
import { completeLayout, GRID_COLUMNS } from './document';
import { installDragSelectionStyle } from './drag-selection-style';
import { SectionHeader } from './SectionHeader';
import { isSection, sectionBlocks } from './sections';

export const ROW_HEIGHT = 60;
const MARGIN = 12;
/** Header and padding of a chart's cell. */
const CHROME = 52;

export interface DashboardGridProps {
  document: DashboardDocument;
  editing: boolean;
  results: Record<string, ChartResult>;
  context: DashboardContext;
  onPositions(layout: Layout): void;
  onOptions(chart: DashboardChart): void;
  onRemove(chartId: string): void;
  /** Charts of folded sections, left out of the grid. */
  hidden: ReadonlySet<string>;
  isFolded(section: DashboardChart): boolean;
  onToggleSection(section: DashboardChart): void;
  onSectionChange(sectionId: string, change: { name?: string; collapsedByDefault?: boolean }): void;
  onSectionMove(sectionId: string, direction: -1 | 1): void;
  onSectionDelete(sectionId: string, withCharts: boolean): void;
}

export function DashboardGrid(props: DashboardGridProps) {
  const { document, editing, results, context, onPositions, onOptions, onRemove, hidden } = props;
  const { width, containerRef, mounted } = useContainerWidth();
  useEffect(() => {
    if (editing) installDragSelectionStyle();
  }, [editing]);
  const sectionIds = useMemo(() => new Set(document.charts.filter(isSection).map((chart) => chart.id)), [document]);
  const blocks = useMemo(() => sectionBlocks(document).sections, [document]);
  const layout = useMemo<Layout>(
    () =>
      completeLayout(document)
        .filter((item) => !hidden.has(item.i))
        .map((item) =>
          sectionIds.has(item.i)
            ? { i: item.i, x: 0, y: item.y ?? 0, w: GRID_COLUMNS, h: 1, isResizable: false }
            : { i: item.i, x: item.x, y: item.y ?? 0, w: item.w, h: item.h, ...(typeof item.minW === 'number' ? { minW: item.minW } : {}), ...(typeof item.minH === 'number' ? { minH: item.minH } : {}), ...(typeof item.maxW === 'number' ? { maxW: item.maxW } : {}), ...(typeof item.maxH === 'number' ? { maxH: item.maxH } : {}), ...(item.static === true ? { static: true } : {}) },
        ),
    [document, hidden, sectionIds],
  );
  const heights = new Map(layout.map((item) => [item.i, item.h * ROW_HEIGHT + (item.h - 1) * MARGIN - CHROME]));
  return (
    <div ref={containerRef} className={`dashboard-grid${editing ? ' editing' : ''}`}>
      {mounted ? (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: [MARGIN, MARGIN], containerPadding: [0, 0] }}
          dragConfig={{ enabled: editing, handle: '.dashboard-drag-handle' }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          onLayoutChange={(next) => editing && onPositions(next)}
        >
          {document.charts.filter((chart) => !hidden.has(chart.id)).map((chart) => {
            const blockIndex = blocks.findIndex((block) => block.section.id === chart.id);
            if (blockIndex >= 0) {
              const block = blocks[blockIndex]!;
              return (
                <div key={chart.id} className="dashboard-cell section">
                  <SectionHeader
                    section={chart}
                    chartCount={block.chartIds.length}
                    folded={!editing && props.isFolded(chart)}
                    editing={editing}
                    canMoveUp={blockIndex > 0}
                    canMoveDown={blockIndex < blocks.length - 1}
                    onToggle={() => props.onToggleSection(chart)}
                    onChange={(change) => props.onSectionChange(chart.id, change)}
                    onMove={(direction) => props.onSectionMove(chart.id, direction)}
                    onDelete={(withCharts) => props.onSectionDelete(chart.id, withCharts)}
                  />
                </div>
              );
            }
            return (
              <div key={chart.id} className="dashboard-cell">
                <ChartPanel
                  chart={chart}
                  result={results[chart.id]}
                  height={Math.max(40, heights.get(chart.id) ?? 200)}
                  context={context}
                  editing={editing}
                  onOptions={() => onOptions(chart)}
                  onRemove={() => onRemove(chart.id)}
                />
              </div>
            );
          })}
        </ReactGridLayout>
      ) : null}
    </div>
  );
}
