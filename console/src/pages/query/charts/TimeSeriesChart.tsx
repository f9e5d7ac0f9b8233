// A time series chart of a binned aggregation: lines, areas or bars, linear or log scale, drag to
// pick a time range, annotations on the time axis, and the legend table that toggles series.
import { useCallback, useEffect, useMemo, useState } from 'react';
import uPlot from 'uplot';
import { AnnotationMarkers } from './AnnotationMarkers';
import { type AnnotationMark, drawAnnotations, type MarkerPosition, markerPositions } from './annotations';
import { ChartLegend } from './ChartLegend';
import { seriesColor, withAlpha } from './palette';
import { axes, formatNumber, type TimeZone, timeRange, tzDateOf } from './plot-options';
import type { TimeSeriesData } from './series';
import { UplotChart } from './UplotChart';

export type SeriesStyle = 'line' | 'area' | 'bars';

export interface TimeSeriesChartProps {
  data: TimeSeriesData;
  marks: AnnotationMark[];
  timeZone: TimeZone;
  description: string;
  onSelectRange(startSeconds: number, endSeconds: number): void;
}

const STYLES: { style: SeriesStyle; label: string }[] = [
  { style: 'line', label: 'Line' },
  { style: 'area', label: 'Area' },
  { style: 'bars', label: 'Bars' },
];

/**
 * Bars are stacked: series i is drawn as the sum of the visible series from i to the last, the
 * first (tallest) drawn first, so each series shows as its own segment of the stack.
 */
function stackedFromTop(data: TimeSeriesData, hidden: ReadonlySet<number>): (number | null)[][] {
  const stacked: (number | null)[][] = data.series.map(() => []);
  for (let slot = 0; slot < data.times.length; slot++) {
    let sum: number | null = null;
    for (let index = data.series.length - 1; index >= 0; index--) {
      const value = data.series[index]!.values[slot] ?? null;
      if (!hidden.has(index) && value !== null) sum = (sum ?? 0) + value;
      stacked[index]![slot] = hidden.has(index) || value === null ? null : sum;
    }
  }
  return stacked;
}

export function TimeSeriesChart({ data, marks, timeZone, description, onSelectRange }: TimeSeriesChartProps) {
  const [style, setStyle] = useState<SeriesStyle>('line');
  const [logScale, setLogScale] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [markers, setMarkers] = useState<MarkerPosition[]>([]);
  const colors = useMemo(() => data.series.map((_, index) => seriesColor(index)), [data]);
  useEffect(() => setHidden(new Set()), [data]);

  const plotData = useMemo<uPlot.AlignedData>(() => {
    // Stacking adds values up, which only means something for groups of one aggregate.
    const stack = style === 'bars' && new Set(data.series.map((series) => series.aggregate)).size === 1;
    const values = stack ? stackedFromTop(data, hidden) : data.series.map((series) => series.values);
    const shown = logScale ? values.map((line) => line.map((value) => (value !== null && value > 0 ? value : null))) : values;
    return [data.times, ...shown];
  }, [data, logScale, style, hidden]);

  const options = useMemo(() => {
    const bars = style === 'bars' ? uPlot.paths.bars!({ size: [0.8, 64], align: 1 }) : undefined;
    const range = timeRange(data.times, data.binSeconds);
    const tzDate = tzDateOf(timeZone);
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      ...(tzDate ? { tzDate } : {}),
      legend: { show: false },
      scales: {
        x: { time: true, ...(range ? { range: () => range } : {}) },
        y: logScale ? { distr: 3 } : { range: (_plot, min, max) => [Math.min(0, min), max > 0 ? max * 1.05 : 1] },
      },
      axes: axes(undefined, formatNumber),
      series: [
        {},
        ...data.series.map((series, index) => ({
          label: series.label,
          show: !hidden.has(index),
          stroke: colors[index]!,
          width: style === 'bars' ? 0 : 1.5,
          ...(style === 'area' ? { fill: withAlpha(colors[index]!, 0.18) } : {}),
          ...(bars ? { paths: bars, fill: colors[index]! } : {}),
          spanGaps: false,
        })),
      ],
      hooks: { draw: [drawAnnotations(marks)] },
    };
    return options;
  }, [data, colors, style, logScale, hidden, timeZone, marks]);

  const onDraw = useCallback(
    (plot: uPlot) => {
      const next = markerPositions(plot, marks);
      setMarkers((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
    },
    [marks],
  );

  const toggle = (index: number) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  return (
    <div className="result-chart">
      <div className="toolbar chart-toolbar" role="toolbar" aria-label="Chart display">
        <div className="chart-segments" role="group" aria-label="Chart style">
          {STYLES.map((option) => (
            <button key={option.style} type="button" className="button chart-segment" aria-pressed={style === option.style} onClick={() => setStyle(option.style)}>
              {option.label}
            </button>
          ))}
        </div>
        <button type="button" className="button chart-segment" aria-pressed={logScale} onClick={() => setLogScale((on) => !on)}>
          Log scale
        </button>
        <span className="muted chart-hint">Drag over the chart to zoom into a time range</span>
      </div>
      <div className="chart-plot-wrap">
        <div role="img" aria-label={description} className="chart-plot">
          <UplotChart options={options} data={plotData} height={260} onSelectRange={onSelectRange} onDraw={onDraw} />
        </div>
        <AnnotationMarkers markers={markers} />
      </div>
      <ChartLegend series={data.series} colors={colors} hidden={hidden} onToggle={toggle} />
    </div>
  );
}
