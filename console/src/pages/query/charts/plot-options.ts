// Options every chart of the Query page shares: the time zone of the axis (uPlot reads dates
// through `tzDate`), the console's colours for axes and grid, and the x range covering whole bins.
import uPlot from 'uplot';

export type TimeZone = 'local' | 'UTC';

/** uPlot's date reader for the chosen zone (undefined = the browser's local zone). */
export function tzDateOf(timeZone: TimeZone): ((seconds: number) => Date) | undefined {
  return timeZone === 'UTC' ? (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC') : undefined;
}

const AXIS_STROKE = '#59606a';
const GRID = { stroke: '#e6e9ee', width: 1 };

/** The time axis and a value axis in the console's colours. */
export function axes(valueLabel?: string, valueFormat?: (value: number) => string): uPlot.Axis[] {
  return [
    // Time labels ("12:05am") are some 60 px wide: ticks at least 80 px apart keep them apart.
    { stroke: AXIS_STROKE, grid: GRID, ticks: { stroke: GRID.stroke }, space: 80 },
    {
      stroke: AXIS_STROKE,
      grid: GRID,
      ticks: { stroke: GRID.stroke },
      size: 56,
      ...(valueLabel ? { label: valueLabel, labelSize: 18 } : {}),
      ...(valueFormat ? { values: (_plot: uPlot, splits: number[]) => splits.map(valueFormat) } : {}),
    },
  ];
}

/** The x range from the first bin's start to the last bin's end. */
export function timeRange(times: number[], binSeconds: number | undefined): [number, number] | undefined {
  if (times.length === 0) return undefined;
  const first = times[0]!;
  const last = times[times.length - 1]!;
  const width = binSeconds ?? (times.length > 1 ? (last - first) / (times.length - 1) : 60);
  return [first, last + width];
}

const compact = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
const small = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });

/**
 * Numbers as the legend and axes show them: up to three decimals, and three significant digits
 * for amounts too small for those (0.000412 rather than 0); what is left of a zero after
 * floating-point arithmetic (an axis tick of 5.6e-17) still reads 0.
 */
export function formatNumber(value: number | undefined): string {
  if (value === undefined) return '–';
  const size = Math.abs(value);
  return size >= 1e-12 && size < 0.001 ? small.format(value) : compact.format(value);
}
