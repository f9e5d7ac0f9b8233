// MPL's standard library: the functions each operator accepts, by the names users write, with
// their arguments and what they do. The analyzer resolves names here; the language description
// served by `OPTIONS /v1/query/_mpl` is written from the same tables.
import type { AlignFn, ComputeOp, GroupFn, MapFn, ValueTest } from './plan';

export interface MapFunction {
  name: string;
  arg: 'none' | 'number';
  doc: string;
  build(value: number | null): MapFn;
  /** Needs points on an aligned grid (it completes missing steps). */
  needsGrid?: boolean;
}

const TESTS: [ValueTest, string[], string][] = [
  ['lt', ['lt'], 'less than'],
  ['lte', ['lte', 'le'], 'less than or equal to'],
  ['gt', ['gt'], 'greater than'],
  ['gte', ['gte', 'ge'], 'greater than or equal to'],
  ['eq', ['eq'], 'equal to'],
  ['neq', ['neq', 'ne'], 'not equal to'],
];

const num = (value: number | null) => value!;

export const MAP_FUNCTIONS: MapFunction[] = [
  { name: 'rate', arg: 'none', doc: 'Per-second rate of change from the previous point: (v - previous) / seconds between them', build: () => ({ kind: 'rate' }) },
  { name: 'increase', arg: 'none', doc: 'Increase from the previous point; a drop counts as a counter reset (the new value)', build: () => ({ kind: 'increase' }) },
  { name: 'abs', arg: 'none', doc: 'Absolute value', build: () => ({ kind: 'abs' }) },
  { name: 'min', arg: 'number', doc: 'The smaller of the value and the argument', build: (v) => ({ kind: 'min', value: num(v) }) },
  { name: 'max', arg: 'number', doc: 'The larger of the value and the argument', build: (v) => ({ kind: 'max', value: num(v) }) },
  { name: 'fill::prev', arg: 'none', doc: 'Fills empty steps of the grid with the previous value', build: () => ({ kind: 'fill_prev' }), needsGrid: true },
  { name: 'fill::const', arg: 'number', doc: 'Fills empty steps of the grid with the argument', build: (v) => ({ kind: 'fill_const', value: num(v) }), needsGrid: true },
  {
    name: 'interpolate::linear',
    arg: 'none',
    doc: 'Fills empty steps between two values by linear interpolation',
    build: () => ({ kind: 'interpolate_linear' }),
    needsGrid: true,
  },
  ...TESTS.flatMap(([test, names, words]) =>
    names.flatMap((name): MapFunction[] => [
      { name: `filter::${name}`, arg: 'number', doc: `Keeps only the points ${words} the argument`, build: (v) => ({ kind: 'filter', test, value: num(v) }) },
      { name: `is::${name}`, arg: 'number', doc: `1 where the value is ${words} the argument, 0 elsewhere`, build: (v) => ({ kind: 'is', test, value: num(v) }) },
    ]),
  ),
];

export const MAP_OPERATORS: Record<'+' | '-' | '*' | '/', 'add' | 'sub' | 'mul' | 'div'> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' };

export const ALIGN_FUNCTIONS: Record<string, { fn: AlignFn; doc: string }> = {
  avg: { fn: 'avg', doc: 'Average of the points in each window' },
  sum: { fn: 'sum', doc: 'Sum of the points in each window' },
  min: { fn: 'min', doc: 'Smallest point in each window' },
  max: { fn: 'max', doc: 'Largest point in each window' },
  count: { fn: 'count', doc: 'Number of points in each window' },
  last: { fn: 'last', doc: 'Latest point in each window' },
  'prom::rate': { fn: 'prom_rate', doc: 'Per-second rate of a counter over each window (increases between consecutive points, resets counted as restarts)' },
  rate: { fn: 'prom_rate', doc: 'The same as prom::rate' },
};

export const GROUP_FUNCTIONS: Record<string, { fn: GroupFn; doc: string }> = {
  avg: { fn: 'avg', doc: 'Average of the series at each time' },
  sum: { fn: 'sum', doc: 'Sum of the series at each time' },
  min: { fn: 'min', doc: 'Smallest value across the series at each time' },
  max: { fn: 'max', doc: 'Largest value across the series at each time' },
  count: { fn: 'count', doc: 'Number of series with a value at each time' },
};

export const COMPUTE_FUNCTIONS: Record<string, { op: ComputeOp; doc: string }> = {
  '+': { op: 'add', doc: 'Adds the two values' },
  '-': { op: 'sub', doc: 'Subtracts the second value from the first' },
  '*': { op: 'mul', doc: 'Multiplies the two values' },
  '/': { op: 'div', doc: 'Divides the first value by the second (no value where the second is 0)' },
  min: { op: 'min', doc: 'The smaller of the two values' },
  max: { op: 'max', doc: 'The larger of the two values' },
  avg: { op: 'avg', doc: 'The average of the two values' },
};

export const BUCKET_FUNCTIONS: Record<string, { doc: string; args: string }> = {
  histogram: {
    args: 'specs',
    doc: 'Combines scalar series per group and window: quantiles from series carrying an `le` tag (Prometheus buckets), or from the values themselves; count, avg, sum, min, max of the values',
  },
  interpolate_delta_histogram: { args: 'specs', doc: 'Merges delta histograms per group and window; quantiles interpolated within buckets' },
  interpolate_cumulative_histogram: {
    args: 'rate|increase, specs',
    doc: 'Turns cumulative histograms into increases between points, then merges them per group and window; counts and sums as a per-second rate or as the increase',
  },
};

export function mapFunction(name: string): MapFunction | undefined {
  return MAP_FUNCTIONS.find((fn) => fn.name === name);
}
