// The editor's preview chart: the query's series over the chosen period as bars, one per time bin
// (or, when the query has no time bins, the value each replayed run saw, as a line), the
// threshold as a dashed line, values past it ringed, and a red mark at every run that would have
// opened an alert.
import { useMemo } from 'react';
import uPlot from 'uplot';
import type { BacktestRun, Operator } from '../../api/monitors';
import type { TabularAnswer } from '../../api/query';
import { seriesColor, withAlpha } from '../query/charts/palette';
import { axes, formatNumber } from '../query/charts/plot-options';
import { extractTimeSeries, type TimeSeriesData } from '../query/charts/series';
import { UplotChart } from '../query/charts/UplotChart';
import '../query/charts/charts.css';

const FIRE_COLOR = '#b42318';
const THRESHOLD_COLOR = '#9a6700';

export interface PreviewChartProps {
  answer: TabularAnswer | undefined;
  runs: BacktestRun[];
  operator: Operator | undefined;
  /** Drawn when the monitor compares with a fixed threshold. */
  threshold: number | undefined;
  /** Whether the query's own series are worth drawing (aggregations over time bins). */
  useQuerySeries: boolean;
  /** The previewed period, epoch seconds: the x axis spans it whole. */
  period: [number, number];
}

export function crossesThreshold(value: number, operator: Operator, threshold: number): boolean {
  switch (operator) {
    case 'Above':
      return value > threshold;
    case 'AboveOrEqual':
      return value >= threshold;
    case 'Below':
      return value < threshold;
    case 'BelowOrEqual':
      return value <= threshold;
    default:
      return value !== threshold;
  }
}

/** The value each run saw, as one series over the runs' window ends. */
function runSeries(runs: BacktestRun[]): TimeSeriesData {
  return {
    times: runs.map((run) => new Date(run.endTime).getTime() / 1000),
    series: [{ label: 'value per run', aggregate: 'value', group: {}, values: runs.map((run) => run.value) }],
  };
}

export function PreviewChart({ answer, runs, operator, threshold, useQuerySeries, period }: PreviewChartProps) {
  const data = useMemo(() => {
    const fromQuery = useQuerySeries && answer ? extractTimeSeries(answer) : undefined;
    return fromQuery && fromQuery.times.length > 0 ? fromQuery : runSeries(runs);
  }, [answer, runs, useQuerySeries]);
  const fired = useMemo(() => runs.filter((run) => run.opened.length > 0).map((run) => new Date(run.dueAt).getTime() / 1000), [runs]);

  const options = useMemo(() => {
    // Binned series are bars spanning their bin; a bin's value is marked at its middle.
    const binSeconds = data.binSeconds;
    const bars = binSeconds !== undefined ? uPlot.paths.bars!({ size: [0.9, 48], align: 1 }) : undefined;
    const middle = binSeconds !== undefined ? binSeconds / 2 : 0;
    const values = data.series.flatMap((series) => series.values.filter((value): value is number => value !== null));
    const low = Math.min(0, ...values, ...(threshold !== undefined ? [threshold] : []));
    const high = Math.max(1, ...values, ...(threshold !== undefined ? [threshold] : []));
    const draw = (plot: uPlot) => {
      const ctx = plot.ctx;
      const { left, top, width, height } = plot.bbox;
      ctx.save();
      if (threshold !== undefined) {
        const y = plot.valToPos(threshold, 'y', true);
        ctx.strokeStyle = THRESHOLD_COLOR;
        ctx.lineWidth = 1.5 * devicePixelRatio;
        ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
        ctx.beginPath();
        ctx.moveTo(left, y);
        ctx.lineTo(left + width, y);
        ctx.stroke();
        ctx.setLineDash([]);
        if (operator) {
          ctx.strokeStyle = FIRE_COLOR;
          data.series.forEach((series) =>
            series.values.forEach((value, index) => {
              if (value === null || !crossesThreshold(value, operator, threshold)) return;
              const x = plot.valToPos(data.times[index]! + middle, 'x', true);
              const yValue = plot.valToPos(value, 'y', true);
              ctx.beginPath();
              ctx.arc(x, yValue, 5 * devicePixelRatio, 0, 2 * Math.PI);
              ctx.stroke();
            }),
          );
        }
      }
      ctx.strokeStyle = FIRE_COLOR;
      ctx.fillStyle = FIRE_COLOR;
      ctx.lineWidth = 2 * devicePixelRatio;
      for (const time of fired) {
        const x = plot.valToPos(time, 'x', true);
        if (x < left || x > left + width) continue;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
        ctx.beginPath();
        ctx.moveTo(x - 5 * devicePixelRatio, top);
        ctx.lineTo(x + 5 * devicePixelRatio, top);
        ctx.lineTo(x, top + 8 * devicePixelRatio);
        ctx.fill();
      }
      ctx.restore();
    };
    const chartOptions: Omit<uPlot.Options, 'width' | 'height'> = {
      legend: { show: false },
      scales: {
        x: { time: true, range: () => period },
        y: { range: () => [low, high * 1.08] },
      },
      axes: axes(undefined, formatNumber),
      series: [
        {},
        ...data.series.map((series, index) =>
          bars
            ? { label: series.label, stroke: seriesColor(index), fill: withAlpha(seriesColor(index), 0.45), width: 1, paths: bars, points: { show: false } }
            : { label: series.label, stroke: seriesColor(index), width: 1.5, points: { show: true, size: 4 } },
        ),
      ],
      hooks: { draw: [draw] },
    };
    return chartOptions;
  }, [data, fired, threshold, operator, period]);

  const plotData = useMemo<uPlot.AlignedData>(() => [data.times, ...data.series.map((series) => series.values)], [data]);
  const description = `Preview: ${data.series.length} series over ${data.times.length} points${threshold !== undefined ? `, threshold ${threshold}` : ''}, ${fired.length} run${fired.length === 1 ? '' : 's'} that would have fired`;
  return (
    <div className="preview-chart" role="img" aria-label={description}>
      <UplotChart options={options} data={plotData} height={240} />
    </div>
  );
}
