// The legend of a time series chart: one row per series with its min, max, average and last
// value (written as the chart's axis writes them: plain numbers, or money on the LLM costs
// page); the series name is a toggle button that shows or hides the series.
import { formatNumber } from './plot-options';
import type { ChartSeries } from './series';
import { seriesStats } from './series';

export interface ChartLegendProps {
  series: ChartSeries[];
  colors: string[];
  hidden: ReadonlySet<number>;
  onToggle(index: number): void;
  /** How a value reads (default: formatNumber). */
  format?: (value: number | undefined) => string;
}

export function ChartLegend({ series, colors, hidden, onToggle, format = formatNumber }: ChartLegendProps) {
  return (
    <div className="chart-legend-wrap">
      <table className="chart-legend">
        <caption className="visually-hidden">Series of the chart; the buttons show or hide them</caption>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Min</th>
            <th scope="col">Max</th>
            <th scope="col">Avg</th>
            <th scope="col">Last</th>
          </tr>
        </thead>
        <tbody>
          {series.map((one, index) => {
            const stats = seriesStats(one.values);
            const visible = !hidden.has(index);
            return (
              <tr key={`${one.aggregate}-${index}`} className={visible ? undefined : 'chart-legend-hidden'}>
                <th scope="row">
                  <button type="button" className="chart-legend-toggle" aria-pressed={visible} title={visible ? 'Hide this series' : 'Show this series'} onClick={() => onToggle(index)}>
                    <span className="chart-legend-swatch" style={{ background: colors[index] }} aria-hidden="true" />
                    <span className="chart-legend-label">{one.label}</span>
                  </button>
                </th>
                <td>{format(stats.min)}</td>
                <td>{format(stats.max)}</td>
                <td>{format(stats.avg)}</td>
                <td>{format(stats.last)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
