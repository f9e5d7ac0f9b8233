// ClickHouse SQL for the aggregations of summarize, with the DuckDB dialect's answers: exact
// algorithms (exact distinct counts, nearest-rank percentiles), null over no rows, collections
// as JSON text like every dynamic value. A call's row filter (the `*if` forms) becomes the `-If`
// combinator on every aggregate the rule writes.
import type { AggregateCall, AplType } from '../../semantic/plan';
import { aggregateConditions } from '../base/aggregates';
import { STOP_WORDS } from '../base/stop-words';
import type { ExprWriter } from './expressions';
import { rfc3339Sql, timestampTextSql } from './formatting';
import { convertSql, doubleToInt, jsonArrayOf, notNull } from './functions';
import { argumentWriter } from './functions/rule';

/**
 * SQL for one aggregation; `a(i)` is the SQL of argument i, `where(extra)` the condition an
 * aggregate of this call takes (the call's row filter and `extra`), undefined when there is none.
 */
type AggregateRule = (agg: AggregateCall, a: (i: number) => string, where: (extra?: string) => string | undefined, w: ExprWriter) => string;

/** `fn(args)`, or its `-If` form under a condition (`OrNull` and other suffixes after it). */
function conditional(fn: string, args: string[], condition: string | undefined, suffix = ''): string {
  return condition ? `${fn}If${suffix}(${[...args, condition].join(', ')})` : `${fn}${suffix}(${args.join(', ')})`;
}

/** An element of a collection as JSON text, as DuckDB's to_json of a list writes it. */
function elementJson(x: string, type: AplType): string {
  switch (type) {
    case 'dynamic':
      return x;
    case 'datetime':
      return `toJSONString(${timestampTextSql(x)})`;
    case 'string':
      return `toJSONString(${x})`;
    default:
      return convertSql(x, type, 'dynamic', false);
  }
}

/** A long or timespan result: sums stay integers; other results round as DuckDB's cast does. */
function numericResult(agg: AggregateCall, sql: string, sum = false): string {
  if (agg.type !== 'int' && agg.type !== 'timespan') return sql;
  return sum ? `toInt64(${sql})` : doubleToInt(sql);
}

/** The nearest-rank percentile `p` (0..1) of the non-null values, as DuckDB's quantile_disc. */
function nearestRank(value: string, p: number, condition?: string): string {
  const list = `arraySort(${conditional('groupArray', [value], condition)})`;
  return `arrayMap(s -> if(empty(s), NULL, s[toUInt64(greatest(1, ceil(${p} * length(s))))]), [${list}])[1]`;
}

/** Counts of each value: a (keys, counts) tuple sorted by key. */
const countsOf = (key: string, condition: string) => `sumMapIf([${notNull(key)}], [toUInt64(1)], ${condition})`;

/**
 * The phrases of one text: runs of words between punctuation and stop words, lower-cased (the
 * candidate phrases of keyword extraction), as the DuckDB dialect cuts them.
 */
function phrasesOf(w: ExprWriter, text: string): string {
  const punctuation = `replaceRegexpAll(lowerUTF8(${text}), ${w.constant("[^\\pL\\pN\\s']+")}, '|')`;
  const stops = `replaceRegexpAll(${punctuation}, ${w.constant(`\\b(?:${STOP_WORDS.join('|')})\\b`)}, '|')`;
  return `arrayFilter(p -> p != '', arrayMap(p -> trimBoth(replaceRegexpAll(p, ${w.constant('\\s+')}, ' ')), splitByChar('|', ${stops})))`;
}

/** A JSON object text of `name: valueSql` pairs (values already JSON text). */
const jsonObject = (entries: [string, string][]) => `concat('{', ${entries.map(([k, v]) => `'"${k}":', ${v}`).join(", ',', ")}, '}')`;

/** A double as JSON (null when missing or not finite). */
const jsonNumber = (x: string) => `ifNull(toString(if(isFinite(${x}), ${x}, NULL)), 'null')`;

/**
 * One field of spotlight: how its values differ between the selected rows and the rest. The
 * quartiles interpolate linearly, as DuckDB's quantile_cont; categorical scores are the largest
 * difference in the share of events having a value.
 */
function spotlightField(w: ExprWriter, name: string, kind: string, value: string, selected: string, where: (extra?: string) => string | undefined): { score: string; json: string } {
  const inSet = `(${selected})`;
  const inBase = `(NOT ifNull(${selected}, false))`;
  const selectedRows = `countIf(${where(inSet)})`;
  const baselineRows = `countIf(${where(inBase)})`;
  const common: [string, string][] = [
    ['field', w.constant(JSON.stringify(name))],
    ['kind', `'"${kind}"'`],
    ['selected_events', `toString(${selectedRows})`],
    ['baseline_events', `toString(${baselineRows})`],
  ];
  if (kind === 'numeric') {
    const present = (set: string) => where(`${set} AND ${value} IS NOT NULL`)!;
    const quantiles = (set: string) => `if(countIf(${present(set)}) = 0, [nan, nan, nan, nan, nan], quantilesExactInclusiveIf(0, 0.25, 0.5, 0.75, 1)(${value}, ${present(set)}))`;
    const [sel, base] = [quantiles(inSet), quantiles(inBase)];
    const box = (q: string, set: string) =>
      `if(countIf(${present(set)}) = 0, 'null', ${jsonObject([
        ['count', `toString(countIf(${present(set)}))`],
        ['min', jsonNumber(`${q}[1]`)],
        ['p25', jsonNumber(`${q}[2]`)],
        ['p50', jsonNumber(`${q}[3]`)],
        ['p75', jsonNumber(`${q}[4]`)],
        ['max', jsonNumber(`${q}[5]`)],
      ])})`;
    // The shift of the median relative to the whole range of both sets, from 0 to 1.
    const raw = `(abs(${sel}[3] - ${base}[3]) / nullIf(greatest(${sel}[5], ${base}[5]) - least(${sel}[1], ${base}[1]), 0))`;
    const score = `if(isFinite(${raw}), ${raw}, NULL)`;
    return { score, json: jsonObject([...common, ['score', jsonNumber(score)], ['selected', box(sel, inSet)], ['baseline', box(base, inBase)]]) };
  }
  const counts = (set: string) => `sumMapIf([${notNull(value)}], [toUInt64(1)], ${where(`${set} AND ${value} IS NOT NULL`)!})`;
  // The aggregates are bound once (t), then worked on with lambdas.
  const countIn = (map: string) => `toInt64(ifNull(arrayElementOrNull(${map}.2, indexOf(${map}.1, k)), 0))`;
  const keys = `arrayDistinct(arrayConcat(t.1.1, t.2.1))`;
  const diffs = `arrayMap(k -> tuple(abs(${countIn('t.1')} / greatest(t.3, 1) - ${countIn('t.2')} / greatest(t.4, 1)), k, ${countIn('t.1')}, ${countIn('t.2')}), ${keys})`;
  const bound = (body: string) => `arrayMap(t -> ${body}, [tuple(${counts(inSet)}, ${counts(inBase)}, ${selectedRows}, ${baselineRows})])[1]`;
  const score = bound(`if(empty(${keys}), NULL, arrayMax(arrayMap(d -> d.1, ${diffs})))`);
  const values = bound(
    `concat('[', arrayStringConcat(arrayMap(d -> concat('{"value":', toJSONString(d.2), ',"selected_count":', toString(d.3), ',"baseline_count":', toString(d.4), '}'), arraySlice(arrayReverseSort(${diffs}), 1, 10)), ','), ']')`,
  );
  return { score, json: jsonObject([...common, ['score', jsonNumber(score)], ['values', values]]) };
}

const collection =
  (distinct: boolean): AggregateRule =>
  (agg, a, where) => {
    const value = a(0);
    let list = conditional(distinct ? 'groupUniqArray' : 'groupArray', [value], where(`${value} IS NOT NULL`));
    if (agg.options?.max !== undefined) list = `arraySlice(${list}, 1, ${Math.max(0, Math.floor(Number(agg.options.max)))})`;
    return jsonArrayOf(`arrayMap(v -> ${elementJson('v', agg.args[0]!.type)}, ${list})`);
  };

const argExtreme: AggregateRule = (agg, a, where) => {
  const fields = agg.options?.fields as string[];
  const tuple = `tuple(${fields.map((_, i) => a(i)).join(', ')})`;
  return conditional(agg.fn === 'arg_max' ? 'argMax' : 'argMin', [tuple, a(0)], where());
};

const deviation =
  (fn: 'stddevSamp' | 'varSamp'): AggregateRule =>
  (agg, a, where) => {
    const value = a(0);
    // One value has no sample deviation: null, as in DuckDB (ClickHouse would give nan).
    const sql = `if(countIf(${where(`${value} IS NOT NULL`)}) > 1, ${conditional(fn, [value], where())}, NULL)`;
    return numericResult(agg, sql);
  };

/** Canonical aggregation name → ClickHouse SQL rule. */
export const CLICKHOUSE_AGGREGATE_RULES: Record<string, AggregateRule> = {
  count: (agg, a, where) => (agg.args.length ? `toInt64(countIf(${where(`${a(0)} IS NOT NULL`)}))` : `toInt64(${conditional('count', [], where())})`),
  dcount: (_agg, a, where) => `toInt64(${conditional('uniqExact', [a(0)], where())})`,
  sum: (agg, a, where) => {
    const sum = numericResult(agg, conditional('sum', [a(0)], where(), 'OrNull'), true);
    // sumif over no matching rows is 0, as Axiom documents.
    return agg.filter ? `ifNull(${sum}, 0)` : sum;
  },
  avg: (agg, a, where) => numericResult(agg, conditional('avg', [a(0)], where(), 'OrNull')),
  min: (_agg, a, where) => conditional('min', [a(0)], where(), 'OrNull'),
  max: (_agg, a, where) => conditional('max', [a(0)], where(), 'OrNull'),
  stdev: deviation('stddevSamp'),
  variance: deviation('varSamp'),
  percentile: (agg, a, where) => nearestRank(a(0), Number(agg.options?.p) / 100, where()),
  percentiles_array: (agg, a, where) => {
    const ps = (agg.options?.ps as number[]).map((p) => p / 100);
    const list = `arraySort(${conditional('groupArray', [a(0)], where())})`;
    const items = ps.map((p) => `s[toUInt64(greatest(1, ceil(${p} * length(s))))]`);
    const type = agg.args[0]!.type;
    // Times in an array are the text they print as.
    const item = type === 'datetime' ? `toJSONString(${rfc3339Sql('v')})` : elementJson('v', type);
    return `arrayMap(s -> if(empty(s), NULL, ${jsonArrayOf(`arrayMap(v -> ${item}, [${items.join(', ')}])`)}), [${list}])[1]`;
  },
  make_list: collection(false),
  make_set: collection(true),
  arg_max: argExtreme,
  arg_min: argExtreme,
  topk: (agg, a, where) => {
    const value = a(0);
    // Most frequent first; equally frequent values in ascending order.
    const top = `arraySlice(arraySort(e -> (-toInt64(e.2), e.1), arrayZip(c.1, c.2)), 1, ${Math.floor(Number(agg.options?.k))})`;
    const json = jsonArrayOf(`arrayMap(e -> concat('{"key":', ${elementJson('e.1', agg.args[0]!.type)}, ',"count":', toString(e.2), '}'), ${top})`);
    return `arrayMap(c -> ${json}, [${countsOf(value, where(`${value} IS NOT NULL`)!)}])[1]`;
  },
  rate: (agg, a, where) => {
    const sum = conditional('sum', [a(0)], where(), 'OrNull');
    const windowNanos = agg.options?.windowNanos;
    if (windowNanos !== undefined) return `(${sum} / ${Number(windowNanos) / 1e9})`;
    return `toFloat64(${sum})`;
  },
  histogram: (agg, a, where) => {
    const width = Number(agg.options?.width);
    const value = a(0);
    const buckets = countsOf(`floor(${value} / ${width}) * ${width}`, where(`${value} IS NOT NULL`)!);
    const key = agg.args[0]!.type === 'timespan' ? `toJSONString(${convertSql('toInt64(k)', 'timespan', 'string', false)})` : 'toString(k)';
    const json = jsonArrayOf(`arrayMap(k, n -> concat('{"value":', ${key}, ',"count":', toString(n), '}'), h.1, h.2)`);
    return `arrayMap(h -> ${json}, [${buckets}])[1]`;
  },
  phrases: (agg, a, where, w) => {
    const phrases = phrasesOf(w, a(0));
    const counts = `sumMapIf(${phrases}, arrayMap(p -> toUInt64(1), ${phrases}), ${where(`${a(0)} IS NOT NULL`)!})`;
    // Most frequent first; equally frequent phrases in alphabetical order.
    const top = `arraySlice(arraySort(e -> (-toInt64(e.2), e.1), arrayZip(c.1, c.2)), 1, ${Math.floor(Number(agg.options?.max))})`;
    return `arrayMap(c -> ${jsonArrayOf(`arrayMap(e -> concat('{"phrase":', toJSONString(e.1), ',"count":', toString(e.2), '}'), ${top})`)}, [${counts}])[1]`;
  },
  spotlight: (agg, a, where, w) => {
    const names = agg.options?.names as string[];
    const kinds = agg.options?.kinds as string[];
    const fields = names.map((name, i) => spotlightField(w, name, kinds[i]!, a(i + 1), a(0), where));
    // The fields whose values differ most come first.
    const ranked = `arrayReverseSort([${fields.map((f) => `tuple(ifNull(${f.score}, -1), ${f.json})`).join(', ')}])`;
    return `concat('[', arrayStringConcat(arrayMap(r -> r.2, ${ranked}), ','), ']')`;
  },
};

export function aggregateSql(w: ExprWriter, agg: AggregateCall): string {
  const a = argumentWriter(w, agg.args);
  const conditions = aggregateConditions(w, agg);
  const where = (extra?: string) => {
    const all = conditions(extra);
    return all.length ? all.join(' AND ') : undefined;
  };
  const rule = CLICKHOUSE_AGGREGATE_RULES[agg.fn];
  if (!rule) throw new Error(`the ClickHouse dialect has no rule for the aggregation ${agg.fn}`);
  return rule(agg, a, where, w);
}
