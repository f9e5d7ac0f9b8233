// Top values: the largest groups of the answer as horizontal bars, largest first (ten by
// default, or the chart's `limit`).
import { labelledValues } from '../answer-values';
import { displayOptionsOf, formatValue } from '../chart-options';
import type { PanelProps } from './panel-types';

export function TopKPanel({ chart, result, height }: PanelProps) {
  const display = displayOptionsOf(chart);
  const limit = typeof chart.limit === 'number' && chart.limit > 0 ? chart.limit : 10;
  const values = labelledValues(result?.answer).slice(0, limit);
  if (values.length === 0) return <p className="muted">No values</p>;
  const max = Math.max(...values.map((entry) => entry.value), 0);
  return (
    <ol className="dashboard-topk" style={{ maxHeight: height }} aria-label={`${chart.name ?? 'Top values'}`}>
      {values.map((entry) => (
        <li key={entry.label}>
          <span className="dashboard-topk-label">{entry.label}</span>
          <span className="dashboard-topk-bar" aria-hidden="true">
            <span style={{ width: `${max > 0 ? (Math.max(entry.value, 0) / max) * 100 : 0}%` }} />
          </span>
          <span className="dashboard-topk-value">{formatValue(entry.value, display)}</span>
        </li>
      ))}
    </ol>
  );
}
