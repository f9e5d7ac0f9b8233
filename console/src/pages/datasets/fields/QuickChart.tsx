// A field's quick chart, run through the tabular query API as the Query page runs APL: numbers
// get their statistics and a histogram, other values their top values, times the count of
// events over time. "Open in Query" carries the same query to the Query page.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { rowAt, rowCount, runApl, type TabularAnswer } from '../../../api/query';
import { ResultChart } from '../../query/charts/ResultChart';
import { handOffSearch } from '../../query/hand-off';
import { QUICK_RANGES } from '../../query/time-range';
import type { DatasetField } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { useLoaded } from '../useLoaded';
import { type Bar, BarList } from './BarList';
import { chartKindOf } from './field-tree';
import { bucketWidth, countOverTimeQuery, histogramQuery, numberStatsQuery, topValuesQuery } from './quick-queries';

type Chart =
  | { kind: 'values'; apl: string; bars: Bar[] }
  | { kind: 'numbers'; apl: string; stats: Record<string, number | null>; bars: Bar[] }
  | { kind: 'time'; apl: string; answer: TabularAnswer };

const rowsOf = (answer: TabularAnswer) => {
  const table = answer.tables[0];
  return table ? Array.from({ length: rowCount(table) }, (_, index) => rowAt(table, index)) : [];
};

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : value === null || value === undefined ? null : Number(value));

async function loadChart(dataset: string, field: DatasetField, start: string, signal: AbortSignal): Promise<Chart> {
  const range = { startTime: start, endTime: 'now' };
  const kind = chartKindOf(field);
  if (kind === 'time') {
    const apl = countOverTimeQuery(dataset, field.name);
    return { kind, apl, answer: await runApl({ apl, ...range }, signal) };
  }
  if (kind === 'values') {
    const apl = topValuesQuery(dataset, field.name);
    const bars = rowsOf(await runApl({ apl, ...range }, signal)).map((row) => ({ label: String(row.value ?? '(null)'), value: Number(row.events ?? 0) }));
    return { kind, apl, bars };
  }
  const apl = numberStatsQuery(dataset, field.name);
  const stats = Object.fromEntries(Object.entries(rowsOf(await runApl({ apl, ...range }, signal))[0] ?? {}).map(([key, value]) => [key, numberOrNull(value)]));
  const minimum = stats.minimum;
  const maximum = stats.maximum;
  if (minimum === null || minimum === undefined || maximum === null || maximum === undefined || !stats.events) return { kind, apl, stats, bars: [] };
  const width = bucketWidth(minimum, maximum);
  const histogram = rowsOf(await runApl({ apl: histogramQuery(dataset, field.name, minimum, width), ...range }, signal));
  const bars = histogram.map((row) => {
    const low = minimum + Number(row.bucket ?? 0);
    return { label: `${formatNumber(low)} – ${formatNumber(low + width)}`, value: Number(row.events ?? 0) };
  });
  return { kind, apl, stats, bars };
}

function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return Math.abs(value) >= 1e6 || (value !== 0 && Math.abs(value) < 1e-3) ? value.toExponential(3) : String(Math.round(value * 1000) / 1000);
}

const STAT_LABELS: [string, string][] = [
  ['events', 'Events'],
  ['minimum', 'Min'],
  ['average', 'Average'],
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p99', 'p99'],
  ['maximum', 'Max'],
];

export function QuickChart({ dataset, field }: { dataset: string; field: DatasetField }) {
  const { org } = useParams();
  const [start, setStart] = useState('now-7d');
  const [chart] = useLoaded((signal) => loadChart(dataset, field, start, signal), [dataset, field.name, field.type, start]);
  const title = { time: 'Events over time', values: 'Top values', numbers: 'Distribution' }[chartKindOf(field)];

  return (
    <section className="quick-chart" aria-label={`Quick chart of ${field.name}`}>
      <div className="toolbar">
        <h3>{title}</h3>
        <label>
          <span className="visually-hidden">Time range of the chart</span>
          <select aria-label="Time range of the chart" value={start} onChange={(event) => setStart(event.target.value)}>
            {QUICK_RANGES.map((range) => (
              <option key={range.start} value={range.start}>
                {range.label}
              </option>
            ))}
          </select>
        </label>
        {chart.phase === 'done' && (
          <Link className="button small" to={`/${encodeURIComponent(org!)}/query?${handOffSearch({ apl: chart.value.apl, start, end: 'now' })}`}>
            Open in Query
          </Link>
        )}
      </div>
      {chart.phase === 'loading' && <p className="muted">Running…</p>}
      {chart.phase === 'error' && <ErrorBox message={chart.message} />}
      {chart.phase === 'done' && chart.value.kind === 'values' && <BarList bars={chart.value.bars} label={`Top values of ${field.name}`} />}
      {chart.phase === 'done' && chart.value.kind === 'numbers' && <NumberSummary field={field.name} stats={chart.value.stats} bars={chart.value.bars} />}
      {chart.phase === 'done' && chart.value.kind === 'time' && <TimeChart answer={chart.value.answer} />}
    </section>
  );
}

function NumberSummary({ field, stats, bars }: { field: string; stats: Record<string, number | null>; bars: Bar[] }) {
  return (
    <div role="group" aria-label={`Statistics of ${field}`}>
      <dl className="stats-list">
        {STAT_LABELS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{key === 'events' ? Number(stats.events ?? 0).toLocaleString('en-US') : formatNumber(stats[key])}</dd>
          </div>
        ))}
      </dl>
      <BarList bars={bars} label={`Histogram of ${field}`} />
    </div>
  );
}

function TimeChart({ answer }: { answer: TabularAnswer }) {
  const table = answer.tables[0];
  if (!table || rowCount(table) === 0) return <p className="muted">No events in the time range.</p>;
  return <ResultChart answer={answer} timeZone="local" onZoom={() => undefined} />;
}
