// DuckDB SQL for the plan nodes beyond plain select-project-join: window functions (row numbers
// within partitions), expansion of dynamic arrays and bags into rows (parallel UNNEST), and
// series (per group, arrays of values over consecutive bins).
import { quoteIdentifier } from '../../../events/layout';
import type { ExpandOutput, Rel, SeriesAxis, WindowCall } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { SQL_TYPE } from './expressions';
import { convertSql } from './functions';

const id = (columnId: string) => quoteIdentifier(columnId);
const MAX_SERIES_BINS = 100_000;

export function windowSql(w: ExprWriter, call: WindowCall): string {
  const partition = call.partition.length ? `PARTITION BY ${call.partition.map((expr) => w.write(expr)).join(', ')}` : '';
  const order = call.order.length
    ? `ORDER BY ${call.order.map((key) => `${w.write(key.expr)} ${key.desc ? 'DESC' : 'ASC'} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ')}`
    : '';
  return `${call.fn}() OVER (${[partition, order].filter(Boolean).join(' ')})`;
}

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

export function expandSql(w: ExprWriter, rel: Extract<Rel, { op: 'expand' }>, kept: number[], inputSql: string): string {
  const lists = rel.expansions.map((expansion, i) => `${elementsSql(w.write(expansion.expr), expansion.bagExpansion, rel.limit)} AS __list${i}`);
  const unnests = rel.expansions.map((_, i) => `UNNEST(__list${i}) AS __element${i}`);
  const lengths = rel.expansions.map((_, i) => `len(__list${i})`);
  const position = rel.outputs.some((output) => output.kind === 'position')
    ? [`UNNEST(range(0, ${lengths.length > 1 ? `greatest(${lengths.join(', ')})` : lengths[0]})) AS __position`]
    : [];
  const item = (output: ExpandOutput): string => {
    if (output.kind === 'input') return w.write(output.expr);
    if (output.kind === 'element') return `__element${output.expansion}`;
    return 'CAST(__position AS BIGINT)';
  };
  const items = kept.map((i) => `${item(rel.outputs[i]!)} AS ${id(rel.columns[i]!.id)}`);
  const expanded = `SELECT *, ${[...unnests, ...position].join(', ')} FROM (SELECT *, ${lists.join(', ')} FROM (${inputSql}) AS t) AS t`;
  return `SELECT ${items.join(', ')} FROM (${expanded}) AS t`;
}

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
  const { groups, bin, values, axis } = rel;
  const typeOf = (columnId: string) => rel.input.columns.find((column) => column.id === columnId)!.type;
  const collected = [
    ...groups.map((group) => id(group)),
    `list(${id(bin)} ORDER BY ${id(bin)}) AS __bins`,
    ...values.map((value, i) => `list(${id(value.id)} ORDER BY ${id(bin)}) AS __values${i}`),
    `min(${id(bin)}) AS __first`,
    `max(${id(bin)}) + 1 AS __last`,
    'count(*) AS __rows',
  ];
  const groupBy = groups.length ? ` GROUP BY ${groups.map((group) => id(group)).join(', ')}` : '';
  const bound = (value: bigint | undefined, fallback: string) => (value === undefined ? fallback : `CAST(${value.toString()} AS BIGINT)`);
  const first = bound(axis.bounds?.first, '__first');
  const last = bound(axis.bounds?.last, '__last');
  // Bins a series spans from its own data are capped, with a clear error rather than a huge array.
  const capped = `CASE WHEN ${last} - ${first} > ${MAX_SERIES_BINS} THEN error('make-series would make more than ${MAX_SERIES_BINS} bins in one series; use a larger step or from and to') ELSE ${last} END`;
  const range = `range(${first}, ${capped})`;
  const arrays = values.map((value, i) => {
    const type = typeOf(value.id);
    const fallback = `CAST(${w.write(value.default)} AS ${SQL_TYPE[type]})`;
    const element = `CASE WHEN list_position(__bins, i) > 0 THEN __values${i}[list_position(__bins, i)] ELSE ${fallback} END`;
    const json = type === 'int' || type === 'real' ? element : convertSql(element, type, 'dynamic', false);
    return `to_json(list_transform(${range}, lambda i: ${json}))`;
  });
  const axisArray = `to_json(list_transform(${range}, lambda i: ${axisValueSql(axis, 'i')}))`;
  const outputs = [...groups.map((group) => id(group)), ...arrays, axisArray].map((sql, i) => `${sql} AS ${id(rel.columns[i]!.id)}`);
  const fixed = axis.bounds?.first !== undefined && axis.bounds.last !== undefined;
  const keep = axis.nonEmpty && fixed && groups.length === 0 ? '' : ' WHERE __rows > 0';
  return `SELECT ${outputs.join(', ')} FROM (SELECT ${collected.join(', ')} FROM (${inputSql}) AS t${groupBy}) AS s${keep}`;
}
