// A small bar strip of the count over time of the events a raw query reads, above its results:
// the query's source and leading filters, counted by bin_auto(_time). Drag over it to zoom.
import { useEffect, useMemo, useState } from 'react';
import uPlot from 'uplot';
import { runApl } from '../../../api/query';
import { countOverTimeQuery } from './derived-queries';
import { axes, formatNumber, type TimeZone, timeRange, tzDateOf } from './plot-options';
import { extractTimeSeries, type TimeSeriesData } from './series';
import { UplotChart } from './UplotChart';
import './charts.css';

export interface CountStripProps {
  apl: string;
  start: string;
  end: string;
  timeZone: TimeZone;
  onZoom(range: { start: Date; end: Date }): void;
}

type StripState = { status: 'idle' } | { status: 'loaded'; data: TimeSeriesData; total: number } | { status: 'failed'; message: string };

export function CountStrip({ apl, start, end, timeZone, onZoom }: CountStripProps) {
  const query = useMemo(() => countOverTimeQuery(apl), [apl]);
  const [state, setState] = useState<StripState>({ status: 'idle' });

  useEffect(() => {
    if (!query) return undefined;
    const controller = new AbortController();
    runApl({ apl: query, startTime: start, endTime: end }, controller.signal)
      .then((answer) => {
        const data = extractTimeSeries(answer) ?? { times: [], series: [] };
        const total = (data.series[0]?.values ?? []).reduce<number>((sum, value) => sum + (value ?? 0), 0);
        setState({ status: 'loaded', data, total });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [query, start, end]);

  const options = useMemo(() => {
    if (state.status !== 'loaded') return undefined;
    const range = timeRange(state.data.times, state.data.binSeconds);
    const tzDate = tzDateOf(timeZone);
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      ...(tzDate ? { tzDate } : {}),
      legend: { show: false },
      padding: [4, 8, 0, 0],
      scales: { x: { time: true, ...(range ? { range: () => range } : {}) }, y: { range: (_plot, _min, max) => [0, max > 0 ? max : 1] } },
      axes: [{ ...axes()[0], size: 24, font: '11px system-ui, sans-serif' }, { ...axes(undefined, formatNumber)[1], size: 48, font: '11px system-ui, sans-serif', ticks: { show: false } }],
      series: [{}, { label: 'count', stroke: '#3a5bd9', fill: 'rgba(58, 91, 217, 0.55)', width: 0, points: { show: false }, paths: uPlot.paths.bars!({ size: [0.9, 40], align: 1 }) }],
    };
    return options;
  }, [state, timeZone]);

  const plotData = useMemo<uPlot.AlignedData>(() => (state.status === 'loaded' ? [state.data.times, state.data.series[0]?.values ?? []] : [[]]), [state]);

  if (!query) return null;
  if (state.status === 'failed') return <p className="muted count-strip">Event count unavailable: {state.message}</p>;
  if (state.status !== 'loaded' || !options) return <div className="count-strip" aria-busy="true" />;
  const { data, total } = state;
  const description = `Event count over time: ${formatNumber(total)} events in ${data.times.length} time bins`;
  return (
    <section className="count-strip" aria-label="Event count over time">
      <div className="count-strip-label muted">
        <span>{formatNumber(total)} events</span>
        <span>Drag to zoom</span>
      </div>
      <div role="img" aria-label={description}>
        <UplotChart options={options} data={plotData} height={90} onSelectRange={(from, to) => onZoom({ start: new Date(from * 1000), end: new Date(to * 1000) })} />
      </div>
    </section>
  );
}
