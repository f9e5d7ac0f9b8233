// DuckDB SQL for the aggregations of summarize, one rule per canonical aggregation name.
// Collections come back as JSON, like every dynamic value; exact algorithms are used (count
// distinct, nearest-rank percentiles). A call's row filter (the `*if` forms) becomes a FILTER
// clause on every aggregate the rule writes.
import { quoteLiteral } from '../../../engines/duckdb/layout';
import type { AggregateCall } from '../../semantic/plan';
import { aggregateConditions } from '../base/aggregates';
import type { ExprWriter } from './expressions';
import { convertSql } from './functions/conversion';
import { argumentWriter } from './functions/rule';
import { STOP_WORDS } from '../base/stop-words';

/**
 * SQL for one aggregation; `a(i)` is the SQL of argument i, `where(extra)` the FILTER clause
 * an aggregate of this call takes (the call's row filter and `extra`, either may be absent).
 */
export type AggregateRule = (agg: AggregateCall, a: (i: number) => string, where: (extra?: string) => string) => string;

const EMPTY_ARRAY = `CAST('[]' AS JSON)`;

function numericResult(agg: AggregateCall, sql: string): string {
  // DuckDB widens integer sums to HUGEINT and averages to DOUBLE; APL keeps long and timespan.
  return agg.type === 'int' || agg.type === 'timespan' ? `CAST(${sql} AS BIGINT)` : sql;
}

const collection =
  (distinct: boolean): AggregateRule =>
  (agg, a, where) => {
    const value = a(0);
    const list = `list_slice(list(${distinct ? 'DISTINCT ' : ''}${value})${where(`${value} IS NOT NULL`)}, 1, ${Math.floor(Number(agg.options?.max))})`;
    return `coalesce(to_json(${list}), ${EMPTY_ARRAY})`;
  };

const argExtreme: AggregateRule = (agg, a, where) => {
  const fields = agg.options?.fields as string[];
  const struct = `struct_pack(${fields.map((f, i) => `"${f}" := ${a(i)}`).join(', ')})`;
  return `${agg.fn}(${struct}, ${a(0)})${where()}`;
};

/**
 * The phrases of one text: runs of words between punctuation and stop words, lower-cased
 * (the candidate phrases of keyword extraction).
 */
function phrasesOf(text: string): string {
  const punctuation = `regexp_replace(lower(${text}), '[^\\pL\\pN\\s'']+', '|', 'g')`;
  const stops = `regexp_replace(${punctuation}, '\\b(?:${STOP_WORDS.join('|')})\\b', '|', 'g')`;
  return `list_filter(list_transform(string_split(${stops}, '|'), lambda p: trim(regexp_replace(p, '\\s+', ' ', 'g'))), lambda p: p <> '')`;
}

/** One field of spotlight: how its values differ between the selected rows and the rest. */
function spotlightField(name: string, kind: string, value: string, selected: string, where: (extra?: string) => string): { score: string; json: string } {
  const inSet = `(${selected})`;
  const inBase = `(${selected} IS NOT TRUE)`;
  const selectedRows = `count(*)${where(inSet)}`;
  const baselineRows = `count(*)${where(inBase)}`;
  const common = `'field', ${quoteLiteral(name)}, 'kind', '${kind}', 'selected_events', ${selectedRows}, 'baseline_events', ${baselineRows}`;
  if (kind === 'numeric') {
    const quantiles = (set: string) => `quantile_cont(${value}, [0, 0.25, 0.5, 0.75, 1])${where(`${set} AND ${value} IS NOT NULL`)}`;
    const sel = quantiles(inSet);
    const base = quantiles(inBase);
    const box = (q: string, set: string) =>
      `CASE WHEN ${q} IS NOT NULL THEN json_object('count', count(${value})${where(set)}, 'min', ${q}[1], 'p25', ${q}[2], 'p50', ${q}[3], 'p75', ${q}[4], 'max', ${q}[5]) END`;
    // The shift of the median relative to the whole range of both sets, from 0 to 1.
    const score = `abs(${sel}[3] - ${base}[3]) / nullif(greatest(${sel}[5], ${base}[5]) - least(${sel}[1], ${base}[1]), 0)`;
    return { score, json: `json_object(${common}, 'score', ${score}, 'selected', ${box(sel, inSet)}, 'baseline', ${box(base, inBase)})` };
  }
  const sel = `histogram(${value})${where(`${inSet} AND ${value} IS NOT NULL`)}`;
  const base = `histogram(${value})${where(`${inBase} AND ${value} IS NOT NULL`)}`;
  const keys = `list_distinct(list_concat(coalesce(map_keys(${sel}), []), coalesce(map_keys(${base}), [])))`;
  const share = (map: string, rows: string) => `coalesce(map_extract_value(${map}, k), 0) / greatest(${rows}, 1)`;
  const diffs = `list_transform(${keys}, lambda k: {'diff': abs(${share(sel, selectedRows)} - ${share(base, baselineRows)}), 'value': k, 'selected': coalesce(map_extract_value(${sel}, k), 0), 'baseline': coalesce(map_extract_value(${base}, k), 0)})`;
  // The largest difference in the share of events having a value, from 0 to 1.
  const score = `list_max(list_transform(${diffs}, lambda d: d.diff))`;
  const values = `list_transform(list_slice(list_reverse_sort(${diffs}), 1, 10), lambda d: json_object('value', d.value, 'selected_count', d.selected, 'baseline_count', d.baseline))`;
  return { score, json: `json_object(${common}, 'score', ${score}, 'values', to_json(${values}))` };
}

export const AGGREGATE_RULES: Record<string, AggregateRule> = {
  count: (agg, a, where) => (agg.args.length ? `count(${a(0)})${where()}` : `count(*)${where()}`),
  dcount: (_agg, a, where) => `count(DISTINCT ${a(0)})${where()}`,
  sum: (agg, a, where) => {
    const sum = numericResult(agg, `sum(${a(0)})${where()}`);
    // sumif over no matching rows is 0, as Axiom documents.
    return agg.filter ? `coalesce(${sum}, 0)` : sum;
  },
  avg: (agg, a, where) => numericResult(agg, `avg(${a(0)})${where()}`),
  min: (_agg, a, where) => `min(${a(0)})${where()}`,
  max: (_agg, a, where) => `max(${a(0)})${where()}`,
  stdev: (agg, a, where) => numericResult(agg, `stddev_samp(${a(0)})${where()}`),
  variance: (_agg, a, where) => `var_samp(${a(0)})${where()}`,
  percentile: (agg, a, where) => `quantile_disc(${a(0)}, ${Number(agg.options?.p) / 100})${where()}`,
  percentiles_array: (agg, a, where) => {
    const ps = (agg.options?.ps as number[]).map((p) => String(p / 100)).join(', ');
    const values = `quantile_disc(${a(0)}, [${ps}])${where()}`;
    const type = agg.args[0]!.type;
    // Times in an array are the text they print as.
    if (type === 'timespan' || type === 'datetime') return `to_json(list_transform(${values}, lambda q: ${convertSql('q', type, 'string', false)}))`;
    return `to_json(${values})`;
  },
  make_list: collection(false),
  make_set: collection(true),
  arg_max: argExtreme,
  arg_min: argExtreme,
  topk: (agg, a, where) => {
    const value = a(0);
    // Most frequent first; equally frequent values in ascending order.
    const ranked = `list_sort(list_transform(map_entries(histogram(${value})${where(`${value} IS NOT NULL`)}), lambda e: {'rank': -CAST(e.value AS BIGINT), 'key': e.key}))`;
    const top = `list_slice(${ranked}, 1, ${Math.floor(Number(agg.options?.k))})`;
    return `coalesce(to_json(list_transform(${top}, lambda e: {'key': e.key, 'count': -e.rank})), ${EMPTY_ARRAY})`;
  },
  rate: (agg, a, where) => {
    const sum = `sum(${a(0)})${where()}`;
    const windowNanos = agg.options?.windowNanos;
    if (windowNanos !== undefined) return `(${sum} / ${Number(windowNanos) / 1e9})`;
    if (agg.args.length > 1) {
      const t = a(1);
      return `(${sum} / greatest((epoch_ns(max(${t})${where()}) - epoch_ns(min(${t})${where()})) / 1e9, 1))`;
    }
    return `CAST(${sum} AS DOUBLE)`;
  },
  histogram: (agg, a, where) => {
    const width = Number(agg.options?.width);
    const value = a(0);
    const buckets = `histogram(floor(${value} / ${width}) * ${width})${where(`${value} IS NOT NULL`)}`;
    const key = agg.args[0]!.type === 'timespan' ? convertSql('CAST(e.key AS BIGINT)', 'timespan', 'string', false) : 'e.key';
    return `coalesce(to_json(list_transform(list_sort(map_entries(${buckets})), lambda e: {'value': ${key}, 'count': e.value})), ${EMPTY_ARRAY})`;
  },
  phrases: (agg, a, where) => {
    const all = `flatten(list(${phrasesOf(a(0))})${where(`${a(0)} IS NOT NULL`)})`;
    // Most frequent first; equally frequent phrases in alphabetical order.
    const ranked = `list_sort(list_transform(map_entries(list_aggregate(${all}, 'histogram')), lambda e: {'rank': -CAST(e.value AS BIGINT), 'phrase': e.key}))`;
    const top = `list_slice(${ranked}, 1, ${Math.floor(Number(agg.options?.max))})`;
    return `coalesce(to_json(list_transform(${top}, lambda e: {'phrase': e.phrase, 'count': -e.rank})), ${EMPTY_ARRAY})`;
  },
  spotlight: (agg, a, where) => {
    const names = agg.options?.names as string[];
    const kinds = agg.options?.kinds as string[];
    const fields = names.map((name, i) => spotlightField(name, kinds[i]!, a(i + 1), a(0), where));
    // The fields whose values differ most come first.
    const ranked = `list_reverse_sort([${fields.map((f) => `{'score': coalesce(${f.score}, -1), 'result': ${f.json}}`).join(', ')}])`;
    return `to_json(list_transform(${ranked}, lambda r: r.result))`;
  },
};

export function aggregateSql(w: ExprWriter, agg: AggregateCall): string {
  const rule = AGGREGATE_RULES[agg.fn];
  if (!rule) throw new Error(`the DuckDB dialect has no aggregation ${agg.fn}`);
  const conditions = aggregateConditions(w, agg);
  const where = (extra?: string) => {
    const all = conditions(extra);
    return all.length ? ` FILTER (WHERE ${all.join(' AND ')})` : '';
  };
  return rule(agg, argumentWriter(w, agg.args), where);
}
