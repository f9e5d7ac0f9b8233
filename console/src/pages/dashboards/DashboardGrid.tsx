// The charts on the 12-column grid (react-grid-layout): fixed in view mode; in edit mode each
// chart moves by its handle and resizes by its corner, and the new positions go back into the
// document's layout items.
import { useEffect, useMemo } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { DashboardChart, DashboardDocument } from '../../api/dashboards';
import { ChartPanel } from './charts/ChartPanel';
import type { ChartResult, DashboardContext } from './charts/panel-types';
import { completeLayout, GRID_COLUMNS } from './document';
import { installDragSelectionStyle } from './drag-selection-style';

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
}

export function DashboardGrid({ document, editing, results, context, onPositions, onOptions, onRemove }: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth();
  useEffect(() => {
    if (editing) installDragSelectionStyle();
  }, [editing]);
  const layout = useMemo<Layout>(
    () => completeLayout(document).map((item) => ({ i: item.i, x: item.x, y: item.y ?? 0, w: item.w, h: item.h, ...(typeof item.minW === 'number' ? { minW: item.minW } : {}), ...(typeof item.minH === 'number' ? { minH: item.minH } : {}), ...(typeof item.maxW === 'number' ? { maxW: item.maxW } : {}), ...(typeof item.maxH === 'number' ? { maxH: item.maxH } : {}), ...(item.static === true ? { static: true } : {}) })),
    [document],
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
          {document.charts.map((chart) => (
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
          ))}
        </ReactGridLayout>
      ) : null}
    </div>
  );
}
