// One chart of a dashboard in its grid cell: a titled region with the chart its type draws, its
// query's error or loading state, and in edit mode the buttons to change or remove it.
import type { ReactNode } from 'react';
import { HeatmapChart } from '../../query/charts/HeatmapChart';
import { annotationMarks } from '../../query/charts/annotations';
import { extractHeatmap } from '../../query/charts/series';
import { chartTitle, kindLabel } from '../document';
import { GaugePanel } from './GaugePanel';
import { LogStreamPanel } from './LogStreamPanel';
import { MonitorListPanel } from './MonitorListPanel';
import { NotePanel } from './NotePanel';
import type { PanelProps } from './panel-types';
import { PiePanel } from './PiePanel';
import { ScatterPanel } from './ScatterPanel';
import { SmartFilterPanel } from './SmartFilterPanel';
import { StatisticPanel } from './StatisticPanel';
import { TablePanel } from './TablePanel';
import { TimeSeriesPanel } from './TimeSeriesPanel';
import { TopKPanel } from './TopKPanel';
import '../../query/charts/charts.css';

function HeatmapPanel({ chart, result, context }: PanelProps) {
  const data = result?.answer ? extractHeatmap(result.answer) : undefined;
  if (!data) return <p className="muted">A heatmap needs histogram() by bin_auto(_time)</p>;
  return (
    <HeatmapChart
      data={data}
      marks={annotationMarks(result?.answer?.annotations)}
      timeZone={context.timeZone}
      description={`Heatmap of ${chart.name ?? data.aggregate}: ${data.times.length} time bins by ${data.buckets.length} buckets, at most ${data.maxCount} per cell`}
      onSelectRange={context.onSelectRange}
    />
  );
}

const PANELS: Record<string, (props: PanelProps) => ReactNode> = {
  TimeSeries: TimeSeriesPanel,
  Statistic: StatisticPanel,
  Gauge: GaugePanel,
  Table: TablePanel,
  Pie: PiePanel,
  Heatmap: HeatmapPanel,
  LogStream: LogStreamPanel,
  Scatter: ScatterPanel,
  TopK: TopKPanel,
  Note: NotePanel,
  MonitorList: MonitorListPanel,
  SmartFilter: SmartFilterPanel,
  Spacer: () => null,
};

export interface ChartPanelProps extends PanelProps {
  editing: boolean;
  onOptions(): void;
  onRemove(): void;
}

export function ChartPanel(props: ChartPanelProps) {
  const { chart, result, editing, onOptions, onRemove } = props;
  const title = chartTitle(chart);
  const Panel = PANELS[chart.type];
  const needsQuery = chart.query !== undefined;
  let body: ReactNode;
  if (!Panel) body = <p className="muted">{kindLabel(chart.type)} charts are not drawn by this console; the chart is kept as it is.</p>;
  else if (needsQuery && chart.query?.mpl !== undefined) body = <p className="muted">Metrics (MPL) charts are not drawn on dashboards yet.</p>;
  else if (needsQuery && result?.error) body = <p className="error-box">{result.error}</p>;
  else if (needsQuery && (!result || (result.loading && !result.answer))) body = <p className="muted" role="status">Loading…</p>;
  else body = <Panel {...props} />;
  const spacer = chart.type === 'Spacer';
  return (
    <section className={`dashboard-chart${spacer ? ' spacer' : ''}`} aria-label={spacer ? 'Spacer' : title} data-chart-id={chart.id}>
      <header className="dashboard-chart-header">
        {spacer && !editing ? null : <h2 className="dashboard-chart-title">{spacer ? 'Spacer' : title}</h2>}
        {editing ? (
          <div className="toolbar dashboard-chart-edit">
            <span className="dashboard-drag-handle button small ghost" title="Drag to move" aria-hidden="true">
              ⠿
            </span>
            <button type="button" className="button small" onClick={onOptions} aria-label={`Options of ${title}`}>
              Options
            </button>
            <button type="button" className="button small" onClick={onRemove} aria-label={`Remove ${title}`}>
              Remove
            </button>
          </div>
        ) : null}
      </header>
      <div className="dashboard-chart-body">{body}</div>
    </section>
  );
}
