// A pie chart of one value per group, drawn as SVG slices with a legend of labels, values and
// shares (the legend is what screen readers and tests read).
import { labelledValues } from '../answer-values';
import { displayOptionsOf, formatValue } from '../chart-options';
import { seriesColor } from '../../query/charts/palette';
import type { PanelProps } from './panel-types';

function slicePath(startAngle: number, endAngle: number, radius: number): string {
  if (endAngle - startAngle >= Math.PI * 2 - 1e-9) return `M ${-radius} 0 A ${radius} ${radius} 0 1 1 ${radius} 0 A ${radius} ${radius} 0 1 1 ${-radius} 0 Z`;
  const x1 = radius * Math.cos(startAngle);
  const y1 = radius * Math.sin(startAngle);
  const x2 = radius * Math.cos(endAngle);
  const y2 = radius * Math.sin(endAngle);
  const large = endAngle - startAngle > Math.PI ? 1 : 0;
  return `M 0 0 L ${x1} ${y1} A ${radius} ${radius} 0 ${large} 1 ${x2} ${y2} Z`;
}

export function PiePanel({ chart, result, height }: PanelProps) {
  const display = displayOptionsOf(chart);
  const values = labelledValues(result?.answer).filter((entry) => entry.value > 0);
  const total = values.reduce((sum, entry) => sum + entry.value, 0);
  if (values.length === 0 || total <= 0) return <p className="muted">No values</p>;
  let angle = -Math.PI / 2;
  const size = Math.max(80, Math.min(height - 8, 240));
  return (
    <div className="dashboard-pie">
      <svg width={size} height={size} viewBox="-100 -100 200 200" role="img" aria-label={`Pie chart of ${values.length} groups, ${formatValue(total, display)} in all`}>
        {values.map((entry, index) => {
          const start = angle;
          angle += (entry.value / total) * Math.PI * 2;
          return <path key={entry.label} d={slicePath(start, angle, 95)} fill={seriesColor(index)} stroke="#fff" strokeWidth={1} />;
        })}
      </svg>
      <LabelledValueList values={values} total={total} unit={display.unit} decimals={display.decimals} label={`${chart.name ?? 'Pie'} values`} />
    </div>
  );
}

export function LabelledValueList({ values, total, unit, decimals, label }: { values: { label: string; value: number }[]; total: number; unit: string; decimals?: number | undefined; label: string }) {
  return (
    <table className="dashboard-values" aria-label={label}>
      <tbody>
        {values.map((entry, index) => (
          <tr key={entry.label}>
            <th scope="row">
              <span className="chart-legend-swatch" style={{ background: seriesColor(index) }} aria-hidden="true" /> {entry.label}
            </th>
            <td>{formatValue(entry.value, { unit, ...(decimals !== undefined ? { decimals } : {}) })}</td>
            <td className="muted">{total > 0 ? `${Math.round((entry.value / total) * 1000) / 10}%` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
