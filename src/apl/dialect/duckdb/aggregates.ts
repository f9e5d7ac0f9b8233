// DuckDB SQL for the aggregations of summarize, one rule per canonical aggregation name.
// Collections come back as JSON, like every dynamic value; exact algorithms are used (count
// distinct, nearest-rank percentiles).
import type { AggregateCall } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { argumentWriter } from './functions/rule';

/** SQL for one aggregation; `a(i)` is the SQL of argument i. */
export type AggregateRule = (agg: AggregateCall, a: (i: number) => string) => string;

const filtered = (sql: string, condition?: string) => (condition ? `${sql} FILTER (WHERE ${condition})` : sql);

function numericResult(agg: AggregateCall, sql: string): string {
  // DuckDB widens integer sums to HUGEINT and averages to DOUBLE; APL keeps long and timespan.
  return agg.type === 'int' || agg.type === 'timespan' ? `CAST(${sql} AS BIGINT)` : sql;
}

const collection =
  (distinct: boolean, conditional: boolean): AggregateRule =>
  (agg, a) => {
    const value = a(0);
    const condition = conditional ? `${a(1)} AND ${value} IS NOT NULL` : `${value} IS NOT NULL`;
    let list = filtered(`list(${distinct ? 'DISTINCT ' : ''}${value})`, condition);
    const max = agg.options?.max;
    if (max !== undefined) list = `list_slice(${list}, 1, ${Math.max(0, Math.floor(Number(max)))})`;
    return `coalesce(to_json(${list}), CAST('[]' AS JSON))`;
  };

const argExtreme: AggregateRule = (agg, a) => {
  const fields = agg.options?.fields as string[];
  const struct = `struct_pack(${fields.map((f, i) => `"${f}" := ${a(i)}`).join(', ')})`;
  return `${agg.fn}(${struct}, ${a(0)})`;
};

export const AGGREGATE_RULES: Record<string, AggregateRule> = {
  count: () => 'count(*)',
  count_values: (_agg, a) => `count(${a(0)})`,
  countif: (_agg, a) => `count(*) FILTER (WHERE ${a(0)})`,
  dcount: (_agg, a) => `count(DISTINCT ${a(0)})`,
  dcountif: (_agg, a) => `count(DISTINCT ${a(0)}) FILTER (WHERE ${a(1)})`,
  sum: (agg, a) => numericResult(agg, `sum(${a(0)})`),
  sumif: (agg, a) => numericResult(agg, filtered(`sum(${a(0)})`, a(1))),
  avg: (agg, a) => numericResult(agg, `avg(${a(0)})`),
  avgif: (agg, a) => numericResult(agg, filtered(`avg(${a(0)})`, a(1))),
  min: (_agg, a) => `min(${a(0)})`,
  max: (_agg, a) => `max(${a(0)})`,
  minif: (_agg, a) => filtered(`min(${a(0)})`, a(1)),
  maxif: (_agg, a) => filtered(`max(${a(0)})`, a(1)),
  stdev: (_agg, a) => `stddev_samp(${a(0)})`,
  stdevif: (_agg, a) => filtered(`stddev_samp(${a(0)})`, a(1)),
  variance: (_agg, a) => `var_samp(${a(0)})`,
  varianceif: (_agg, a) => filtered(`var_samp(${a(0)})`, a(1)),
  percentile: (agg, a) => `quantile_disc(${a(0)}, ${Number(agg.options?.p) / 100})`,
  percentileif: (agg, a) => filtered(`quantile_disc(${a(0)}, ${Number(agg.options?.p) / 100})`, a(1)),
  percentiles_array: (agg, a) => {
    const ps = (agg.options?.ps as number[]).map((p) => String(p / 100)).join(', ');
    return `to_json(quantile_disc(${a(0)}, [${ps}]))`;
  },
  make_list: collection(false, false),
  make_list_if: collection(false, true),
  make_set: collection(true, false),
  make_set_if: collection(true, true),
  arg_max: argExtreme,
  arg_min: argExtreme,
  topk: (agg, a) => {
    const value = a(0);
    const counted = `list_transform(map_entries(histogram(${value}) FILTER (WHERE ${value} IS NOT NULL)), lambda e: {'count': e.value, 'key': e.key})`;
    const top = `list_slice(list_reverse_sort(${counted}), 1, ${Math.floor(Number(agg.options?.k))})`;
    return `coalesce(to_json(list_transform(${top}, lambda e: {'key': e.key, 'count': e.count})), CAST('[]' AS JSON))`;
  },
  rate: (agg, a) => {
    const sum = `sum(${a(0)})`;
    const windowNanos = agg.options?.windowNanos;
    if (windowNanos !== undefined) return `(${sum} / ${Number(windowNanos) / 1e9})`;
    if (agg.args.length > 1) {
      const t = a(1);
      return `(${sum} / greatest((epoch_ns(max(${t})) - epoch_ns(min(${t}))) / 1e9, 1))`;
    }
    return `CAST(${sum} AS DOUBLE)`;
  },
  histogram: (agg, a) => {
    const width = Number(agg.options?.width);
    const value = a(0);
    const buckets = `histogram(floor(${value} / ${width}) * ${width}) FILTER (WHERE ${value} IS NOT NULL)`;
    return `coalesce(to_json(list_transform(list_sort(map_entries(${buckets})), lambda e: {'value': e.key, 'count': e.value})), CAST('[]' AS JSON))`;
  },
};

export function aggregateSql(w: ExprWriter, agg: AggregateCall): string {
  const rule = AGGREGATE_RULES[agg.fn];
  if (!rule) throw new Error(`the DuckDB dialect has no aggregation ${agg.fn}`);
  return rule(agg, argumentWriter(w, agg.args));
}
