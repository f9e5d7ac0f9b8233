// The chart of a Query page answer: binned aggregations over time draw as a time series, a
// histogram() aggregation as a heatmap. Dragging over either reports the time range to zoom to.
import { useCallback, useMemo } from 'react';
import type { TabularAnswer } from '../../../api/query';
import { annotationMarks } from './annotations';
import { HeatmapChart } from './HeatmapChart';
import type { TimeZone } from './plot-options';
import { chartKindOf, extractHeatmap, extractTimeSeries, type HeatmapData, type TimeSeriesData } from './series';
import { TimeSeriesChart } from './TimeSeriesChart';
import './charts.css';

export interface ResultChartProps {
  answer: TabularAnswer;
  timeZone: TimeZone;
  onZoom(range: { start: Date; end: Date }): void;
}

/** True when the answer draws as a chart (an aggregation over time bins). */
export function isChartable(answer: TabularAnswer): boolean {
  return chartKindOf(answer) !== undefined;
}

function formatTime(seconds: number, timeZone: TimeZone): string {
  return new Date(seconds * 1000).toLocaleString(undefined, timeZone === 'UTC' ? { timeZone: 'UTC', timeZoneName: 'short' } : {});
}

function describeSeries(data: TimeSeriesData, timeZone: TimeZone): string {
  const aggregates = [...new Set(data.series.map((series) => series.aggregate))].join(', ');
  const span = data.times.length > 0 ? ` from ${formatTime(data.times[0]!, timeZone)} to ${formatTime(data.times[data.times.length - 1]!, timeZone)}` : '';
  return `Time series chart of ${aggregates}: ${data.series.length} series over ${data.times.length} time bins${span}`;
}

function describeHeatmap(data: HeatmapData, timeZone: TimeZone): string {
  const span = data.times.length > 0 ? ` from ${formatTime(data.times[0]!, timeZone)} to ${formatTime(data.times[data.times.length - 1]!, timeZone)}` : '';
  return `Heatmap of ${data.aggregate}: ${data.times.length} time bins by ${data.buckets.length} buckets of width ${data.bucketWidth}${span}, at most ${data.maxCount} per cell`;
}

export function ResultChart({ answer, timeZone, onZoom }: ResultChartProps) {
  const kind = useMemo(() => chartKindOf(answer), [answer]);
  const series = useMemo(() => (kind === 'timeseries' ? extractTimeSeries(answer) : undefined), [answer, kind]);
  const heatmap = useMemo(() => (kind === 'heatmap' ? extractHeatmap(answer) : undefined), [answer, kind]);
  const marks = useMemo(() => annotationMarks(answer.annotations), [answer]);
  const onSelectRange = useCallback((start: number, end: number) => onZoom({ start: new Date(start * 1000), end: new Date(end * 1000) }), [onZoom]);

  if (series) return <TimeSeriesChart data={series} marks={marks} timeZone={timeZone} description={describeSeries(series, timeZone)} onSelectRange={onSelectRange} />;
  if (heatmap) return <HeatmapChart data={heatmap} marks={marks} timeZone={timeZone} description={describeHeatmap(heatmap, timeZone)} onSelectRange={onSelectRange} />;
  return null;
}
