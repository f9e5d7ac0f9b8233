// What every chart of a dashboard receives: its definition, the state of its query, its size,
// and what the dashboard shares between charts (crosshair, time zone, time range, annotations).
import type { DashboardChart } from '../../../api/dashboards';
import type { TabularAnswer } from '../../../api/query';
import type { TimeZone } from '../../query/charts/plot-options';

export interface ChartResult {
  loading: boolean;
  answer?: TabularAnswer;
  error?: string;
  /** The same query over the comparison period (`against`), its times moved forward by `shiftSeconds`. */
  against?: TabularAnswer;
  shiftSeconds?: number;
}

export interface DashboardContext {
  /** Time charts with the same key move one crosshair. */
  syncKey: string;
  /** The dashboard's time window as queries take it (`now-1h`, RFC 3339). */
  window: { start: string; end: string };
  timeZone: TimeZone;
  /** A drag over a time chart (seconds). */
  onSelectRange(startSeconds: number, endSeconds: number): void;
  /** Adds an annotation at a time picked on a chart, over the chart's datasets. */
  onAnnotationAdded(): void;
  /** Values of the filter bar, by parameter name. */
  filterValues: Readonly<Record<string, string>>;
  onFilterChange(name: string, value: string): void;
}

export interface PanelProps {
  chart: DashboardChart;
  result: ChartResult | undefined;
  /** Pixels available for the chart's body. */
  height: number;
  context: DashboardContext;
}
