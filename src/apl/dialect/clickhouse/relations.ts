// ClickHouse SQL for the plan nodes beyond plain select-project-join: window functions (row
// numbers within partitions), expansion of dynamic arrays and bags into rows (ARRAY JOIN of
// several arrays at once, the shorter padded), and series (per group, arrays of values over
// consecutive bins). The frames are ../base/relations.ts; this file gives ClickHouse's arrays,
// ARRAY JOIN and JSON texts.
import { quoteIdentifier } from '../../../engines/clickhouse/layout';
import type { AplType, Rel, SeriesAxis, WindowCall } from '../../semantic/plan';
import { type ExpansionSql, expansionSql, MAX_SERIES_BINS, seriesFrameSql, TOO_MANY_BINS, windowCallSql } from '../base/relations';
import type { ExprWriter } from './expressions';
import { nullableType } from './values';
import { convertSql, jsonArrayOf, jsonType } from './functions';

/** Row numbers are UInt64 in ClickHouse; APL's are longs. */
export const windowSql = (w: ExprWriter, call: WindowCall) => `toInt64(${windowCallSql(w, call)})`;

/**
 * The elements of a dynamic value as an array of JSON texts: an array's items, a bag's
 * properties (as one-property bags, or `[key, value]` pairs), or the value itself otherwise (a
 * null as '', which the expansion turns back into null).
 */
function elementsSql(x: string, bagExpansion: 'bag' | 'array', limit: number | undefined): string {
  const value = `JSONExtractRaw(${x}, k)`;
  const property = bagExpansion === 'bag' ? `concat('{', toJSONString(k), ':', ${value}, '}')` : `concat('[', toJSONString(k), ',', ${value}, ']')`;
  const t = jsonType(x);
  const list = `multiIf(${t} = 'Array', JSONExtractArrayRaw(ifNull(${x}, '')), ${t} = 'Object', arrayMap(k -> ${property}, JSONExtractKeys(ifNull(${x}, ''))), [ifNull(${x}, '')])`;
  return limit === undefined ? list : `arraySlice(${list}, 1, ${Math.max(0, Math.floor(limit))})`;
}

const EXPANSION: ExpansionSql = {
  elements: elementsSql,
  length: (list) => `length(${list})`,
  element: (name) => `nullIf(${name}, '')`,
  position: (name) => `toInt64(${name})`,
  // One ARRAY JOIN of several arrays expands them in step (the shorter padded: enable_unaligned_array_join).
  expandedRows: (listsSql, count, positions) => {
    const joined = Array.from({ length: count }, (_, i) => `__list${i} AS __element${i}`);
    if (positions !== undefined) joined.push(`range(toUInt64(${positions})) AS __position`);
    return `(${listsSql}) AS t ARRAY JOIN ${joined.join(', ')}`;
  },
};

export const expandSql = (w: ExprWriter, rel: Extract<Rel, { op: 'expand' }>, kept: number[], inputSql: string) => expansionSql(w, EXPANSION, rel, kept, inputSql, quoteIdentifier);

/** The value of bin `i` on the axis, as a dynamic (JSON) value. */
function axisValueSql(axis: SeriesAxis, i: string): string {
  switch (axis.type) {
    case 'datetime':
      return convertSql(`(toInt64(${axis.origin.toString()}) + ${i} * toInt64(${axis.step.toString()}))`, 'datetime', 'dynamic', false);
    case 'timespan':
      return convertSql(`(toInt64(${axis.origin.toString()}) + ${i} * toInt64(${axis.step.toString()}))`, 'timespan', 'dynamic', false);
    case 'int':
      return `toString(toInt64(${axis.origin.toString()}) + ${i} * toInt64(${axis.step.toString()}))`;
    case 'real':
      return convertSql(`(toFloat64(${String(axis.origin)}) + ${i} * toFloat64(${String(axis.step)}))`, 'real', 'dynamic', false);
  }
}

export function seriesSql(w: ExprWriter, rel: Extract<Rel, { op: 'series' }>, inputSql: string): string {
  const valueArray = (i: number, type: AplType, defaultSql: string, range: string) => {
    const element = `if(indexOf(__bins, i) > 0, CAST(__values${i}[indexOf(__bins, i)].1 AS ${nullableType(type)}), CAST(${defaultSql} AS ${nullableType(type)}))`;
    return jsonArrayOf(`arrayMap(i -> ifNull(${convertSql(element, type, 'dynamic', false)}, 'null'), ${range})`);
  };
  const binRange = (first: string, last: string) => {
    const capped = `if(throwIf(${last} - ${first} > ${MAX_SERIES_BINS}, '${TOO_MANY_BINS}') = 0, ${last}, ${last})`;
    return `range(${first}, greatest(${capped}, ${first}))`;
  };
  return seriesFrameSql(
    w,
    {
      id: quoteIdentifier,
      collectBins: (bin) => `groupArray(toInt64(${bin}))`,
      collectValues: (value) => `groupArray(tuple(${value}))`,
      countAll: 'count()',
      long: (sql) => `toInt64(${sql})`,
      binRange,
      valueArray,
      axisArray: (range) => jsonArrayOf(`arrayMap(i -> ${axisValueSql(rel.axis, 'i')}, ${range})`),
    },
    rel,
    inputSql,
  );
}
