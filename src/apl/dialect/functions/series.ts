// Series functions (numeric dynamic arrays): what they do to each element is the same SQL on
// every engine; the walk over the array (`SeriesWalks`) is each engine's own.
import type { CallExpr, RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

type Args = (i: number) => string;

/** How an engine walks series; every result is a JSON array (or a number, for reductions). */
export interface SeriesWalks {
  /** `fn` applied to each number of the array a(0). */
  map(a: Args, fn: (v: string) => string): string;
  /** `fn` over the elements at the same place of two operands (arrays, or numbers standing for themselves). */
  binary(e: CallExpr, a: Args, length: 'shortest' | 'longest', fn: (x: string, y: string) => string): string;
  /** The comparison `op` (=, <>, <, ...) over the elements at the same place of two operands. */
  compare(e: CallExpr, a: Args, op: string): string;
  /** Sum, magnitude, dot product, cosine similarity or Pearson correlation (e.options.op). */
  reduce(e: CallExpr, a: Args): string;
  /** min, min_idx, max, max_idx, avg, variance and stdev, as an object or an array. */
  stats(x: string, asObject: boolean): string;
  /** Gap filling (e.options.mode: const, forward, backward, linear). */
  fill(e: CallExpr, a: Args): string;
  /** A finite impulse response filter. */
  fir(a: Args): string;
  /** An infinite impulse response filter. */
  iir(a: Args): string;
  /** The (inverse) discrete Fourier transform. */
  fft(e: CallExpr, a: Args): string;
}

export function seriesRules(sql: SqlSpelling, walks: SeriesWalks): RuleTable {
  const math = seriesElementMath(sql);
  const arithmetic = seriesElementArithmetic(sql);
  return {
    series_map: (_w, e, a) => walks.map(a, math[String(e.options?.op)]!),
    series_binary: (_w, e, a) => walks.binary(e, a, e.options?.length as 'shortest' | 'longest', arithmetic[String(e.options?.op)]!),
    series_compare: (_w, e, a) => walks.compare(e, a, String(e.options?.op)),
    series_reduce: (_w, e, a) => walks.reduce(e, a),
    series_stats: (_w, e, a) => walks.stats(a(0), Boolean(e.options?.asObject)),
    series_fill: (_w, e, a) => walks.fill(e, a),
    series_fir: (_w, _e, a) => walks.fir(a),
    series_iir: (_w, _e, a) => walks.iir(a),
    series_fft: (_w, e, a) => walks.fft(e, a),
  };
}

/** series_<op>(x): the function applied to an element `v`. */
function seriesElementMath(sql: SqlSpelling): Readonly<Record<string, (v: string) => string>> {
  return {
    abs: (v) => `abs(${v})`,
    acos: (v) => sql.nullUnless(`${v} BETWEEN -1 AND 1`, `acos(${v})`),
    asin: (v) => sql.nullUnless(`${v} BETWEEN -1 AND 1`, `asin(${v})`),
    atan: (v) => `atan(${v})`,
    ceiling: (v) => `ceil(${v})`,
    cos: (v) => `cos(${v})`,
    exp: (v) => `exp(${v})`,
    floor: (v) => `floor(${v})`,
    log: (v) => sql.nullUnless(`${v} > 0`, sql.call('ln', v)),
    sign: (v) => `sign(${v})`,
    sin: (v) => `sin(${v})`,
    tan: (v) => `tan(${v})`,
  };
}

/** series_<op>(x, y): the operation on a pair of elements. */
function seriesElementArithmetic(sql: SqlSpelling): Readonly<Record<string, (x: string, y: string) => string>> {
  const bothPresent = (x: string, y: string) => `${x} IS NOT NULL AND ${y} IS NOT NULL`;
  return {
    add: (x, y) => `(${x} + ${y})`,
    subtract: (x, y) => `(${x} - ${y})`,
    multiply: (x, y) => `(${x} * ${y})`,
    divide: (x, y) => `(${x} / ${y})`,
    pow: (x, y) => `pow(${x}, ${y})`,
    max: (x, y) => sql.nullUnless(bothPresent(x, y), `greatest(${x}, ${y})`),
    min: (x, y) => sql.nullUnless(bothPresent(x, y), `least(${x}, ${y})`),
  };
}
