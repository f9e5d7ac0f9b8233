// DuckDB SQL for the plan nodes beyond plain select-project-join: window functions (row numbers
// within partitions), expansion of dynamic arrays and bags into rows (parallel UNNEST), and
// series (per group, arrays of values over consecutive bins). The frames are
// ../base/relations.ts; this file gives DuckDB's lists, UNNEST and JSON arrays.
import { quoteIdentifier } from '../../../engines/duckdb/layout';
import type { AplType, Rel, SeriesAxis, WindowCall } from '../../semantic/plan';
import { type ExpansionSql, expansionSql, MAX_SERIES_BINS, seriesFrameSql, TOO_MANY_BINS, windowCallSql } from '../base/relations';
import type { ExprWriter } from './expressions';
import { SQL_TYPE } from './expressions';
import { convertSql } from './functions';

export const windowSql = (w: ExprWriter, call: WindowCall) => windowCallSql(w, call);

/**
 * The elements of a dynamic value as a list of JSON values: an array's items, a bag's properties
 * (as one-property bags, or `[key, value]` pairs), or the value itself (null included) otherwise.
 */
function elementsSql(x: string, bagExpansion: 'bag' | 'array', limit: number | undefined): string {
  const value = `json_extract(${x}, concat('/', replace(replace(k, '~', '~0'), '/', '~1')))`;
  const property = bagExpansion === 'bag' ? `json_object(k, ${value})` : `json_array(k, ${value})`;
  const list = `CASE json_type(${x}) WHEN 'ARRAY' THEN json_extract(${x}, '$[*]') WHEN 'OBJECT' THEN list_transform(json_keys(${x}), lambda k: ${property}) ELSE [${x}] END`;
  return limit === undefined ? list : `list_slice(${list}, 1, ${Math.max(0, Math.floor(limit))})`;
}

const EXPANSION: ExpansionSql = {
  elements: elementsSql,
  length: (list) => `len(${list})`,
  element: (name) => name,
  position: (name) => `CAST(${name} AS BIGINT)`,
  // Parallel UNNESTs in one SELECT expand in step, the shorter padded with nulls.
  expandedRows: (listsSql, count, positions) => {
    const unnests = Array.from({ length: count }, (_, i) => `UNNEST(__list${i}) AS __element${i}`);
    if (positions !== undefined) unnests.push(`UNNEST(range(0, ${positions})) AS __position`);
    return `(SELECT *, ${unnests.join(', ')} FROM (${listsSql}) AS t) AS t`;
  },
};

export const expandSql = (w: ExprWriter, rel: Extract<Rel, { op: 'expand' }>, kept: number[], inputSql: string) => expansionSql(w, EXPANSION, rel, kept, inputSql, quoteIdentifier);

/** The value of bin `i` on the axis, as a dynamic (JSON) value. */
function axisValueSql(axis: SeriesAxis, i: string): string {
  switch (axis.type) {
    case 'datetime':
      return convertSql(`make_timestamp_ns(CAST(${axis.origin.toString()} AS BIGINT) + ${i} * CAST(${axis.step.toString()} AS BIGINT))`, 'datetime', 'dynamic', false);
    case 'timespan':
      return convertSql(`(CAST(${axis.origin.toString()} AS BIGINT) + ${i} * CAST(${axis.step.toString()} AS BIGINT))`, 'timespan', 'dynamic', false);
    case 'int':
      return `to_json(CAST(${axis.origin.toString()} AS BIGINT) + ${i} * CAST(${axis.step.toString()} AS BIGINT))`;
    case 'real':
      return `to_json(CAST(${String(axis.origin)} AS DOUBLE) + ${i} * CAST(${String(axis.step)} AS DOUBLE))`;
  }
}

export function seriesSql(w: ExprWriter, rel: Extract<Rel, { op: 'series' }>, inputSql: string): string {
  const valueArray = (i: number, type: AplType, defaultSql: string, range: string) => {
    const element = `CASE WHEN list_position(__bins, i) > 0 THEN __values${i}[list_position(__bins, i)] ELSE CAST(${defaultSql} AS ${SQL_TYPE[type]}) END`;
    const json = type === 'int' || type === 'real' ? element : convertSql(element, type, 'dynamic', false);
    return `to_json(list_transform(${range}, lambda i: ${json}))`;
  };
  return seriesFrameSql(
    w,
    {
      id: quoteIdentifier,
      collectBins: (bin) => `list(${bin} ORDER BY ${bin})`,
      collectValues: (value, bin) => `list(${value} ORDER BY ${bin})`,
      countAll: 'count(*)',
      long: (sql) => `CAST(${sql} AS BIGINT)`,
      binRange: (first, last) => `range(${first}, CASE WHEN ${last} - ${first} > ${MAX_SERIES_BINS} THEN error('${TOO_MANY_BINS}') ELSE ${last} END)`,
      valueArray,
      axisArray: (range) => `to_json(list_transform(${range}, lambda i: ${axisValueSql(rel.axis, 'i')}))`,
    },
    rel,
    inputSql,
  );
}
