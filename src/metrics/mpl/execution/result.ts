// The answer of an MPL query in Axiom's metrics shapes: `metrics-v2` (`{metadata, series}`,
// what clients ask for by default) and `metrics-v1` (the bare list of series). Each series
// holds its values on the answer's grid: the value at index i is at start + i * resolution
// (Unix seconds), null where there is none.

export interface MetricsSeries {
  metric: string;
  /** Tag values keep their type: strings, numbers, booleans ("+Inf"/"-Inf" for infinite floats). */
  tags: Record<string, string | number | boolean>;
  start: number;
  resolution: number;
  data: (number | null)[];
  /** The last value of the series, or null. */
  summary: number | null;
}

export interface MetricsMetadata {
  /** The tags the query grouped by (its last group or bucket). */
  group_keys: string[];
  warnings: string[];
  /** The metric's unit when the values keep it, else empty. */
  unit: string;
  /** `set custom_unit = "..."`, else empty. */
  custom_unit: string;
  /** True when the values are not in the metric's unit (rates, counts, ratios, tests). */
  ignore_unit: boolean;
}

export interface MetricsAnswer {
  metadata: MetricsMetadata;
  series: MetricsSeries[];
}

export type MetricsFormat = 'metrics-v1' | 'metrics-v2';

export function formatAnswer(answer: MetricsAnswer, format: MetricsFormat): unknown {
  if (format === 'metrics-v2') return answer;
  return answer.series.map(({ summary: _summary, ...series }) => series);
}

/** Tags as stored (`{"name": {"s": "text"}}`) to plain typed JSON values. */
export function plainTags(json: string): MetricsSeries['tags'] {
  const typed = JSON.parse(json) as Record<string, { s?: string; i?: number; f?: number | string; b?: boolean }>;
  const tags: MetricsSeries['tags'] = {};
  for (const [name, value] of Object.entries(typed)) {
    if (value.s !== undefined) tags[name] = value.s;
    else if (value.i !== undefined) tags[name] = value.i;
    else if (value.b !== undefined) tags[name] = value.b;
    else if (value.f !== undefined) tags[name] = floatTag(value.f);
  }
  return tags;
}

function floatTag(value: number | string): number | string {
  if (typeof value === 'number') return value;
  const lower = value.toLowerCase();
  if (lower.includes('inf')) return lower.startsWith('-') ? '-Inf' : '+Inf';
  return value === 'nan' ? 'NaN' : Number(value);
}
