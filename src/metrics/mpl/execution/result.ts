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

/** A tag as the store renders it (see `tagEntriesSql`): name, union member, value as text. */
export interface TagEntry {
  k: string;
  t: 's' | 'i' | 'f' | 'b';
  v: string;
}

/** A tag value as JSON: numbers stay numbers, infinite floats are "+Inf"/"-Inf", NaN is "NaN". */
export function tagValueOf(entry: Pick<TagEntry, 't' | 'v'>): string | number | boolean {
  switch (entry.t) {
    case 's':
      return entry.v;
    case 'b':
      return entry.v === 'true';
    case 'i':
      return Number(entry.v);
    case 'f': {
      const lower = entry.v.toLowerCase();
      if (lower === 'inf' || lower === 'infinity') return '+Inf';
      if (lower === '-inf' || lower === '-infinity') return '-Inf';
      if (lower === 'nan') return 'NaN';
      return Number(entry.v);
    }
  }
}

export function tagsFromEntries(entries: TagEntry[]): MetricsSeries['tags'] {
  return Object.fromEntries(entries.map((entry) => [entry.k, tagValueOf(entry)]));
}
