// The aggregation catalog used by summarize: arity, types, default output names and the
// system name Axiom reports for each aggregation (FieldInfo.agg, legacy bucket ops).
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
  /** Visible input columns, for `arg_max(x, *)`. */
  inputColumns: { name: string; expr: TExpr }[];
  /** The span of a time bin in the same summarize, for `rate`. */
  binSpanNanos?: bigint;
}

type AggregateRule = (a: AggregateSite) => AggregateBinding;

const column = (calls: TExpr[]) => calls[0]!;

function single(a: AggregateSite, system: string, prefix: string, agg: AggregateCall, args: unknown[] = []): AggregateBinding {
  const field = a.fieldNames[0];
  return {
    calls: [agg],
    outputs: [{ name: `${prefix}_${field ?? ''}`, value: column, info: { name: system, fields: field ? [field] : [], args } }],
  };
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
  return arg.type === 'dynamic' || arg.type === 'null' ? a.site.arg(index, 'real') : arg;
}

const simpleNumeric =
  (fn: string, system: string, conditional: boolean, result?: AplType): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 2 : 1);
    const value = numericArg(a, 0);
    const args = conditional ? [value, a.site.arg(1, 'bool')] : [value];
    const type = result ?? (fn.startsWith('sum') ? sumType(value.type) : value.type === 'timespan' ? 'timespan' : 'real');
    return single(a, system, fn, { fn, args, type });
  };

const extreme =
  (fn: string, conditional: boolean): AggregateRule =>
  (a) => {
    a.site.arity(conditional ? 2 : 1);
    const value = comparable(a, 0);
    const args = conditional ? [value, a.site.arg(1, 'bool')] : [value];
    return single(a, fn, fn, { fn, args, type: value.type });
  };

const collection =
  (fn: string, system: string, conditional: boolean): AggregateRule =>
  (a) => {
    const base = conditional ? 2 : 1;
    a.site.arity(base, base + 1);
    const value = a.site.raw(0);
    const args = conditional ? [value, a.site.arg(1, 'bool')] : [value];
    const max = a.site.count > base ? a.site.constNumber(base) : undefined;
    return single(a, system, fn, { fn, args, type: 'dynamic', options: { max } });
  };

function percentileName(field: string | undefined, p: number): string {
  return `percentile_${field ?? ''}_${String(p).replace('.', '_')}`;
}

function percentileValue(a: AggregateSite, index: number): number {
  const p = a.site.constNumber(index);
  if (!(p >= 0 && p <= 100)) throw a.site.error('percentiles must be between 0 and 100', index);
  return p;
}

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

export const AGGREGATE_FUNCTIONS: Record<string, AggregateRule> = {
  count: (a) => {
    a.site.arity(0, 1);
    const agg: AggregateCall = a.site.count ? { fn: 'count_values', args: [a.site.raw(0)], type: 'int' } : { fn: 'count', args: [], type: 'int' };
    return { calls: [agg], outputs: [{ name: 'count_', value: column, info: { name: 'count', fields: [], args: [] } }] };
  },
  countif: (a) => {
    a.site.arity(1);
    return { calls: [{ fn: 'countif', args: [a.site.arg(0, 'bool')], type: 'int' }], outputs: [{ name: 'countif_', value: column, info: { name: 'countif', fields: [], args: [] } }] };
  },
  dcount: (a) => {
    a.site.arity(1, 2);
    return single(a, 'distinct', 'dcount', { fn: 'dcount', args: [a.site.raw(0)], type: 'int' });
  },
  dcountif: (a) => {
    a.site.arity(2, 3);
    return single(a, 'distinctif', 'dcountif', { fn: 'dcountif', args: [a.site.raw(0), a.site.arg(1, 'bool')], type: 'int' });
  },
  sum: simpleNumeric('sum', 'sum', false),
  sumif: simpleNumeric('sumif', 'sumif', true),
  avg: simpleNumeric('avg', 'avg', false),
  avgif: simpleNumeric('avgif', 'avgif', true),
  stdev: simpleNumeric('stdev', 'stdev', false, 'real'),
  stdevif: simpleNumeric('stdevif', 'stdevif', true, 'real'),
  variance: simpleNumeric('variance', 'variance', false, 'real'),
  varianceif: simpleNumeric('varianceif', 'varianceif', true, 'real'),
  min: extreme('min', false),
  max: extreme('max', false),
  minif: extreme('minif', true),
  maxif: extreme('maxif', true),
  percentile: (a) => {
    a.site.arity(2);
    const p = percentileValue(a, 1);
    const value = comparable(a, 0);
    return {
      calls: [{ fn: 'percentile', args: [value], type: value.type, options: { p } }],
      outputs: [{ name: percentileName(a.fieldNames[0], p), value: column, info: { name: 'percentiles', fields: a.fieldNames[0] ? [a.fieldNames[0]] : [], args: [p] } }],
    };
  },
  percentileif: (a) => {
    a.site.arity(3);
    const p = percentileValue(a, 1);
    const value = comparable(a, 0);
    return {
      calls: [{ fn: 'percentileif', args: [value, a.site.arg(2, 'bool')], type: value.type, options: { p } }],
      outputs: [{ name: percentileName(a.fieldNames[0], p), value: column, info: { name: 'percentilesif', fields: a.fieldNames[0] ? [a.fieldNames[0]] : [], args: [p] } }],
    };
  },
  percentiles: (a) => {
    a.site.arity(2, 64);
    const value = comparable(a, 0);
    const ps = a.site.args.slice(1).map((_, i) => percentileValue(a, i + 1));
    return {
      calls: ps.map((p) => ({ fn: 'percentile', args: [value], type: value.type, options: { p } })),
      outputs: ps.map((p, i) => ({
        name: percentileName(a.fieldNames[0], p),
        value: (calls: TExpr[]) => calls[i]!,
        info: { name: 'percentiles', fields: a.fieldNames[0] ? [a.fieldNames[0]] : [], args: [p] },
      })),
    };
  },
  percentiles_array: (a) => {
    a.site.arity(2, 64);
    const value = comparable(a, 0);
    let ps: number[];
    const second = a.site.raw(1);
    if (a.site.count === 2 && second.kind === 'literal' && second.value.type === 'dynamic' && Array.isArray(second.value.value)) {
      ps = second.value.value.map(Number);
    } else {
      ps = a.site.args.slice(1).map((_, i) => percentileValue(a, i + 1));
    }
    if (ps.some((p) => !(p >= 0 && p <= 100))) throw a.site.error('percentiles must be between 0 and 100', 1);
    return single(a, 'percentiles', 'percentiles', { fn: 'percentiles_array', args: [value], type: 'dynamic', options: { ps } }, ps);
  },
  make_list: collection('make_list', 'makelist', false),
  make_list_if: collection('make_list_if', 'makelistif', true),
  make_set: collection('make_set', 'makeset', false),
  make_set_if: collection('make_set_if', 'makesetif', true),
  arg_max: argExtreme('arg_max'),
  arg_min: argExtreme('arg_min'),
  topk: (a) => {
    a.site.arity(2);
    const k = a.site.constNumber(1);
    if (!Number.isInteger(k) || k < 1) throw a.site.error('k must be a whole number >= 1', 1);
    return single(a, 'topk', 'topk', { fn: 'topk', args: [a.site.raw(0)], type: 'dynamic', options: { k } }, [k]);
  },
  rate: (a) => {
    a.site.arity(1);
    const window = a.binSpanNanos ?? a.site.context.windowNanos;
    return single(a, 'rate', 'rate', { fn: 'rate', args: [a.site.arg(0, 'real')], type: 'real', options: { windowNanos: window } });
  },
  histogram: (a) => {
    a.site.arity(2);
    const width = a.site.constNumber(1);
    if (!(width > 0)) throw a.site.error('the bucket width must be a positive number', 1);
    return single(a, 'histogram', 'histogram', { fn: 'histogram', args: [a.site.arg(0, 'real')], type: 'dynamic', options: { width } }, [width]);
  },
};

AGGREGATE_FUNCTIONS.makelist = AGGREGATE_FUNCTIONS.make_list!;
AGGREGATE_FUNCTIONS.makeset = AGGREGATE_FUNCTIONS.make_set!;
AGGREGATE_FUNCTIONS.argmax = AGGREGATE_FUNCTIONS.arg_max!;
AGGREGATE_FUNCTIONS.argmin = AGGREGATE_FUNCTIONS.arg_min!;
