// ClickHouse SQL for the plan nodes beyond plain select-project-join: window functions (row
// numbers within partitions), expansion of dynamic arrays and bags into rows (ARRAY JOIN of
// several arrays at once, the shorter padded), and series (per group, arrays of values over
// consecutive bins).
import { quoteIdentifier } from '../../../events/clickhouse/layout';
import type { ExpandOutput, Rel, SeriesAxis, WindowCall } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { nullableType } from './values';
import { convertSql, jsonArrayOf, jsonType } from './functions';

const id = (columnId: string) => quoteIdentifier(columnId);
const MAX_SERIES_BINS = 100_000;

export function windowSql(w: ExprWriter, call: WindowCall): string {
  const partition = call.partition.length ? `PARTITION BY ${call.partition.map((expr) => w.write(expr)).join(', ')}` : '';
  const order = call.order.length
    ? `ORDER BY ${call.order.map((key) => `${w.write(key.expr)} ${key.desc ? 'DESC' : 'ASC'} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ')}`
    : '';
  return `toInt64(${call.fn}() OVER (${[partition, order].filter(Boolean).join(' ')}))`;
}

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

export function expandSql(w: ExprWriter, rel: Extract<Rel, { op: 'expand' }>, kept: number[], inputSql: string): string {
  const lists = rel.expansions.map((expansion, i) => `${elementsSql(w.write(expansion.expr), expansion.bagExpansion, rel.limit)} AS __list${i}`);
  const joined = rel.expansions.map((_, i) => `__list${i} AS __element${i}`);
  const lengths = rel.expansions.map((_, i) => `length(__list${i})`);
  if (rel.outputs.some((output) => output.kind === 'position')) {
    joined.push(`range(toUInt64(${lengths.length > 1 ? `greatest(${lengths.join(', ')})` : lengths[0]})) AS __position`);
  }
  const item = (output: ExpandOutput): string => {
    if (output.kind === 'input') return w.write(output.expr);
    if (output.kind === 'element') return `nullIf(__element${output.expansion}, '')`;
    return 'toInt64(__position)';
  };
  const items = kept.map((i) => `${item(rel.outputs[i]!)} AS ${id(rel.columns[i]!.id)}`);
  return `SELECT ${items.join(', ')} FROM (SELECT *, ${lists.join(', ')} FROM (${inputSql}) AS t) AS t ARRAY JOIN ${joined.join(', ')}`;
}

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
  const { groups, bin, values, axis } = rel;
  const typeOf = (columnId: string) => rel.input.columns.find((column) => column.id === columnId)!.type;
  const collected = [
    ...groups.map((group) => id(group)),
    `groupArray(toInt64(${id(bin)})) AS __bins`,
    ...values.map((value, i) => `groupArray(tuple(${id(value.id)})) AS __values${i}`),
    `min(${id(bin)}) AS __first`,
    `max(${id(bin)}) + 1 AS __last`,
    'count() AS __rows',
  ];
  const groupBy = groups.length ? ` GROUP BY ${groups.map((group) => id(group)).join(', ')}` : '';
  const bound = (value: bigint | undefined, fallback: string) => (value === undefined ? fallback : `toInt64(${value.toString()})`);
  const first = bound(axis.bounds?.first, 'toInt64(__first)');
  const last = bound(axis.bounds?.last, 'toInt64(__last)');
  // Bins a series spans from its own data are capped, with a clear error rather than a huge array.
  const capped = `if(throwIf(${last} - ${first} > ${MAX_SERIES_BINS}, 'make-series would make more than ${MAX_SERIES_BINS} bins in one series; use a larger step or from and to') = 0, ${last}, ${last})`;
  const range = `range(${first}, greatest(${capped}, ${first}))`;
  const arrays = values.map((value, i) => {
    const type = typeOf(value.id);
    const fallback = `CAST(${w.write(value.default)} AS ${nullableType(type)})`;
    const element = `if(indexOf(__bins, i) > 0, CAST(__values${i}[indexOf(__bins, i)].1 AS ${nullableType(type)}), ${fallback})`;
    return jsonArrayOf(`arrayMap(i -> ifNull(${convertSql(element, type, 'dynamic', false)}, 'null'), ${range})`);
  });
  const axisArray = jsonArrayOf(`arrayMap(i -> ${axisValueSql(axis, 'i')}, ${range})`);
  const outputs = [...groups.map((group) => id(group)), ...arrays, axisArray].map((sql, i) => `${sql} AS ${id(rel.columns[i]!.id)}`);
  const fixed = axis.bounds?.first !== undefined && axis.bounds.last !== undefined;
  const keep = axis.nonEmpty && fixed && groups.length === 0 ? '' : ' WHERE __rows > 0';
  return `SELECT ${outputs.join(', ')} FROM (SELECT ${collected.join(', ')} FROM (${inputSql}) AS t${groupBy}) AS s${keep}`;
}
