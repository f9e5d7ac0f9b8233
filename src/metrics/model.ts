// The metrics data model shared by ingest, storage and queries: a series is a metric name and a
// set of typed tags; its points are scalar values (gauges, sums) or distributions (histograms,
// exponential histograms, summaries). Times are whole seconds since the epoch.

/** The types a tag value keeps: a string tag and an integer tag compare as such in MPL. */
export type TagType = 'string' | 'int' | 'float' | 'bool';

export type TagValue =
  | { type: 'string'; value: string }
  | { type: 'int'; value: bigint }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean };

/** Tags of a series, in any order (the store sorts them by name). */
export type Tags = Map<string, TagValue>;

/** OpenTelemetry's point kinds. */
export type MetricType = 'gauge' | 'sum' | 'histogram' | 'exponential_histogram' | 'summary';

export type Temporality = 'cumulative' | 'delta';

/** What a metric is, as its points describe it. */
export interface MetricDescriptor {
  name: string;
  type: MetricType;
  /** Sums and histograms only. */
  temporality: Temporality | null;
  /** Sums only. */
  monotonic: boolean | null;
  unit: string;
}

/** Where a metric type's points are stored: one value, or a distribution. */
export type PointClass = 'scalar' | 'distribution';

export function pointClassOf(type: MetricType): PointClass {
  return type === 'gauge' || type === 'sum' ? 'scalar' : 'distribution';
}

/**
 * A distribution point. Histograms have `bounds` (upper bounds, ascending; the last bucket is
 * unbounded) and `counts` (one more than bounds); exponential histograms arrive converted to
 * that form. Summaries have `quantiles` and `quantileValues` instead of buckets.
 */
export interface DistributionValue {
  count: number;
  sum: number | null;
  min: number | null;
  max: number | null;
  bounds: number[] | null;
  counts: number[] | null;
  quantiles: number[] | null;
  quantileValues: number[] | null;
}

/** Points of one series, as ingest collects them (the store assigns the series id). */
export interface SeriesPoints {
  metric: MetricDescriptor;
  tags: Tags;
  /** Seconds; parallel to `values` or `distributions` depending on the point class. */
  times: number[];
  values: number[];
  distributions: DistributionValue[];
}

export const tagString = (value: string): TagValue => ({ type: 'string', value });
export const tagInt = (value: bigint | number): TagValue => ({ type: 'int', value: BigInt(value) });
export const tagFloat = (value: number): TagValue => ({ type: 'float', value });
export const tagBool = (value: boolean): TagValue => ({ type: 'bool', value });

/** A tag value as JSON: numbers stay numbers (integers beyond 2^53 lose precision), as Axiom answers. */
export function tagJson(tag: TagValue): string | number | boolean {
  switch (tag.type) {
    case 'int':
      return Number(tag.value);
    case 'float':
      return Number.isFinite(tag.value) ? tag.value : tag.value > 0 ? '+Inf' : tag.value < 0 ? '-Inf' : 'NaN';
    default:
      return tag.value;
  }
}

/** The text of a tag value (what regular expressions match). */
export function tagText(tag: TagValue): string {
  return String(tag.value);
}
