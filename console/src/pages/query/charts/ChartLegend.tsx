// The legend of a time series chart: one row per series with its min, max, average and last
// value; the series name is a toggle button that shows or hides the series.
import { formatNumber } from './plot-options';
import type { ChartSeries } from './series';
import { seriesStats } from './series';

export interface ChartLegendProps {
  series: ChartSeries[];
  colors: string[];
  hidden: ReadonlySet<number>;
  onToggle(index: number): void;
}

export function ChartLegend({ series, colors, hidden, onToggle }: ChartLegendProps) {
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
                <td>{formatNumber(stats.min)}</td>
                <td>{formatNumber(stats.max)}</td>
                <td>{formatNumber(stats.avg)}</td>
                <td>{formatNumber(stats.last)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
