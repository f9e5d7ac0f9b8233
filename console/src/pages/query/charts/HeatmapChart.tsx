// A heatmap of a histogram() aggregation over time bins: time across, the histogram's buckets up,
// the colour of each cell its count. uPlot supplies the axes, cursor and drag; a draw hook
// paints the cells.
import { useCallback, useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { AnnotationMarkers } from './AnnotationMarkers';
import { type AnnotationMark, drawAnnotations, type MarkerPosition, markerPositions } from './annotations';
import { heatColor } from './palette';
import { axes, formatNumber, type TimeZone, timeRange, tzDateOf } from './plot-options';
import type { HeatmapData } from './series';
import { UplotChart } from './UplotChart';

export interface HeatmapChartProps {
  data: HeatmapData;
  marks: AnnotationMark[];
  timeZone: TimeZone;
  description: string;
  onSelectRange(startSeconds: number, endSeconds: number): void;
}

function drawCells(data: HeatmapData, binSeconds: number): (plot: uPlot) => void {
  return (plot) => {
    const { ctx, bbox } = plot;
    ctx.save();
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
    ctx.clip();
    data.times.forEach((time, timeIndex) => {
      const x0 = plot.valToPos(time, 'x', true);
      const x1 = plot.valToPos(time + binSeconds, 'x', true);
      const line = data.counts[timeIndex]!;
      data.buckets.forEach((bound, bucketIndex) => {
        const count = line[bucketIndex]!;
        if (count <= 0) return;
        const y0 = plot.valToPos(bound, 'y', true);
        const y1 = plot.valToPos(bound + data.bucketWidth, 'y', true);
        ctx.fillStyle = heatColor(data.maxCount > 0 ? count / data.maxCount : 0);
        ctx.fillRect(x0, y1, Math.max(x1 - x0 - 1, 1), Math.max(y0 - y1 - 1, 1));
      });
    });
    ctx.restore();
  };
}

export function HeatmapChart({ data, marks, timeZone, description, onSelectRange }: HeatmapChartProps) {
  const [markers, setMarkers] = useState<MarkerPosition[]>([]);
  const plotData = useMemo<uPlot.AlignedData>(() => [data.times, data.times.map(() => null)], [data]);
  const options = useMemo(() => {
    const range = timeRange(data.times, data.binSeconds);
    const binSeconds = range && data.times.length > 0 ? range[1] - data.times[data.times.length - 1]! : 60;
    const low = data.buckets[0] ?? 0;
    const high = (data.buckets[data.buckets.length - 1] ?? 0) + data.bucketWidth;
    const tzDate = tzDateOf(timeZone);
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      ...(tzDate ? { tzDate } : {}),
      legend: { show: false },
      scales: { x: { time: true, ...(range ? { range: () => range } : {}) }, y: { range: () => [low, high] } },
      axes: axes(data.valueField ?? data.aggregate, formatNumber),
      series: [{}, { label: data.aggregate, stroke: 'transparent', points: { show: false }, paths: () => null }],
      hooks: { draw: [drawCells(data, binSeconds), drawAnnotations(marks)] },
    };
    return options;
  }, [data, timeZone, marks]);

  const onDraw = useCallback(
    (plot: uPlot) => {
      const next = markerPositions(plot, marks);
      setMarkers((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
    },
    [marks],
  );

  return (
    <div className="result-chart result-heatmap">
      <div className="chart-plot-wrap">
        <div role="img" aria-label={description} className="chart-plot">
          <UplotChart options={options} data={plotData} height={280} onSelectRange={onSelectRange} onDraw={onDraw} />
        </div>
        <AnnotationMarkers markers={markers} />
      </div>
      <div className="heatmap-scale muted">
        <span>0</span>
        <span className="heatmap-scale-bar" aria-hidden="true" />
        <span>{formatNumber(data.maxCount)} events per cell</span>
      </div>
    </div>
  );
}
