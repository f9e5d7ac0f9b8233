// A scatter plot of the answer's first two numeric columns, drawn by uPlot as points only.
import { useMemo } from 'react';
import type uPlot from 'uplot';
import { axes, formatNumber } from '../../query/charts/plot-options';
import { UplotChart } from '../../query/charts/UplotChart';
import { scatterPoints } from '../answer-values';
import type { PanelProps } from './panel-types';

export function ScatterPanel({ chart, result, height }: PanelProps) {
  const points = useMemo(() => scatterPoints(result?.answer), [result?.answer]);
  const data = useMemo<uPlot.AlignedData>(() => {
    if (!points) return [[]];
    const sorted = [...points.points].sort((a, b) => a.x - b.x);
    return [sorted.map((point) => point.x), sorted.map((point) => point.y)];
  }, [points]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      mode: 1,
      legend: { show: false },
      scales: { x: { time: false } },
      axes: [{ ...axes()[0], label: points?.xField, labelSize: 18 }, axes(points?.yField, formatNumber)[1]!],
      series: [{}, { label: points?.yField ?? 'y', stroke: '#3a5bd9', width: 0, paths: () => null, points: { show: true, size: 5, fill: '#3a5bd9' } }],
    }),
    [points],
  );
  if (!points) return <p className="muted">A scatter plot needs two numeric columns</p>;
  return (
    <div role="img" aria-label={`Scatter plot of ${chart.name ?? points.yField}: ${points.points.length} points, ${points.yField} by ${points.xField}`}>
      <UplotChart options={options} data={data} height={Math.max(80, height)} />
    </div>
  );
}
