// Series (numeric dynamic arrays) in SQL: the array becomes a list of DOUBLE (null where an
// element is not a number), list lambdas do the work, and the result goes back to JSON with
// NaN and infinities as null (JSON has no such numbers). Recurrences (the IIR filter) fold
// over the list with list_reduce; the Fourier transforms are direct sums.
import type { TExpr } from '../../../semantic/plan';
import { seriesRules, type SeriesWalks } from '../../functions/series';
import { bindSql, type CallExpr, type RuleTable } from './rule';
import { DUCKDB_SPELLING } from './spelling';

const NUMERIC = `('BIGINT', 'UBIGINT', 'DOUBLE')`;

/** The numbers of a JSON array, or null when the value is not an array. */
export const numbers = (x: string) =>
  `CASE WHEN json_type(${x}) = 'ARRAY' THEN list_transform(CAST(${x} AS JSON[]), lambda e: CASE WHEN json_type(e) IN ${NUMERIC} THEN CAST(e AS DOUBLE) END) END`;

const finite = (v: string) => `CASE WHEN isfinite(${v}) THEN ${v} END`;
const toJson = (list: string) => `to_json(list_transform(${list}, lambda v: ${finite('v')}))`;

/** Element i of an operand (array or number), and its length (null for a number). */
function element(arg: TExpr, sql: string, bound: string): { at: (i: string) => string; length: string; value: string } {
  if (arg.type !== 'dynamic') return { at: () => `${bound}.n`, length: 'NULL', value: `{'l': CAST(NULL AS DOUBLE[]), 'n': CAST(${sql} AS DOUBLE)}` };
  return {
    at: (i) => `coalesce(${bound}.l[${i} + 1], ${bound}.n)`,
    length: `len(${bound}.l)`,
    value: `{'l': ${numbers(sql)}, 'n': CASE WHEN json_type(${sql}) <> 'ARRAY' THEN TRY_CAST(${sql} AS DOUBLE) END}`,
  };
}

/** Pairs of elements of two operands over the length the function takes. */
function pairwise(e: CallExpr, a: (i: number) => string, length: 'shortest' | 'longest', body: (x: string, y: string) => string): string {
  const left = element(e.args[0]!, a(0), 'sl');
  const right = element(e.args[1]!, a(1), 'sr');
  const n = length === 'shortest' ? `least(${left.length}, ${right.length})` : `greatest(${left.length}, ${right.length})`;
  return bindSql(left.value, 'sl', bindSql(right.value, 'sr', `list_transform(range(${n}), lambda i: ${body(left.at('i'), right.at('i'))})`));
}

/** The pairs of numbers at the same place in both operands (up to the shorter length). */
function pairs(e: CallExpr, a: (i: number) => string): string {
  return `list_filter(${pairwise(e, a, 'shortest', (x, y) => `{'x': ${x}, 'y': ${y}}`)}, lambda p: p.x IS NOT NULL AND p.y IS NOT NULL)`;
}

const sumOf = (list: string, term: string) => `list_sum(list_transform(${list}, lambda p: ${term}))`;

function reduce(e: CallExpr, a: (i: number) => string): string {
  const op = String(e.options?.op);
  const values = `list_filter(${numbers(a(0))}, lambda v: v IS NOT NULL)`;
  switch (op) {
    case 'sum':
      return `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN coalesce(list_sum(${values}), 0) END`;
    case 'magnitude':
      return `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN sqrt(coalesce(list_sum(list_transform(${values}, lambda v: v * v)), 0)) END`;
    case 'dot':
      return `coalesce(${sumOf(pairs(e, a), 'p.x * p.y')}, 0)`;
    case 'cosine': {
      const p = pairs(e, a);
      return `(${sumOf(p, 'p.x * p.y')} / nullif(sqrt(${sumOf(p, 'p.x * p.x')}) * sqrt(${sumOf(p, 'p.y * p.y')}), 0))`;
    }
    case 'pearson': {
      const p = pairs(e, a);
      const n = `len(${p})`;
      const cov = `(${sumOf(p, 'p.x * p.y')} - ${sumOf(p, 'p.x')} * ${sumOf(p, 'p.y')} / ${n})`;
      const sx = `(${sumOf(p, 'p.x * p.x')} - ${sumOf(p, 'p.x')} * ${sumOf(p, 'p.x')} / ${n})`;
      const sy = `(${sumOf(p, 'p.y * p.y')} - ${sumOf(p, 'p.y')} * ${sumOf(p, 'p.y')} / ${n})`;
      return `CASE WHEN ${n} > 1 THEN ${cov} / nullif(sqrt(${sx} * ${sy}), 0) END`;
    }
    default:
      throw new Error(`unknown series reduction ${op}`);
  }
}

function stats(x: string, asObject: boolean): string {
  const l = 'st';
  const v = `list_filter(${l}, lambda v: v IS NOT NULL)`;
  const n = `len(${v})`;
  const avg = `(list_sum(${v}) / ${n})`;
  const variance = `CASE WHEN ${n} > 1 THEN list_sum(list_transform(${v}, lambda v: (v - ${avg}) * (v - ${avg}))) / (${n} - 1) END`;
  const stats: [string, string][] = [
    ['min', `list_min(${v})`],
    ['min_idx', `list_position(${l}, list_min(${v})) - 1`],
    ['max', `list_max(${v})`],
    ['max_idx', `list_position(${l}, list_max(${v})) - 1`],
    ['avg', avg],
    ['variance', variance],
    ['stdev', `sqrt(${variance})`],
  ];
  const body = asObject ? `json_object(${stats.map(([k, s]) => `'${k}', ${finite(s)}`).join(', ')})` : `to_json([${stats.map(([, s]) => `CAST(${finite(s)} AS DOUBLE)`).join(', ')}])`;
  return `CASE WHEN json_type(${x}) = 'ARRAY' THEN ${bindSql(numbers(x), 'st', body)} END`;
}

/** Gap filling: a missing element (null, or equal to the placeholder) takes a value from its neighbours. */
function fill(e: CallExpr, a: (i: number) => string): string {
  const mode = String(e.options?.mode);
  const placeholder = e.args[1]!.kind === 'literal' && e.args[1]!.value.type === 'null' ? undefined : a(1);
  const raw = numbers(a(0));
  const list = placeholder === undefined ? raw : `list_transform(${raw}, lambda v: CASE WHEN v = ${placeholder} THEN NULL ELSE v END)`;
  const l = 'fl';
  const before = `list_filter(fk, lambda j: j < i)[-1]`;
  const after = `list_filter(fk, lambda j: j > i)[1]`;
  let value: string;
  switch (mode) {
    case 'const':
      value = `coalesce(${l}[i + 1], ${a(2)})`;
      break;
    case 'forward':
      // The last value seen before, or for leading gaps the first value there is.
      value = `coalesce(${l}[i + 1], ${l}[${before} + 1], ${l}[${after} + 1])`;
      break;
    case 'backward':
      value = `coalesce(${l}[i + 1], ${l}[${after} + 1], ${l}[${before} + 1])`;
      break;
    default: {
      const p = before;
      const q = after;
      const interpolated = `${l}[${p} + 1] + (${l}[${q} + 1] - ${l}[${p} + 1]) * (i - ${p}) / (${q} - ${p})`;
      value = `coalesce(${l}[i + 1], CASE WHEN ${p} IS NOT NULL AND ${q} IS NOT NULL THEN ${interpolated} END, ${l}[${p} + 1], ${l}[${q} + 1])`;
    }
  }
  const body = bindSql(`list_filter(range(len(${l})), lambda j: ${l}[j + 1] IS NOT NULL)`, 'fk', toJson(`list_transform(range(len(${l})), lambda i: ${value})`));
  return `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN ${bindSql(list, 'fl', body)} END`;
}

function fir(a: (i: number) => string): string {
  const x = 'fx';
  const raw = 'fk';
  const total = `list_sum(list_filter(${raw}, lambda f: f IS NOT NULL))`;
  // normalize: the coefficients are divided by their sum, so they add up to 1.
  const f = `CASE WHEN ${a(2)} AND ${total} <> 0 THEN list_transform(${raw}, lambda c: c / ${total}) ELSE ${raw} END`;
  const shift = `CASE WHEN ${a(3)} THEN (len(${raw}) - 1) // 2 ELSE 0 END`;
  // Samples outside the series count as zero.
  const term = `coalesce(${f}[j + 1] * CASE WHEN i - j + ${shift} BETWEEN 0 AND len(${x}) - 1 THEN ${x}[i - j + ${shift} + 1] END, 0)`;
  const body = bindSql(f, 'ff', toJson(`list_transform(range(len(${x})), lambda i: list_sum(list_transform(range(len(${raw})), lambda j: ${term.replaceAll(f, 'ff')})))`));
  return `CASE WHEN json_type(${a(0)}) = 'ARRAY' AND json_type(${a(1)}) = 'ARRAY' THEN ${bindSql(numbers(a(0)), 'fx', bindSql(numbers(a(1)), 'fk', body))} END`;
}

function iir(a: (i: number) => string): string {
  const [x, b, d] = ['ix', 'ib', 'idn'];
  const feedForward = `coalesce(list_sum(list_transform(range(len(${b})), lambda k: CASE WHEN n - k >= 0 THEN coalesce(${b}[k + 1] * ${x}[n - k + 1], 0) ELSE 0 END)), 0)`;
  const feedBack = `coalesce(list_sum(list_transform(range(1, len(${d})), lambda k: CASE WHEN n - k >= 0 THEN coalesce(${d}[k + 1] * y[n - k + 1], 0) ELSE 0 END)), 0)`;
  // y[n] = (sum b[k]·x[n-k] - sum_{k>=1} a[k]·y[n-k]) / a[0], folded over n.
  const step = `list_append(y, list_transform([CAST(s[1] AS BIGINT)], lambda n: (${feedForward} - ${feedBack}) / ${d}[1])[1])`;
  const fold = `list_reduce(list_transform(range(len(${x})), lambda i: [CAST(i AS DOUBLE)]), lambda y, s: ${step}, CAST([] AS DOUBLE[]))`;
  const body = `CASE WHEN ${d}[1] <> 0 THEN ${toJson(fold)} END`;
  return `CASE WHEN json_type(${a(0)}) = 'ARRAY' AND json_type(${a(1)}) = 'ARRAY' AND json_type(${a(2)}) = 'ARRAY' THEN ${bindSql(numbers(a(0)), 'ix', bindSql(numbers(a(1)), 'ib', bindSql(numbers(a(2)), 'idn', body)))} END`;
}

function fft(e: CallExpr, a: (i: number) => string): string {
  const inverse = Boolean(e.options?.inverse);
  const re = 'fr';
  const hasImaginary = !(e.args[1]!.kind === 'literal' && e.args[1]!.value.type === 'null');
  const im = (n: string) => (hasImaginary ? `coalesce(fi[${n} + 1], 0)` : '0');
  const n = `len(${re})`;
  const angle = `(2 * pi() * k * t / ${n})`;
  const x = (t: string) => `coalesce(${re}[${t} + 1], 0)`;
  const sign = inverse ? '-' : '+';
  // Forward: X[k] = sum x[t]·e^(-2πikt/N); inverse: x[t] = (1/N)·sum X[k]·e^(2πikt/N).
  const real = `list_sum(list_transform(range(${n}), lambda t: ${x('t')} * cos(${angle}) ${sign} ${im('t')} * sin(${angle})))`;
  const imag = `list_sum(list_transform(range(${n}), lambda t: ${im('t')} * cos(${angle}) ${inverse ? '+' : '-'} ${x('t')} * sin(${angle})))`;
  const scale = inverse ? ` / ${n}` : '';
  const series = (sum: string) => toJson(`list_transform(range(${n}), lambda k: ${sum}${scale})`);
  const body = `json_array(${series(real)}, ${series(imag)})`;
  return `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN ${bindSql(numbers(a(0)), 'fr', hasImaginary ? bindSql(`coalesce(${numbers(a(1))}, [])`, 'fi', body) : body)} END`;
}

const arrayResult = (args: TExpr[], a: (i: number) => string, sql: string) => {
  const arrays = args.map((arg, i) => (arg.type === 'dynamic' ? `json_type(${a(i)}) = 'ARRAY'` : undefined)).filter((c): c is string => c !== undefined);
  return arrays.length ? `CASE WHEN ${arrays.join(' OR ')} THEN ${sql} END` : 'NULL';
};

const map: SeriesWalks['map'] = (a, fn) => `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN ${toJson(`list_transform(${numbers(a(0))}, lambda v: ${fn('v')})`)} END`;
const binary: SeriesWalks['binary'] = (e, a, length, fn) => arrayResult(e.args, a, toJson(pairwise(e, a, length, fn)));
const compare: SeriesWalks['compare'] = (e, a, op) => arrayResult(e.args, a, `to_json(${pairwise(e, a, 'longest', (x, y) => `(${x} ${op} ${y})`)})`);

export const SERIES_RULES: RuleTable = seriesRules(DUCKDB_SPELLING, { map, binary, compare, reduce, stats, fill, fir, iir, fft });
