// The aggregation catalog used by summarize: arity, types, default output names and the
// system name Axiom reports for each aggregation (FieldInfo.agg, legacy bucket ops). The `*if`
// forms are the plain aggregation with a row filter, so a dialect writes each canonical
// aggregation once and applies the filter its own way.
import type { AggregateCall, AplType, TExpr } from './plan';
import type { CallSite } from './call-site';
import { call, isNumeric } from './typed';

/** One output column of an aggregation. */
export interface AggregateOutput {
  name: string;
  /** The value of the column, given the columns of this aggregation's calls. */
  value: (calls: TExpr[]) => TExpr;
  info: AggregationInfo;
}

/** What FieldInfo.agg reports: Axiom's system name, the fields aggregated and constant arguments. */
export interface AggregationInfo {
  name: string;
  fields: string[];
  args: unknown[];
}

export interface AggregateBinding {
  calls: AggregateCall[];
  outputs: AggregateOutput[];
}

export interface AggregateSite {
  site: CallSite;
  /** The field name of each argument when it is a plain field reference. */
  fieldNames: (string | undefined)[];
  /** Explicit output names given inside the call (`arg_max(d, slowest = uri)`). */
  argNames: (string | undefined)[];
  /** Visible input columns, for `arg_max(x, *)` and `spotlight(c, *)`. */
  inputColumns: { name: string; expr: TExpr }[];
  /** The span of a time bin in the same summarize, for `rate`. */
  binSpanNanos?: bigint;
}

export type AggregateRule = (a: AggregateSite) => AggregateBinding;

const column = (calls: TExpr[]) => calls[0]!;

/** Default size limit of make_list (Kusto's) and of make_set (Axiom documents 128). */
const MAX_LIST = 1_048_576;
const MAX_SET = 128;

function single(a: AggregateSite, system: string, prefix: string, agg: AggregateCall, args: unknown[] = []): AggregateBinding {
  const field = a.fieldNames[0];
  return {
    calls: [agg],
    outputs: [{ name: `${prefix}_${field ?? ''}`, value: column, info: { name: system, fields: field ? [field] : [], args } }],
  };
}

/** The condition of an `*if` form at argument `index`, as the call's row filter. */
function condition(a: AggregateSite, index: number): { filter: TExpr } {
  return { filter: a.site.arg(index, 'bool') };
}

/** A value as an element of a dynamic array: times as the text they print as. */
function asElement(value: TExpr): TExpr {
  return value.type === 'datetime' || value.type === 'timespan' ? call('cast', [value], 'string') : value;
}

/** Sums keep integers and timespans; everything else is summed as real. */
function sumType(type: AplType): AplType {
  return type === 'int' || type === 'timespan' ? type : 'real';
}

function numericArg(a: AggregateSite, index: number): TExpr {
  const arg = a.site.raw(index);
  if (isNumeric(arg.type) || arg.type === 'timespan') return arg;
  return a.site.arg(index, 'real');
}

function comparable(a: AggregateSite, index: number): TExpr {
  const arg = a.site.raw(index);
  return arg.type === 'dynamic' || arg.type === 'null' || arg.type === 'bool' ? a.site.arg(index, 'real') : arg;
}

/** sum, avg, stdev, variance and their `*if` forms. */
const numeric =
  (fn: 'sum' | 'avg' | 'stdev' | 'variance', conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 2 : 1);
    const value = numericArg(a, 0);
    // Sums, averages and deviations of timespans are timespans; a variance is in squared units.
    const type: AplType = fn === 'sum' ? sumType(value.type) : value.type === 'timespan' && fn !== 'variance' ? 'timespan' : 'real';
    const name = conditional ? `${fn}if` : fn;
    return single(a, name, name, { fn, args: [value], type, ...(conditional ? condition(a, 1) : {}) });
  };

const extreme =
  (fn: 'min' | 'max', conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 2 : 1);
    const value = comparable(a, 0);
    const name = conditional ? `${fn}if` : fn;
    return single(a, name, name, { fn, args: [value], type: value.type, ...(conditional ? condition(a, 1) : {}) });
  };

/** make_list, make_set and their `_if` forms: (value[, condition][, max]). */
const collection =
  (fn: 'make_list' | 'make_set', conditional: boolean): AggregateRule =>
  (a) => {
    const base = conditional ? 2 : 1;
    a.site.arity(base, base + 1);
    const value = asElement(a.site.raw(0));
    const max = a.site.count > base ? a.site.constNumber(base) : fn === 'make_set' ? MAX_SET : MAX_LIST;
    if (!Number.isInteger(max) || max < 1) throw a.site.error('the maximum size must be a whole number >= 1', base);
    const name = conditional ? `${fn}_if` : fn;
    const system = name.replaceAll('_', '');
    return single(a, system, name, { fn, args: [value], type: 'dynamic', options: { max }, ...(conditional ? condition(a, 1) : {}) });
  };

function percentileName(field: string | undefined, p: number): string {
  return `percentile_${field ?? ''}_${String(p).replace('.', '_')}`;
}

function percentileValue(a: AggregateSite, index: number): number {
  const p = a.site.constNumber(index);
  if (!(p >= 0 && p <= 100)) throw a.site.error('percentiles must be between 0 and 100', index);
  return p;
}

/** Percentiles given one by one, or as one dynamic array (`dynamic([50, 95])`). */
function percentileList(a: AggregateSite, from: number, to: number): number[] {
  const first = a.site.raw(from);
  if (to - from === 1 && first.kind === 'literal' && first.value.type === 'dynamic' && Array.isArray(first.value.value)) {
    const ps = first.value.value.map((p) => (typeof p === 'number' ? p : Number.NaN));
    if (ps.length === 0 || ps.some((p) => !(p >= 0 && p <= 100))) throw a.site.error('percentiles must be numbers between 0 and 100', from);
    return ps;
  }
  return Array.from({ length: to - from }, (_, i) => percentileValue(a, from + i));
}

const percentile =
  (conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 3 : 2);
    const p = percentileValue(a, 1);
    const value = comparable(a, 0);
    const field = a.fieldNames[0];
    return {
      calls: [{ fn: 'percentile', args: [value], type: value.type, options: { p }, ...(conditional ? condition(a, 2) : {}) }],
      outputs: [{ name: percentileName(field, p), value: column, info: { name: conditional ? 'percentilesif' : 'percentiles', fields: field ? [field] : [], args: [p] } }],
    };
  };

const percentilesArray =
  (conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 3 : 2, conditional ? 3 : 64);
    const value = comparable(a, 0);
    const ps = percentileList(a, 1, conditional ? 2 : a.site.count);
    const agg: AggregateCall = { fn: 'percentiles_array', args: [value], type: 'dynamic', options: { ps }, ...(conditional ? condition(a, 2) : {}) };
    return single(a, conditional ? 'percentilesif' : 'percentiles', 'percentiles', agg, ps);
  };

function argExtreme(fn: 'arg_max' | 'arg_min'): AggregateRule {
  return (a) => {
    a.site.arity(1, 64);
    const key = comparable(a, 0);
    const returned: { name: string; expr: TExpr; field?: string }[] = [];
    const keyName = a.argNames[0] ?? a.fieldNames[0] ?? `${fn === 'arg_max' ? 'max' : 'min'}_`;
    for (let i = 1; i < a.site.count; i++) {
      const raw = a.site.raw(i);
      if (raw.kind === 'call' && raw.fn === '*') {
        for (const input of a.inputColumns) returned.push({ name: input.name, expr: input.expr, field: input.name });
        continue;
      }
      const field = a.fieldNames[i];
      returned.push({ name: a.argNames[i] ?? field ?? `${fn}_${i}`, expr: raw, ...(field ? { field } : {}) });
    }
    const unique = returned.filter((r, i) => r.name !== keyName && returned.findIndex((o) => o.name === r.name) === i);
    const fields = [keyName, ...unique.map((r) => r.name)].map((_, i) => `f${i}`);
    const agg: AggregateCall = { fn, args: [key, ...unique.map((r) => r.expr)], type: 'dynamic', options: { fields } };
    const info: AggregationInfo = { name: fn === 'arg_max' ? 'argmax' : 'argmin', fields: a.fieldNames.filter((f): f is string => !!f), args: [] };
    const outputs: AggregateOutput[] = [
      { name: keyName, value: (calls) => call('struct_field', [calls[0]!], key.type, { field: 'f0' }), info },
      ...unique.map((r, i) => ({
        name: r.name,
        value: (calls: TExpr[]) => call('struct_field', [calls[0]!], r.expr.type, { field: `f${i + 1}` }),
        info,
      })),
    ];
    return { calls: [agg], outputs };
  };
}

const topk =
  (conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 3 : 2);
    const k = a.site.constNumber(1);
    if (!Number.isInteger(k) || k < 1) throw a.site.error('k must be a whole number >= 1', 1);
    const name = conditional ? 'topkif' : 'topk';
    return single(a, name, name, { fn: 'topk', args: [asElement(a.site.raw(0))], type: 'dynamic', options: { k }, ...(conditional ? condition(a, 2) : {}) }, [k]);
  };

const histogram =
  (conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 3 : 2);
    const size = a.site.raw(1);
    const width = size.kind === 'literal' && size.value.type === 'timespan' ? Number(size.value.nanos) : a.site.constNumber(1);
    if (!(width > 0)) throw a.site.error('the bucket width must be a positive number', 1);
    const value = numericArg(a, 0);
    const name = conditional ? 'histogramif' : 'histogram';
    const agg: AggregateCall = { fn: 'histogram', args: [value], type: 'dynamic', options: { width }, ...(conditional ? condition(a, 2) : {}) };
    return single(a, name, name, agg, [width]);
  };

const count: AggregateRule = (a) => {
  a.site.arity(0, 1);
  const agg: AggregateCall = a.site.count ? { fn: 'count', args: [a.site.raw(0)], type: 'int' } : { fn: 'count', args: [], type: 'int' };
  return { calls: [agg], outputs: [{ name: 'count_', value: column, info: { name: 'count', fields: [], args: [] } }] };
};

/** Fields spotlight compares: the named ones, or every visible input field for `*`. */
function spotlightFields(a: AggregateSite): { name: string; expr: TExpr }[] {
  const fields: { name: string; expr: TExpr }[] = [];
  for (let i = 1; i < a.site.count; i++) {
    const raw = a.site.raw(i);
    if (raw.kind === 'call' && raw.fn === '*') {
      fields.push(...a.inputColumns.filter((c) => !c.name.startsWith('_')));
      continue;
    }
    fields.push({ name: a.argNames[i] ?? a.fieldNames[i] ?? `Column${i}`, expr: raw });
  }
  const seen = new Set<string>();
  return fields.filter((f) => !seen.has(f.name) && seen.add(f.name));
}

export const AGGREGATE_FUNCTIONS: Record<string, AggregateRule> = {
  count,
  countif: (a) => {
    a.site.arity(1);
    return { calls: [{ fn: 'count', args: [], type: 'int', ...condition(a, 0) }], outputs: [{ name: 'countif_', value: column, info: { name: 'countif', fields: [], args: [] } }] };
  },
  dcount: (a) => {
    a.site.arity(1, 2);
    return single(a, 'distinct', 'dcount', { fn: 'dcount', args: [a.site.raw(0)], type: 'int' });
  },
  dcountif: (a) => {
    a.site.arity(2, 3);
    return single(a, 'distinctif', 'dcountif', { fn: 'dcount', args: [a.site.raw(0)], type: 'int', ...condition(a, 1) });
  },
  sum: numeric('sum', false),
  sumif: numeric('sum', true),
  avg: numeric('avg', false),
  avgif: numeric('avg', true),
  stdev: numeric('stdev', false),
  stdevif: numeric('stdev', true),
  variance: numeric('variance', false),
  varianceif: numeric('variance', true),
  min: extreme('min', false),
  max: extreme('max', false),
  minif: extreme('min', true),
  maxif: extreme('max', true),
  percentile: percentile(false),
  percentileif: percentile(true),
  percentiles: (a) => {
    a.site.arity(2, 64);
    const value = comparable(a, 0);
    const ps = percentileList(a, 1, a.site.count);
    const field = a.fieldNames[0];
    return {
      calls: ps.map((p) => ({ fn: 'percentile', args: [value], type: value.type, options: { p } })),
      outputs: ps.map((p, i) => ({
        name: percentileName(field, p),
        value: (calls: TExpr[]) => calls[i]!,
        info: { name: 'percentiles', fields: field ? [field] : [], args: [p] },
      })),
    };
  },
  percentiles_array: percentilesArray(false),
  percentiles_arrayif: percentilesArray(true),
  make_list: collection('make_list', false),
  make_list_if: collection('make_list', true),
  make_set: collection('make_set', false),
  make_set_if: collection('make_set', true),
  arg_max: argExtreme('arg_max'),
  arg_min: argExtreme('arg_min'),
  topk: topk(false),
  topkif: topk(true),
  histogram: histogram(false),
  histogramif: histogram(true),
  rate: (a) => {
    a.site.arity(1);
    const window = a.binSpanNanos ?? a.site.context.windowNanos;
    return single(a, 'rate', 'rate', { fn: 'rate', args: [a.site.arg(0, 'real')], type: 'real', options: { windowNanos: window } });
  },
  phrases: (a) => {
    a.site.arity(1, 2);
    const max = a.site.count > 1 ? a.site.constNumber(1) : 10;
    if (!Number.isInteger(max) || max < 1) throw a.site.error('the number of phrases must be a whole number >= 1', 1);
    return single(a, 'phrases', 'phrases', { fn: 'phrases', args: [a.site.arg(0, 'string')], type: 'dynamic', options: { max } }, [max]);
  },
  spotlight: (a) => {
    a.site.arity(2, 64);
    const selected = a.site.arg(0, 'bool');
    const fields = spotlightFields(a);
    if (fields.length === 0) throw a.site.error('expects at least one field to compare');
    // Categorical fields compare value proportions, numeric ones their distributions.
    const kinds = fields.map((f) => (isNumeric(f.expr.type) || f.expr.type === 'timespan' ? 'numeric' : 'categorical'));
    const args = fields.map((f, i) => (kinds[i] === 'numeric' ? (f.expr.type === 'real' ? f.expr : call('cast', [f.expr], 'real')) : f.expr.type === 'string' ? f.expr : call('cast', [f.expr], 'string')));
    const agg: AggregateCall = { fn: 'spotlight', args: [selected, ...args], type: 'dynamic', options: { names: fields.map((f) => f.name), kinds } };
    return { calls: [agg], outputs: [{ name: 'spotlight_', value: column, info: { name: 'spotlight', fields: fields.map((f) => f.name), args: [] } }] };
  },
};

AGGREGATE_FUNCTIONS.makelist = AGGREGATE_FUNCTIONS.make_list!;
AGGREGATE_FUNCTIONS.makeset = AGGREGATE_FUNCTIONS.make_set!;
AGGREGATE_FUNCTIONS.argmax = AGGREGATE_FUNCTIONS.arg_max!;
AGGREGATE_FUNCTIONS.argmin = AGGREGATE_FUNCTIONS.arg_min!;
