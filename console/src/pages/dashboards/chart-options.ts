// A chart's display options, kept in the chart's `options` property: series style, y scale,
// unit, decimals, axis bounds and threshold lines. Read defensively, since any client may
// have written the document.
import type { DashboardChart } from '../../api/dashboards';

export type SeriesStyle = 'line' | 'area' | 'bars';

export interface Threshold {
  value: number;
  label?: string;
}

export interface ChartDisplayOptions {
  seriesStyle: SeriesStyle;
  yScale: 'linear' | 'log';
  unit: string;
  decimals?: number;
  yMin?: number;
  yMax?: number;
  thresholds: Threshold[];
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export function displayOptionsOf(chart: DashboardChart): ChartDisplayOptions {
  const raw = (typeof chart.options === 'object' && chart.options !== null ? chart.options : {}) as Record<string, unknown>;
  const style = raw.seriesStyle;
  const decimals = finite(raw.decimals);
  const yMin = finite(raw.yMin);
  const yMax = finite(raw.yMax);
  const thresholds = Array.isArray(raw.thresholds)
    ? raw.thresholds.flatMap((entry) => {
        const value = finite((entry as { value?: unknown })?.value);
        const label = (entry as { label?: unknown })?.label;
        return value === undefined ? [] : [{ value, ...(typeof label === 'string' && label ? { label } : {}) }];
      })
    : [];
  return {
    seriesStyle: style === 'area' || style === 'bars' ? style : 'line',
    yScale: raw.yScale === 'log' ? 'log' : 'linear',
    unit: typeof raw.unit === 'string' ? raw.unit : '',
    ...(decimals !== undefined ? { decimals } : {}),
    ...(yMin !== undefined ? { yMin } : {}),
    ...(yMax !== undefined ? { yMax } : {}),
    thresholds,
  };
}

/** A number as the chart shows it: its decimals and unit. */
export function formatValue(value: number | null | undefined, options: Pick<ChartDisplayOptions, 'unit' | 'decimals'>): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const text = new Intl.NumberFormat(undefined, options.decimals !== undefined ? { minimumFractionDigits: options.decimals, maximumFractionDigits: options.decimals } : { maximumFractionDigits: 3 }).format(value);
  return options.unit ? `${text} ${options.unit}` : text;
}
