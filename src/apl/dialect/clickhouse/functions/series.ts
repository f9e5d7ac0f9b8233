// Series (numeric dynamic arrays) in SQL: the JSON array becomes an Array(Nullable(Float64))
// (null where an element is not a number), array lambdas do the work, and the result goes back
// to JSON with NaN and infinities as null (JSON has no such numbers). Recurrences (the IIR
// filter) fold over the array with arrayFold; the Fourier transforms are direct sums.
import type { TExpr } from '../../../semantic/plan';
import { jsonType } from './json';
import { seriesRules, type SeriesWalks } from '../../functions/series';
import { bindSql, type CallExpr, type RuleTable } from './rule';
import { CLICKHOUSE_SPELLING } from './spelling';

const NUMERIC = `('Int64', 'UInt64', 'Double')`;
const isArray = (x: string) => `(${jsonType(x)} = 'Array')`;

/** The numbers of a JSON array ([] when the value is not an array). */
const numbers = (x: string) => `arrayMap(e -> if(${jsonType('e')} IN ${NUMERIC}, toFloat64OrNull(e), NULL), JSONExtractArrayRaw(ifNull(${x}, '[]')))`;

const finite = (v: string) => `if(isFinite(${v}), ${v}, NULL)`;
const toJson = (list: string) => `toJSONString(arrayMap(v -> ${finite('v')}, ${list}))`;

/** Element i (0-based) of an operand bound to `bound` (an array, or a number repeated), and its length. */
function element(arg: TExpr, sql: string, bound: string): { at: (i: string) => string; length?: string; value: string } {
  if (arg.type !== 'dynamic') return { at: () => `${bound}.2`, value: `tuple(CAST([] AS Array(Nullable(Float64))), toFloat64(${sql}))` };
  return {
    at: (i) => `if(${isArray(sql)}, arrayElementOrNull(${bound}.1, ${i} + 1), ${bound}.2)`,
    length: `if(${isArray(sql)}, length(${bound}.1), NULL)`,
    value: `tuple(${numbers(sql)}, if(NOT ${isArray(sql)}, toFloat64OrNull(${sql}), NULL))`,
  };
}

/** Pairs of elements of two operands over the length the function takes. */
function pairwise(e: CallExpr, a: (i: number) => string, length: 'shortest' | 'longest', body: (x: string, y: string) => string): string {
  const left = element(e.args[0]!, a(0), 'sl');
  const right = element(e.args[1]!, a(1), 'sr');
  const lengths = [left.length, right.length].filter((l): l is string => l !== undefined);
  // A number stands for itself at every place: only arrays set the length.
  const n = lengths.length === 2 ? `${length === 'shortest' ? 'least' : 'greatest'}(ifNull(${lengths[0]}, ${lengths[1]}), ifNull(${lengths[1]}, ${lengths[0]}))` : lengths.length ? lengths[0]! : '0';
  return bindSql(left.value, 'sl', bindSql(right.value, 'sr', `arrayMap(i -> ${body(left.at('i'), right.at('i'))}, range(toUInt64(ifNull(${n}, 0))))`));
}

/** The pairs of numbers at the same place in both operands (up to the shorter length). */
const pairs = (e: CallExpr, a: (i: number) => string) =>
  `arrayFilter(p -> p.1 IS NOT NULL AND p.2 IS NOT NULL, ${pairwise(e, a, 'shortest', (x, y) => `tuple(${x}, ${y})`)})`;

const sumOf = (list: string, term: string) => `arraySum(p -> ifNull(${term}, 0), ${list})`;
/** The sum of the numbers of a list (nulls count nothing; ClickHouse sums no Nullable arrays). */
const total = (list: string) => `arraySum(v -> ifNull(v, 0), ${list})`;

function reduce(e: CallExpr, a: (i: number) => string): string {
  const op = String(e.options?.op);
  const values = `arrayFilter(v -> v IS NOT NULL, ${numbers(a(0))})`;
  switch (op) {
    case 'sum':
      return `if(${isArray(a(0))}, ${total(values)}, NULL)`;
    case 'magnitude':
      return `if(${isArray(a(0))}, sqrt(${total(`arrayMap(v -> v * v, ${values})`)}), NULL)`;
    case 'dot':
      return bindSql(pairs(e, a), 'ps', `toFloat64(ifNull(${sumOf('ps', 'p.1 * p.2')}, 0))`);
    case 'cosine':
      return bindSql(pairs(e, a), 'ps', `(${sumOf('ps', 'p.1 * p.2')} / nullIf(sqrt(${sumOf('ps', 'p.1 * p.1')}) * sqrt(${sumOf('ps', 'p.2 * p.2')}), 0))`);
    case 'pearson': {
      const n = 'length(ps)';
      const cov = `(${sumOf('ps', 'p.1 * p.2')} - ${sumOf('ps', 'p.1')} * ${sumOf('ps', 'p.2')} / ${n})`;
      const sx = `(${sumOf('ps', 'p.1 * p.1')} - ${sumOf('ps', 'p.1')} * ${sumOf('ps', 'p.1')} / ${n})`;
      const sy = `(${sumOf('ps', 'p.2 * p.2')} - ${sumOf('ps', 'p.2')} * ${sumOf('ps', 'p.2')} / ${n})`;
      return bindSql(pairs(e, a), 'ps', `if(${n} > 1, ${cov} / nullIf(sqrt(${sx} * ${sy}), 0), NULL)`);
    }
    default:
      throw new Error(`unknown series reduction ${op}`);
  }
}

function stats(x: string, asObject: boolean): string {
  const v = `arrayFilter(v -> v IS NOT NULL, st)`;
  const n = `length(${v})`;
  const avg = `(${total(v)} / ${n})`;
  const variance = `if(${n} > 1, ${total(`arrayMap(v -> (v - ${avg}) * (v - ${avg}), ${v})`)} / (${n} - 1), NULL)`;
  const stats: [string, string][] = [
    ['min', `arrayMin(v -> assumeNotNull(v), ${v})`],
    ['min_idx', `toFloat64(indexOf(st, arrayMin(v -> assumeNotNull(v), ${v})) - 1)`],
    ['max', `arrayMax(v -> assumeNotNull(v), ${v})`],
    ['max_idx', `toFloat64(indexOf(st, arrayMax(v -> assumeNotNull(v), ${v})) - 1)`],
    ['avg', avg],
    ['variance', variance],
    ['stdev', `sqrt(${variance})`],
  ];
  // Statistics of no values are null.
  const value = (s: string) => `if(${n} = 0, NULL, ${finite(`toFloat64(${s})`)})`;
  const body = asObject
    ? `concat('{', ${stats.map(([k, s]) => `'"${k}":', ifNull(toString(${value(s)}), 'null')`).join(", ',', ")}, '}')`
    : `toJSONString([${stats.map(([, s]) => value(s)).join(', ')}])`;
  return `if(${isArray(x)}, ${bindSql(numbers(x), 'st', body)}, NULL)`;
}

/** Gap filling: a missing element (null, or equal to the placeholder) takes a value from its neighbours. */
function fill(e: CallExpr, a: (i: number) => string): string {
  const mode = String(e.options?.mode);
  const placeholder = e.args[1]!.kind === 'literal' && e.args[1]!.value.type === 'null' ? undefined : a(1);
  const raw = numbers(a(0));
  const list = placeholder === undefined ? raw : `arrayMap(v -> if(v = ${placeholder}, NULL, v), ${raw})`;
  const before = `arrayElementOrNull(arrayFilter(j -> j < i, fk), -1)`;
  const after = `arrayElementOrNull(arrayFilter(j -> j > i, fk), 1)`;
  const at = (j: string) => `arrayElementOrNull(fl, ${j} + 1)`;
  let value: string;
  switch (mode) {
    case 'const':
      value = `coalesce(${at('i')}, ${a(2)})`;
      break;
    case 'forward':
      // The last value seen before, or for leading gaps the first value there is.
      value = `coalesce(${at('i')}, ${at(before)}, ${at(after)})`;
      break;
    case 'backward':
      value = `coalesce(${at('i')}, ${at(after)}, ${at(before)})`;
      break;
    default: {
      const interpolated = `${at('p')} + (${at('q')} - ${at('p')}) * (i - p) / (q - p)`;
      value = bindSql(before, 'p', bindSql(after, 'q', `coalesce(${at('i')}, if(p IS NOT NULL AND q IS NOT NULL, ${interpolated}, NULL), ${at('p')}, ${at('q')})`));
    }
  }
  const body = bindSql(`arrayFilter(j -> ${at('j')} IS NOT NULL, range(length(fl)))`, 'fk', toJson(`arrayMap(i -> ${value}, range(length(fl)))`));
  return `if(${isArray(a(0))}, ${bindSql(list, 'fl', body)}, NULL)`;
}

function fir(a: (i: number) => string): string {
  const sum = total('fk');
  // normalize: the coefficients are divided by their sum, so they add up to 1.
  const f = `if(${a(2)} AND ${sum} != 0, arrayMap(c -> c / ${sum}, fk), fk)`;
  const shift = `if(${a(3)}, intDiv(length(fk) - 1, 2), 0)`;
  // Samples outside the series count as zero.
  const term = `ifNull(ff[j + 1] * if(toInt64(i) - toInt64(j) + ${shift} BETWEEN 0 AND length(fx) - 1, arrayElementOrNull(fx, toInt64(i) - toInt64(j) + ${shift} + 1), NULL), 0)`;
  const body = bindSql(f, 'ff', toJson(`arrayMap(i -> toNullable(${total(`arrayMap(j -> ${term}, range(length(fk)))`)}), range(length(fx)))`));
  return `if(${isArray(a(0))} AND ${isArray(a(1))}, ${bindSql(numbers(a(0)), 'fx', bindSql(numbers(a(1)), 'fk', body))}, NULL)`;
}

function iir(a: (i: number) => string): string {
  const feedForward = `arraySum(k -> ifNull( if(n - k >= 0, ifNull(ib[k + 1] * arrayElementOrNull(ix, n - k + 1), 0), 0), 0), range(length(ib)))`;
  const feedBack = `arraySum(k -> ifNull( if(n - k >= 0, ifNull(idn[k + 1] * arrayElementOrNull(y, n - k + 1), 0), 0), 0), range(1, length(idn)))`;
  // y[n] = (sum b[k]·x[n-k] - sum_{k>=1} a[k]·y[n-k]) / a[0], folded over n.
  const fold = `arrayFold((y, n) -> arrayPushBack(y, (${feedForward} - ${feedBack}) / idn[1]), arrayMap(i -> toInt64(i), range(length(ix))), CAST([] AS Array(Nullable(Float64))))`;
  const body = `if(idn[1] != 0, ${toJson(fold)}, NULL)`;
  return `if(${isArray(a(0))} AND ${isArray(a(1))} AND ${isArray(a(2))}, ${bindSql(numbers(a(0)), 'ix', bindSql(numbers(a(1)), 'ib', bindSql(numbers(a(2)), 'idn', body)))}, NULL)`;
}

function fft(e: CallExpr, a: (i: number) => string): string {
  const inverse = Boolean(e.options?.inverse);
  const hasImaginary = !(e.args[1]!.kind === 'literal' && e.args[1]!.value.type === 'null');
  const im = (t: string) => (hasImaginary ? `ifNull(arrayElementOrNull(fi, ${t} + 1), 0)` : '0');
  const n = `length(fr)`;
  const angle = `(2 * pi() * k * t / ${n})`;
  const x = (t: string) => `ifNull(fr[${t} + 1], 0)`;
  const sign = inverse ? '-' : '+';
  // Forward: X[k] = sum x[t]·e^(-2πikt/N); inverse: x[t] = (1/N)·sum X[k]·e^(2πikt/N).
  const real = `arraySum(t -> ifNull(${x('t')} * cos(${angle}) ${sign} ${im('t')} * sin(${angle}), 0), range(${n}))`;
  const imag = `arraySum(t -> ifNull(${im('t')} * cos(${angle}) ${inverse ? '+' : '-'} ${x('t')} * sin(${angle}), 0), range(${n}))`;
  const scale = inverse ? ` / ${n}` : '';
  const series = (sum: string) => toJson(`arrayMap(k -> toNullable(toFloat64(${sum}${scale})), range(${n}))`);
  const body = `concat('[', ${series(real)}, ',', ${series(imag)}, ']')`;
  return `if(${isArray(a(0))}, ${bindSql(numbers(a(0)), 'fr', hasImaginary ? bindSql(numbers(a(1)), 'fi', body) : body)}, NULL)`;
}

/** The result when some operand is an array, else null. */
const arrayResult = (args: TExpr[], a: (i: number) => string, sql: string) => {
  const arrays = args.map((arg, i) => (arg.type === 'dynamic' ? isArray(a(i)) : undefined)).filter((c): c is string => c !== undefined);
  return arrays.length ? `if(${arrays.join(' OR ')}, ${sql}, NULL)` : 'NULL';
};

const map: SeriesWalks['map'] = (a, fn) => `if(${isArray(a(0))}, ${toJson(`arrayMap(v -> ${fn('v')}, ${numbers(a(0))})`)}, NULL)`;
const binary: SeriesWalks['binary'] = (e, a, length, fn) =>
  arrayResult(e.args, a, toJson(pairwise(e, a, length, (x, y) => `toNullable(toFloat64(${fn(x, y)}))`)));
const compare: SeriesWalks['compare'] = (e, a, op) =>
  arrayResult(e.args, a, `toJSONString(${pairwise(e, a, 'longest', (x, y) => `if(${x} IS NULL OR ${y} IS NULL, NULL, toBool(${x} ${op === '<>' ? '!=' : op} ${y}))`)})`);

export const SERIES_RULES: RuleTable = seriesRules(CLICKHOUSE_SPELLING, { map, binary, compare, reduce, stats, fill, fir, iir, fft });
