// Spend over time as stacked bars, one colour per group (model, provider or service), with the
// catalog's price changes marked on the time axis and the legend that hides or shows a group.
// Dragging over it reports a time range to zoom to.
import { useCallback, useEffect, useMemo, useState } from 'react';
import uPlot from 'uplot';
import { AnnotationMarkers } from '../query/charts/AnnotationMarkers';
import { type AnnotationMark, drawAnnotations, type MarkerPosition, markerPositions } from '../query/charts/annotations';
import { ChartLegend } from '../query/charts/ChartLegend';
import { seriesColor } from '../query/charts/palette';
import { axes, type TimeZone, timeRange, tzDateOf } from '../query/charts/plot-options';
import type { TimeSeriesData } from '../query/charts/series';
import { UplotChart } from '../query/charts/UplotChart';
import '../query/charts/charts.css';
import { formatUsd } from '../models/format';

export interface SpendChartProps {
  data: TimeSeriesData;
  marks: AnnotationMark[];
  timeZone: TimeZone;
  description: string;
  onSelectRange(startSeconds: number, endSeconds: number): void;
}

/** Series i drawn as the sum of the visible series i..last, tallest first, so each shows as its own segment. */
function stacked(data: TimeSeriesData, hidden: ReadonlySet<number>): (number | null)[][] {
  const result: (number | null)[][] = data.series.map(() => []);
  for (let slot = 0; slot < data.times.length; slot++) {
    let sum = 0;
    for (let index = data.series.length - 1; index >= 0; index--) {
      const value = data.series[index]!.values[slot] ?? 0;
      if (!hidden.has(index)) sum += value;
      result[index]![slot] = hidden.has(index) ? null : sum;
    }
  }
  return result;
}

export function SpendChart({ data, marks, timeZone, description, onSelectRange }: SpendChartProps) {
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [markers, setMarkers] = useState<MarkerPosition[]>([]);
  const colors = useMemo(() => data.series.map((_, index) => seriesColor(index)), [data]);
  useEffect(() => setHidden(new Set()), [data]);

  const plotData = useMemo<uPlot.AlignedData>(() => [data.times, ...stacked(data, hidden)], [data, hidden]);
  const options = useMemo(() => {
    const bars = uPlot.paths.bars!({ size: [0.8, 64], align: 1 });
    const range = timeRange(data.times, data.binSeconds);
    const tzDate = tzDateOf(timeZone);
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      ...(tzDate ? { tzDate } : {}),
      legend: { show: false },
      scales: { x: { time: true, ...(range ? { range: () => range } : {}) }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.05 : 1] } },
      axes: axes('USD', (value) => formatUsd(value)),
      series: [{}, ...data.series.map((series, index) => ({ label: series.label, show: !hidden.has(index), stroke: colors[index]!, fill: colors[index]!, width: 0, paths: bars, points: { show: false } }))],
      hooks: { draw: [drawAnnotations(marks)] },
    };
    return options;
  }, [data, colors, hidden, timeZone, marks]);

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
      <div className="chart-plot-wrap">
        <div role="img" aria-label={description} className="chart-plot">
          <UplotChart options={options} data={plotData} height={240} onSelectRange={onSelectRange} onDraw={onDraw} />
        </div>
        <AnnotationMarkers markers={markers} />
      </div>
      <ChartLegend series={data.series} colors={colors} hidden={hidden} onToggle={toggle} format={formatUsd} />
    </div>
  );
}
