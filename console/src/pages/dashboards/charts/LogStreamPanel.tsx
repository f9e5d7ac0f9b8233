// A log stream: the answer's rows as events, newest first as the query orders them, each with
// its time and its other fields in one line (up to 500 rows).
import { displayValue } from '../../query/charts/series';
import type { PanelProps } from './panel-types';

const MAX_EVENTS = 500;

export function LogStreamPanel({ chart, result, height }: PanelProps) {
  const table = result?.answer?.tables[0];
  const rows = Math.min(table?.columns[0]?.length ?? 0, MAX_EVENTS);
  if (!table || rows === 0) return <p className="muted">No events</p>;
  const timeIndex = table.fields.findIndex((field) => field.name === '_time');
  return (
    <ol className="dashboard-logstream mono" style={{ maxHeight: height }} tabIndex={0} aria-label={`${chart.name ?? 'Log stream'}: ${rows} events`}>
      {Array.from({ length: rows }, (_, row) => (
        <li key={row}>
          {timeIndex >= 0 ? <time className="muted">{displayValue(table.columns[timeIndex]?.[row])}</time> : null}{' '}
          {table.fields
            .map((field, column) => ({ field, column }))
            .filter(({ column }) => column !== timeIndex && table.columns[column]?.[row] !== null && table.columns[column]?.[row] !== undefined)
            .map(({ field, column }) => `${field.name}=${displayValue(table.columns[column]?.[row])}`)
            .join(' ')}
        </li>
      ))}
    </ol>
  );
}
