// The typed plan of an MPL query: what the analyzer proves and resolves (dataset, metric kinds,
// functions, durations in seconds, parameter values, time ranges) and what a dialect turns
// into SQL. Every series set flows as (series id, time, value) with the tags of each series
// beside it; a node says whether its points sit on an aligned time grid.
import type { MetricType, TagType, TagValue } from '../../model';

/** Whole seconds since the epoch, `from` inclusive, `to` exclusive. */
export interface TimeSpan {
  from: number;
  to: number;
}

/** An aligned time grid: a point at `t` belongs to the bucket starting `origin + k * step`. */
export interface Grid {
  origin: number;
  step: number;
}

export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type TagFilter =
  | { kind: 'and' | 'or'; items: TagFilter[] }
  | { kind: 'not'; item: TagFilter }
  | { kind: 'compare'; tag: string; op: Comparison; value: TagValue }
  /** A full match of the regular expression against the value's text (any tag type). */
  | { kind: 'regex'; tag: string; pattern: string; negate: boolean }
  | { kind: 'is'; tag: string; type: TagType };

export type ValueTest = 'lt' | 'lte' | 'gt' | 'gte' | 'eq' | 'neq';

/** Per-point functions of `map`, by canonical name. */
export type MapFn =
  | { kind: 'add' | 'sub' | 'mul' | 'div' | 'min' | 'max'; value: number }
  | { kind: 'abs' | 'rate' | 'increase' | 'fill_prev' | 'interpolate_linear' }
  | { kind: 'fill_const'; value: number }
  /** Keeps the points passing the test. */
  | { kind: 'filter'; test: ValueTest; value: number }
  /** 1 where the test passes, 0 elsewhere. */
  | { kind: 'is'; test: ValueTest; value: number };

export type AlignFn = 'avg' | 'sum' | 'min' | 'max' | 'count' | 'last' | 'prom_rate';
export type GroupFn = 'avg' | 'sum' | 'min' | 'max' | 'count';
export type ComputeOp = 'add' | 'sub' | 'mul' | 'div' | 'min' | 'max' | 'avg';

export type BucketSpec = { kind: 'quantile'; q: number } | { kind: 'count' | 'avg' | 'sum' | 'min' | 'max' };

/** The tag added to each series a bucket produces, naming its spec (`p99`, `count`, ...). */
export const BUCKET_SPEC_TAG = 'spec';
/** The tag distinguishing the scalar views of a histogram or summary series. */
export const HISTOGRAM_TAG = 'axiom.histogram';
/** The tag holding the quantile of a summary's quantile series. */
export const QUANTILE_TAG = 'quantile';

/** A tag value built from literal text and other tags' values (`"http://${host}"`). */
export type TagTemplate = { kind: 'value'; value: TagValue } | { kind: 'template'; parts: ({ text: string } | { tag: string })[] };

export type RetagOp =
  /** Rewrites a tag's value where the pattern fully matches (`replace tag ~ #s/re/repl/`). */
  | { kind: 'rewrite'; tag: string; pattern: string; replacement: string }
  /** Moves a tag's value to another name (`replace new = old`). */
  | { kind: 'rename'; target: string; source: string }
  /** Sets a tag from another's rewritten value, keeping the source (`replace new = old ~ #s/.../`). */
  | { kind: 'derive'; target: string; source: string; pattern: string; replacement: string }
  /** Adds tags no input series may already have (`extend`). */
  | { kind: 'extend'; assignments: { tag: string; value: TagTemplate }[] };

export interface MetricBinding {
  /** Point classes stored for the metric (none when the metric has no series). */
  scalar: boolean;
  distribution: boolean;
  /** Whether some series are summaries (their quantiles become series of their own). */
  summary: boolean;
  types: MetricType[];
  /** The temporality every series shares, or null (gauges, mixed, or unknown). */
  temporality: 'cumulative' | 'delta' | null;
  unit: string | null;
}

interface NodeBase {
  /** The metric name series carry at this point (source, alias, `as`, compute name). */
  metric: string;
  /** Null while points sit at their own times. */
  grid: Grid | null;
}

export interface SourceNode extends NodeBase {
  kind: 'source';
  /** Base name of the dataset's tables. */
  table: string;
  metricName: string;
  binding: MetricBinding;
  filter: TagFilter | null;
  /** Fraction of series kept, chosen by a stable hash of the series. */
  sample: number | null;
  /** The points read: the query's span, reaching back as far as later windows look. */
  read: TimeSpan;
  /** Values are increases since the previous point (delta sums), so rate and increase use them as they are. */
  delta: boolean;
}

export interface MapNode extends NodeBase {
  kind: 'map';
  input: SeriesNode;
  fn: MapFn;
  /** The span whose grid `fill` and `interpolate` complete. */
  span: TimeSpan;
  delta: boolean;
}

export interface AlignNode extends NodeBase {
  kind: 'align';
  input: SeriesNode;
  fn: AlignFn;
  grid: Grid;
  /** Sliding window in seconds (a multiple of the step), or null for tumbling windows. */
  over: number | null;
  span: TimeSpan;
  delta: boolean;
}

export interface GroupNode extends NodeBase {
  kind: 'group';
  input: SeriesNode;
  /** Tags kept, sorted by name; empty combines every series. */
  tags: string[];
  fn: GroupFn;
}

export interface BucketNode extends NodeBase {
  kind: 'bucket';
  /** Scalar series (`histogram`), or the histogram source (`interpolate_*`). */
  input: SeriesNode;
  fn: 'histogram' | 'interpolate_delta' | 'interpolate_cumulative';
  /** `interpolate_cumulative`: the conversion of cumulative counts. */
  conversion: 'rate' | 'increase' | null;
  tags: string[];
  grid: Grid;
  specs: BucketSpec[];
}

export interface ComputeNode extends NodeBase {
  kind: 'compute';
  left: SeriesNode;
  right: SeriesNode;
  op: ComputeOp;
}

export interface RetagNode extends NodeBase {
  kind: 'retag';
  input: SeriesNode;
  op: RetagOp;
}

export interface JoinNode extends NodeBase {
  kind: 'join';
  input: SeriesNode;
  /** The series of this metric lend their tags. */
  table: string;
  fromMetric: string;
  tags: string[];
  by: string[];
}

export type SeriesNode = SourceNode | MapNode | AlignNode | GroupNode | BucketNode | ComputeNode | RetagNode | JoinNode;

export interface MetricsPlan {
  dataset: string;
  root: SeriesNode;
  /** The answer's grid and span (the data array covers every step of it). */
  grid: Grid;
  span: TimeSpan;
  metric: string;
  groupKeys: string[];
  unit: string | null;
  /** True when the values are no longer in the metric's unit (rates, counts, tests, ratios). */
  ignoreUnit: boolean;
  customUnit: string | null;
  warnings: string[];
}
