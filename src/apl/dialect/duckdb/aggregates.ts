// DuckDB SQL for the aggregations of summarize. Collections come back as JSON, like every
// dynamic value; exact algorithms are used (count distinct, nearest-rank percentiles).
import type { AggregateCall } from '../../semantic/plan';
import type { ExprWriter } from './expressions';

const filtered = (sql: string, condition?: string) => (condition ? `${sql} FILTER (WHERE ${condition})` : sql);

function numericResult(agg: AggregateCall, sql: string): string {
  // DuckDB widens integer sums to HUGEINT and averages to DOUBLE; APL keeps long and timespan.
  return agg.type === 'int' || agg.type === 'timespan' ? `CAST(${sql} AS BIGINT)` : sql;
}

export function aggregateSql(w: ExprWriter, agg: AggregateCall): string {
  const a = (i: number) => w.write(agg.args[i]!);
  const o = agg.options ?? {};
  switch (agg.fn) {
    case 'count':
      return 'count(*)';
    case 'count_values':
      return `count(${a(0)})`;
    case 'countif':
      return `count(*) FILTER (WHERE ${a(0)})`;
    case 'dcount':
      return `count(DISTINCT ${a(0)})`;
    case 'dcountif':
      return `count(DISTINCT ${a(0)}) FILTER (WHERE ${a(1)})`;
    case 'sum':
    case 'sumif':
      return numericResult(agg, filtered(`sum(${a(0)})`, agg.fn === 'sumif' ? a(1) : undefined));
    case 'avg':
    case 'avgif':
      return numericResult(agg, filtered(`avg(${a(0)})`, agg.fn === 'avgif' ? a(1) : undefined));
    case 'min':
    case 'max':
      return `${agg.fn}(${a(0)})`;
    case 'minif':
    case 'maxif':
      return filtered(`${agg.fn.slice(0, 3)}(${a(0)})`, a(1));
    case 'stdev':
    case 'stdevif':
      return filtered(`stddev_samp(${a(0)})`, agg.fn === 'stdevif' ? a(1) : undefined);
    case 'variance':
    case 'varianceif':
      return filtered(`var_samp(${a(0)})`, agg.fn === 'varianceif' ? a(1) : undefined);
    case 'percentile':
    case 'percentileif':
      return filtered(`quantile_disc(${a(0)}, ${Number(o.p) / 100})`, agg.fn === 'percentileif' ? a(1) : undefined);
    case 'percentiles_array': {
      const ps = (o.ps as number[]).map((p) => String(p / 100)).join(', ');
      return `to_json(quantile_disc(${a(0)}, [${ps}]))`;
    }
    case 'make_list':
    case 'make_list_if':
    case 'make_set':
    case 'make_set_if': {
      const value = a(0);
      const distinct = agg.fn.startsWith('make_set') ? 'DISTINCT ' : '';
      const condition = agg.fn.endsWith('_if') ? `${a(1)} AND ${value} IS NOT NULL` : `${value} IS NOT NULL`;
      let list = filtered(`list(${distinct}${value})`, condition);
      if (o.max !== undefined) list = `list_slice(${list}, 1, ${Math.max(0, Math.floor(Number(o.max)))})`;
      return `coalesce(to_json(${list}), CAST('[]' AS JSON))`;
    }
    case 'arg_max':
    case 'arg_min': {
      const fields = o.fields as string[];
      const struct = `struct_pack(${fields.map((f, i) => `"${f}" := ${a(i)}`).join(', ')})`;
      return `${agg.fn}(${struct}, ${a(0)})`;
    }
    case 'topk': {
      const value = a(0);
      const counted = `list_transform(map_entries(histogram(${value}) FILTER (WHERE ${value} IS NOT NULL)), lambda e: {'count': e.value, 'key': e.key})`;
      const top = `list_slice(list_reverse_sort(${counted}), 1, ${Math.floor(Number(o.k))})`;
      return `coalesce(to_json(list_transform(${top}, lambda e: {'key': e.key, 'count': e.count})), CAST('[]' AS JSON))`;
    }
    case 'rate': {
      const sum = `sum(${a(0)})`;
      if (o.windowNanos !== undefined) return `(${sum} / ${Number(o.windowNanos) / 1e9})`;
      if (agg.args.length > 1) {
        const t = a(1);
        return `(${sum} / greatest((epoch_ns(max(${t})) - epoch_ns(min(${t}))) / 1e9, 1))`;
      }
      return `CAST(${sum} AS DOUBLE)`;
    }
    case 'histogram': {
      const width = Number(o.width);
      const value = a(0);
      const buckets = `histogram(floor(${value} / ${width}) * ${width}) FILTER (WHERE ${value} IS NOT NULL)`;
      return `coalesce(to_json(list_transform(list_sort(map_entries(${buckets})), lambda e: {'value': e.key, 'count': e.value})), CAST('[]' AS JSON))`;
    }
    default:
      throw new Error(`the DuckDB dialect has no aggregation ${agg.fn}`);
  }
}
