// A statistic: one big number (the whole period's total for counts and sums over time bins, the
// value otherwise) in the chart's unit, coloured when it crosses a threshold.
import { displayOptionsOf, formatValue } from '../chart-options';
import { statisticOf } from '../answer-values';
import type { PanelProps } from './panel-types';

export function StatisticPanel({ chart, result }: PanelProps) {
  const display = displayOptionsOf(chart);
  const statistic = statisticOf(result?.answer);
  if (!statistic) return <p className="muted">No value</p>;
  const crossed = display.thresholds.some((threshold) => statistic.value >= threshold.value);
  return (
    <div className="dashboard-statistic">
      <output className={`dashboard-statistic-value${crossed ? ' over-threshold' : ''}`} aria-label={`${chart.name ?? statistic.field}: ${statistic.value}`}>
        {formatValue(statistic.value, display)}
      </output>
      <span className="muted">{statistic.field}</span>
    </div>
  );
}
