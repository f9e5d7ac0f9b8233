// A time series chart of a dashboard: the answer's series in the chart's style and scale, the
// comparison period dotted, threshold lines, the dashboard's shared crosshair, annotations with
// their markers, dragging to set the dashboard's time range, and "Add annotation" at a picked time.
import { useCallback, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { AnnotationMarkers } from '../../query/charts/AnnotationMarkers';
import { annotationMarks, drawAnnotations, type MarkerPosition, markerPositions } from '../../query/charts/annotations';
import { ChartLegend } from '../../query/charts/ChartLegend';
import { seriesColor, withAlpha } from '../../query/charts/palette';
import { axes, timeRange, tzDateOf } from '../../query/charts/plot-options';
import { extractTimeSeries, type ChartSeries } from '../../query/charts/series';
import { UplotChart } from '../../query/charts/UplotChart';
import { displayOptionsOf, formatValue, type Threshold } from '../chart-options';
import { AnnotationForm } from './AnnotationForm';
import type { PanelProps } from './panel-types';

const THRESHOLD = '#c62828';

function drawThresholds(thresholds: Threshold[]): (plot: uPlot) => void {
  return (plot) => {
    if (thresholds.length === 0) return;
    const { ctx, bbox } = plot;
    ctx.save();
    ctx.strokeStyle = THRESHOLD;
    ctx.lineWidth = Math.max(1, devicePixelRatio);
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    for (const threshold of thresholds) {
      const y = Math.round(plot.valToPos(threshold.value, 'y', true)) + 0.5;
      if (y < bbox.top || y > bbox.top + bbox.height) continue;
      ctx.beginPath();
      ctx.moveTo(bbox.left, y);
      ctx.lineTo(bbox.left + bbox.width, y);
      ctx.stroke();
    }
    ctx.restore();
  };
}

/** Values of `times` looked up on a union axis (null where a series has no bin). */
function onAxis(axis: number[], times: number[], values: (number | null)[]): (number | null)[] {
  const slot = new Map(times.map((time, index) => [time, index]));
  return axis.map((time) => {
    const index = slot.get(time);
    return index === undefined ? null : (values[index] ?? null);
  });
}

export function TimeSeriesPanel({ chart, result, height, context }: PanelProps) {
  const display = displayOptionsOf(chart);
  const data = useMemo(() => (result?.answer ? extractTimeSeries(result.answer) : undefined), [result?.answer]);
  const past = useMemo(() => (result?.against ? extractTimeSeries(result.against) : undefined), [result?.against]);
  const shift = result?.shiftSeconds ?? 0;
  const marks = useMemo(() => annotationMarks(result?.answer?.annotations), [result?.answer]);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [markers, setMarkers] = useState<MarkerPosition[]>([]);
  const [picking, setPicking] = useState(false);
  const [pickedTime, setPickedTime] = useState<Date | undefined>();
  const plotRef = useRef<uPlot | null>(null);
  const colors = useMemo(() => (data?.series ?? []).map((_, index) => seriesColor(index)), [data]);

  const axis = useMemo(() => {
    if (!data) return [];
    const shifted = past ? past.times.map((time) => time + shift) : [];
    return [...new Set([...data.times, ...shifted])].sort((a, b) => a - b);
  }, [data, past, shift]);

  const pastSeries: ChartSeries[] = useMemo(() => past?.series ?? [], [past]);

  const plotData = useMemo<uPlot.AlignedData>(() => {
    if (!data) return [[]];
    const log = display.yScale === 'log';
    const clean = (line: (number | null)[]) => (log ? line.map((value) => (value !== null && value > 0 ? value : null)) : line);
    const current = data.series.map((series) => clean(onAxis(axis, data.times, series.values)));
    const earlier = pastSeries.map((series) => clean(onAxis(axis, past!.times.map((time) => time + shift), series.values)));
    return [axis, ...current, ...earlier];
  }, [data, past, pastSeries, axis, shift, display.yScale]);

  const thresholdsKey = JSON.stringify(display.thresholds);
  const options = useMemo(() => {
    if (!data) return undefined;
    const range = timeRange(axis, data.binSeconds);
    const tzDate = tzDateOf(context.timeZone);
    const bars = display.seriesStyle === 'bars' ? uPlot.paths.bars!({ size: [0.8, 64], align: 1 }) : undefined;
    const yRange: uPlot.Scale['range'] =
      display.yScale === 'log'
        ? undefined
        : (_plot, min, max) => [display.yMin ?? Math.min(0, min), display.yMax ?? (max > 0 ? max * 1.05 : 1)];
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      ...(tzDate ? { tzDate } : {}),
      legend: { show: false },
      cursor: { sync: { key: context.syncKey, setSeries: false } },
      scales: {
        x: { time: true, ...(range ? { range: () => range } : {}) },
        y: display.yScale === 'log' ? { distr: 3 } : { ...(yRange ? { range: yRange } : {}) },
      },
      axes: axes(undefined, (value) => formatValue(value, display)),
      series: [
        {},
        ...data.series.map((series, index) => ({
          label: series.label,
          show: !hidden.has(index),
          stroke: colors[index]!,
          width: display.seriesStyle === 'bars' ? 0 : 1.5,
          ...(display.seriesStyle === 'area' ? { fill: withAlpha(colors[index]!, 0.18) } : {}),
          ...(bars ? { paths: bars, fill: colors[index]! } : {}),
          spanGaps: false,
        })),
        ...pastSeries.map((series, index) => ({
          label: `${series.label} (earlier)`,
          stroke: withAlpha(seriesColor(index), 0.7),
          width: 1.5,
          dash: [4, 4],
          spanGaps: true,
        })),
      ],
      hooks: { draw: [drawAnnotations(marks), drawThresholds(JSON.parse(thresholdsKey) as Threshold[])] },
    };
    return options;
    // The display options are read through their JSON so an equal copy does not rebuild the plot.
  }, [data, pastSeries, axis, hidden, colors, marks, context.syncKey, context.timeZone, display.seriesStyle, display.yScale, display.yMin, display.yMax, display.unit, display.decimals, thresholdsKey]);

  const onDraw = useCallback(
    (plot: uPlot) => {
      plotRef.current = plot;
      const next = markerPositions(plot, marks);
      setMarkers((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
    },
    [marks],
  );

  const pick = (event: React.MouseEvent<HTMLDivElement>) => {
    const plot = plotRef.current;
    if (!picking || !plot) return;
    const over = plot.over.getBoundingClientRect();
    const x = event.clientX - over.left;
    if (x < 0 || x > over.width) return;
    setPickedTime(new Date(plot.posToVal(x, 'x') * 1000));
    setPicking(false);
  };

  if (!data || !options) return <p className="muted">This query does not draw over time: summarize it by bin_auto(_time).</p>;
  const bins = data.times.length;
  const description = `Time series chart of ${chart.name ?? 'the query'}: ${data.series.length} series over ${bins} time bins${pastSeries.length > 0 ? `, compared with ${pastSeries.length} series of an earlier period (dotted)` : ''}`;
  const legendHeight = Math.min(110, 10 + 25 * (data.series.length + 1));
  return (
    <div className="dashboard-timeseries">
      <div className="toolbar dashboard-chart-actions">
        <button type="button" className="button small" aria-pressed={picking} onClick={() => setPicking((on) => !on)}>
          Add annotation
        </button>
        {picking ? <span className="muted chart-hint">Click the chart at the annotation's time</span> : null}
      </div>
      <div className={`chart-plot-wrap${picking ? ' picking' : ''}`} onClick={pick}>
        <div role="img" aria-label={description} className="chart-plot">
          <UplotChart options={options} data={plotData} height={Math.max(80, height - legendHeight - 34)} onSelectRange={picking ? undefined : context.onSelectRange} onDraw={onDraw} />
        </div>
        <AnnotationMarkers markers={markers} />
      </div>
      <ChartLegend
        series={data.series}
        colors={colors}
        hidden={hidden}
        onToggle={(index) =>
          setHidden((current) => {
            const next = new Set(current);
            if (next.has(index)) next.delete(index);
            else next.add(index);
            return next;
          })
        }
      />
      {pickedTime ? (
        <AnnotationForm
          time={pickedTime}
          datasets={result?.answer?.datasetNames ?? []}
          timeZone={context.timeZone}
          onDone={(added) => {
            setPickedTime(undefined);
            if (added) context.onAnnotationAdded();
          }}
        />
      ) : null}
    </div>
  );
}
