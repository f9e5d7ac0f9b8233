// A gauge's numbers: its range, its threshold bands and their colours, and where a value sits on
// the arc. Axiom's gauge compares one value with coloured segments on a colour scale (green to
// red or red to green), but Axiom's public dashboard document describes no gauge; this console
// stores one as a chart of type "Gauge" with a query, like a statistic, and these options:
//   options: { min?: number, max?: number, unit?: string, decimals?: number,
//              thresholds?: [{ value: number }], colorScale?: "greenToRed" | "redToGreen" }
// The thresholds cut [min, max] into bands; band i runs from threshold i - 1 to threshold i.
import type { DashboardChart } from '../../api/dashboards';
import { displayOptionsOf } from './chart-options';

export type ColorScale = 'greenToRed' | 'redToGreen';

export interface GaugeOptions {
  min?: number;
  max?: number;
  unit: string;
  decimals?: number;
  /** Band boundaries inside the range, ascending. */
  thresholds: number[];
  colorScale: ColorScale;
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export function gaugeOptionsOf(chart: DashboardChart): GaugeOptions {
  const raw = (typeof chart.options === 'object' && chart.options !== null ? chart.options : {}) as Record<string, unknown>;
  const display = displayOptionsOf(chart);
  const min = finite(raw.min);
  const max = finite(raw.max);
  return {
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    unit: display.unit,
    ...(display.decimals !== undefined ? { decimals: display.decimals } : {}),
    thresholds: [...new Set(display.thresholds.map((threshold) => threshold.value))].sort((a, b) => a - b),
    colorScale: raw.colorScale === 'redToGreen' ? 'redToGreen' : 'greenToRed',
  };
}

export interface GaugeBand {
  from: number;
  to: number;
  color: string;
}

export interface GaugeScale {
  min: number;
  max: number;
  bands: GaugeBand[];
  /** The band the value falls in. */
  band: number;
  /** Where the value sits between min (0) and max (1), clamped. */
  fraction: number;
}

/** The colour of band `index` of `count`, from green to red (or the other way). */
export function bandColor(index: number, count: number, scale: ColorScale): string {
  const step = count > 1 ? index / (count - 1) : 0;
  const hue = Math.round(scale === 'greenToRed' ? 130 * (1 - step) : 130 * step);
  return `hsl(${hue}, 70%, 36%)`;
}

/** The gauge's range (min defaults to 0, max to a round number above the value and thresholds) and bands. */
export function gaugeScale(value: number, options: GaugeOptions): GaugeScale {
  const min = options.min ?? Math.min(0, value);
  const highest = Math.max(value, ...options.thresholds, min + 1);
  const magnitude = 10 ** Math.floor(Math.log10(Math.abs(highest) || 1));
  const max = options.max !== undefined && options.max > min ? options.max : Math.ceil((highest * 1.1) / magnitude) * magnitude;
  const inside = options.thresholds.filter((threshold) => threshold > min && threshold < max);
  const edges = [min, ...inside, max];
  const count = edges.length - 1;
  const bands = edges.slice(1).map((to, index) => ({ from: edges[index]!, to, color: bandColor(index, count, options.colorScale) }));
  const band = inside.filter((threshold) => value >= threshold).length;
  const fraction = Math.min(1, Math.max(0, (value - min) / (max - min)));
  return { min, max, bands, band, fraction };
}

/** A point on the gauge's half circle, fraction 0 on the left and 1 on the right. */
export function arcPoint(fraction: number, radius: number, center: { x: number; y: number }): { x: number; y: number } {
  const angle = Math.PI * (1 - fraction);
  return { x: center.x + radius * Math.cos(angle), y: center.y - radius * Math.sin(angle) };
}

/** An SVG path along the half circle between two fractions. */
export function arcPath(from: number, to: number, radius: number, center: { x: number; y: number }): string {
  const start = arcPoint(from, radius, center);
  const end = arcPoint(to, radius, center);
  const round = (n: number) => Math.round(n * 100) / 100;
  return `M ${round(start.x)} ${round(start.y)} A ${radius} ${radius} 0 0 1 ${round(end.x)} ${round(end.y)}`;
}
