// ClickHouse SQL for the aggregations of summarize, with the DuckDB dialect's answers: exact
// algorithms (exact distinct counts, nearest-rank percentiles), null over no rows, collections
// as JSON text like every dynamic value.
import type { AggregateCall, AplType } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { timestampTextSql } from './formatting';
import { convertSql, doubleToInt, jsonArrayOf, notNull } from './functions';
import { unsupportedOnClickHouse } from './unsupported';

/** `-If` form of an aggregate when there is a condition. */
const maybeIf = (fn: string, args: string[], condition?: string) => (condition ? `${fn}If(${[...args, condition].join(', ')})` : `${fn}(${args.join(', ')})`);

/** Rows that count: the value present, and the condition true where there is one. */
const counted = (value: string, condition?: string) => (condition ? `(${value} IS NOT NULL AND ${condition})` : `(${value} IS NOT NULL)`);

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

/** The nearest-rank percentile `p` (0..1) of the non-null values, as DuckDB's quantile_disc. */
function nearestRank(value: string, p: number, condition?: string): string {
  const list = condition ? `arraySort(groupArrayIf(${value}, ${condition}))` : `arraySort(groupArray(${value}))`;
  return `arrayMap(s -> if(empty(s), NULL, s[toUInt64(greatest(1, ceil(${p} * length(s))))]), [${list}])[1]`;
}

export function aggregateSql(w: ExprWriter, agg: AggregateCall): string {
  const a = (i: number) => w.write(agg.args[i]!);
  const o = agg.options ?? {};
  const conditional = agg.fn.endsWith('if') && agg.fn !== 'countif' && agg.fn !== 'dcountif';
  const condition = conditional ? a(1) : undefined;
  const numeric = (sql: string) => (agg.type === 'int' || agg.type === 'timespan' ? doubleOrInt(sql, agg.args[0]!.type) : sql);
  switch (agg.fn) {
    case 'count':
      return 'toInt64(count())';
    case 'count_values':
      return `toInt64(count(${a(0)}))`;
    case 'countif':
      return `toInt64(countIf(${a(0)}))`;
    case 'dcount':
      return `toInt64(uniqExact(${a(0)}))`;
    case 'dcountif':
      return `toInt64(uniqExactIf(${a(0)}, ${a(1)}))`;
    case 'sum':
    case 'sumif':
      return numeric(condition ? `sumIfOrNull(${a(0)}, ${condition})` : `sumOrNull(${a(0)})`);
    case 'avg':
    case 'avgif':
      return numeric(`${conditional ? 'avgIfOrNull' : 'avgOrNull'}(${[a(0), ...(condition ? [condition] : [])].join(', ')})`);
    case 'min':
    case 'max':
      return `${agg.fn}OrNull(${a(0)})`;
    case 'minif':
    case 'maxif':
      return `${agg.fn.slice(0, 3)}IfOrNull(${a(0)}, ${a(1)})`;
    case 'stdev':
    case 'stdevif':
    case 'variance':
    case 'varianceif': {
      const fn = agg.fn.startsWith('stdev') ? 'stddevSamp' : 'varSamp';
      // One value has no sample deviation: null, as in DuckDB (ClickHouse would give nan).
      return `if(countIf(${counted(a(0), condition)}) > 1, ${maybeIf(fn, [a(0)], condition)}, NULL)`;
    }
    case 'percentile':
    case 'percentileif':
      return nearestRank(a(0), Number(o.p) / 100, condition);
    case 'percentiles_array': {
      const ps = (o.ps as number[]).map((p) => p / 100);
      const list = `arraySort(groupArray(${a(0)}))`;
      const items = ps.map((p) => `s[toUInt64(greatest(1, ceil(${p} * length(s))))]`);
      const json = jsonArrayOf(`arrayMap(v -> ${elementJson('v', agg.args[0]!.type)}, [${items.join(', ')}])`);
      return `arrayMap(s -> if(empty(s), NULL, ${json}), [${list}])[1]`;
    }
    case 'make_list':
    case 'make_list_if':
    case 'make_set':
    case 'make_set_if': {
      const value = a(0);
      const type = agg.args[0]!.type;
      const fn = agg.fn.startsWith('make_set') ? 'groupUniqArray' : 'groupArray';
      const ifCondition = agg.fn.endsWith('_if') ? a(1) : undefined;
      let list = ifCondition ? `${fn}If(${value}, ${counted(value, ifCondition)})` : `${fn}(${value})`;
      if (o.max !== undefined) list = `arraySlice(${list}, 1, ${Math.max(0, Math.floor(Number(o.max)))})`;
      return jsonArrayOf(`arrayMap(v -> ${elementJson('v', type)}, ${list})`);
    }
    case 'arg_max':
    case 'arg_min': {
      const fields = o.fields as string[];
      const tuple = `tuple(${fields.map((_, i) => a(i)).join(', ')})`;
      return `${agg.fn === 'arg_max' ? 'argMax' : 'argMin'}(${tuple}, ${a(0)})`;
    }
    case 'topk': {
      const value = a(0);
      const type = agg.args[0]!.type;
      const counts = `sumMapIf([${notNull(value)}], [toUInt64(1)], ${value} IS NOT NULL)`;
      const pairs = `arrayZip(c.1, c.2)`;
      const top = `arraySlice(arrayReverseSort(e -> (e.2, e.1), ${pairs}), 1, ${Math.floor(Number(o.k))})`;
      const json = jsonArrayOf(`arrayMap(e -> concat('{"key":', ${elementJson('e.1', type)}, ',"count":', toString(e.2), '}'), ${top})`);
      return `arrayMap(c -> ${json}, [${counts}])[1]`;
    }
    case 'rate': {
      const sum = `sumOrNull(${a(0)})`;
      if (o.windowNanos !== undefined) return `(${sum} / ${Number(o.windowNanos) / 1e9})`;
      if (agg.args.length > 1) {
        const t = a(1);
        return `(${sum} / greatest((max(${t}) - min(${t})) / 1e9, 1))`;
      }
      return `toFloat64(${sum})`;
    }
    case 'histogram': {
      const width = Number(o.width);
      const value = a(0);
      const buckets = `sumMapIf([${notNull(`floor(${value} / ${width}) * ${width}`)}], [toUInt64(1)], ${value} IS NOT NULL)`;
      const json = jsonArrayOf(`arrayMap(k, n -> concat('{"value":', toString(k), ',"count":', toString(n), '}'), h.1, h.2)`);
      return `arrayMap(h -> ${json}, [${buckets}])[1]`;
    }
    default:
      throw unsupportedOnClickHouse(agg.fn);
  }
}

/** A long or timespan result: sums stay integers; averages round as DuckDB's cast does. */
function doubleOrInt(sql: string, argType: AplType): string {
  if (sql.startsWith('sum') && (argType === 'int' || argType === 'timespan')) return `toInt64(${sql})`;
  return doubleToInt(sql);
}
