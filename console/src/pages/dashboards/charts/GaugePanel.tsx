// A gauge: the query's single value (read as a statistic reads it) on a half circle between min
// and max, over coloured threshold bands, the value written in its band's colour.
import { statisticOf } from '../answer-values';
import { formatValue } from '../chart-options';
import { arcPath, arcPoint, gaugeOptionsOf, gaugeScale } from '../gauge';
import type { PanelProps } from './panel-types';

const CENTER = { x: 100, y: 100 };
const RADIUS = 80;

export function GaugePanel({ chart, result, height }: PanelProps) {
  const options = gaugeOptionsOf(chart);
  const statistic = statisticOf(result?.answer);
  if (!statistic) return <p className="muted">No value</p>;
  const scale = gaugeScale(statistic.value, options);
  const span = scale.max - scale.min;
  const needle = arcPoint(scale.fraction, RADIUS - 22, CENTER);
  const color = scale.bands[scale.band]?.color ?? 'currentColor';
  const text = formatValue(statistic.value, options);
  const name = chart.name ?? statistic.field;
  return (
    <div className="dashboard-gauge">
      <svg
        viewBox="0 0 200 132"
        height={Math.max(40, height - 8)}
        role="meter"
        aria-valuenow={statistic.value}
        aria-valuemin={scale.min}
        aria-valuemax={scale.max}
        aria-valuetext={text}
        aria-label={`${name}: ${text}, between ${formatValue(scale.min, options)} and ${formatValue(scale.max, options)}`}
        data-band={scale.band}
      >
        {scale.bands.map((band, index) => (
          <path key={index} className="dashboard-gauge-band" d={arcPath((band.from - scale.min) / span, (band.to - scale.min) / span, RADIUS, CENTER)} stroke={band.color} data-band={index} />
        ))}
        <line className="dashboard-gauge-needle" x1={CENTER.x} y1={CENTER.y} x2={Math.round(needle.x * 100) / 100} y2={Math.round(needle.y * 100) / 100} />
        <text className="dashboard-gauge-value" x={CENTER.x} y={CENTER.y + 28} textAnchor="middle" fill={color}>
          {text}
        </text>
        <text className="dashboard-gauge-bound" x={CENTER.x - RADIUS} y={CENTER.y + 14} textAnchor="middle">
          {formatValue(scale.min, { ...options, unit: '' })}
        </text>
        <text className="dashboard-gauge-bound" x={CENTER.x + RADIUS} y={CENTER.y + 14} textAnchor="middle">
          {formatValue(scale.max, { ...options, unit: '' })}
        </text>
      </svg>
    </div>
  );
}
