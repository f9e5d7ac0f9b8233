// The plan nodes beyond plain select-project-join, written once for every engine: window
// functions (row numbers within partitions), expansion of dynamic arrays and bags into rows, and
// series (per group, arrays of values over consecutive bins). The frame of each (which columns,
// which groups, which rows are kept) is here; an engine gives the pieces its SQL spells its own
// way (lists and how they become rows, array building, the bin cap's error).
import type { AplType, ExpandOutput, Rel, TExpr, WindowCall } from '../../semantic/plan';
import { orderKeysSql } from './generator';

interface Writer {
  write(expr: TExpr): string;
}

/** `fn() OVER (PARTITION BY ... ORDER BY ...)`. */
export function windowCallSql(w: Writer, call: WindowCall): string {
  const partition = call.partition.length ? `PARTITION BY ${call.partition.map((expr) => w.write(expr)).join(', ')}` : '';
  const order = call.order.length ? `ORDER BY ${orderKeysSql(w, call.order)}` : '';
  return `${call.fn}() OVER (${[partition, order].filter(Boolean).join(' ')})`;
}

/** An engine's side of an expansion. */
export interface ExpansionSql {
  /** The elements of one dynamic value as a list (see each engine's `elementsSql`). */
  elements(valueSql: string, bagExpansion: 'bag' | 'array', limit: number | undefined): string;
  /** The length of a list. */
  length(list: string): string;
  /** The value of an element column, and of the position column. */
  element(name: string): string;
  position(name: string): string;
  /**
   * Rows of `listsSql` (which has the lists `__list0`, ...) with one row per element, the lists
   * expanded in parallel as `__element0`, ..., and `__position` counting up to `positions` when given.
   */
  expandedRows(listsSql: string, count: number, positions: string | undefined): string;
}

export function expansionSql(w: Writer, sql: ExpansionSql, rel: Extract<Rel, { op: 'expand' }>, kept: number[], inputSql: string, id: (name: string) => string): string {
  const lists = rel.expansions.map((expansion, i) => `${sql.elements(w.write(expansion.expr), expansion.bagExpansion, rel.limit)} AS __list${i}`);
  const lengths = rel.expansions.map((_, i) => sql.length(`__list${i}`));
  const positions = rel.outputs.some((output) => output.kind === 'position') ? (lengths.length > 1 ? `greatest(${lengths.join(', ')})` : lengths[0]) : undefined;
  const item = (output: ExpandOutput): string => {
    if (output.kind === 'input') return w.write(output.expr);
    if (output.kind === 'element') return sql.element(`__element${output.expansion}`);
    return sql.position('__position');
  };
  const items = kept.map((i) => `${item(rel.outputs[i]!)} AS ${id(rel.columns[i]!.id)}`);
  return `SELECT ${items.join(', ')} FROM ${sql.expandedRows(`SELECT *, ${lists.join(', ')} FROM (${inputSql}) AS t`, lists.length, positions)}`;
}

/** Bins a series spans from its own data are capped, with a clear error rather than a huge array. */
export const MAX_SERIES_BINS = 100_000;
export const TOO_MANY_BINS = `make-series would make more than ${MAX_SERIES_BINS} bins in one series; use a larger step or from and to`;

/** An engine's side of a series. */
export interface SeriesSql {
  id(name: string): string;
  /** Aggregates collecting, per group, the bin numbers (`__bins`) and one column's values (`__values<i>`). */
  collectBins(bin: string): string;
  collectValues(value: string, bin: string): string;
  countAll: string;
  /** A bin number as a long. */
  long(sql: string): string;
  /** The bin numbers `first` to `last` (excluded), failing with TOO_MANY_BINS past MAX_SERIES_BINS. */
  binRange(first: string, last: string): string;
  /** The JSON array of value column `index` over the bins of `range` (missing bins: the default `defaultSql`). */
  valueArray(index: number, type: AplType, defaultSql: string, range: string): string;
  /** The JSON array of the axis values over the bins of `range`. */
  axisArray(range: string): string;
}

export function seriesFrameSql(w: Writer, sql: SeriesSql, rel: Extract<Rel, { op: 'series' }>, inputSql: string): string {
  const { groups, bin, values, axis } = rel;
  const { id } = sql;
  const typeOf = (columnId: string) => rel.input.columns.find((column) => column.id === columnId)!.type;
  const collected = [
    ...groups.map((group) => id(group)),
    `${sql.collectBins(id(bin))} AS __bins`,
    ...values.map((value, i) => `${sql.collectValues(id(value.id), id(bin))} AS __values${i}`),
    `min(${id(bin)}) AS __first`,
    `max(${id(bin)}) + 1 AS __last`,
    `${sql.countAll} AS __rows`,
  ];
  const groupBy = groups.length ? ` GROUP BY ${groups.map((group) => id(group)).join(', ')}` : '';
  const bound = (value: bigint | undefined, fallback: string) => (value === undefined ? sql.long(fallback) : sql.long(value.toString()));
  const range = sql.binRange(bound(axis.bounds?.first, '__first'), bound(axis.bounds?.last, '__last'));
  const arrays = values.map((value, i) => sql.valueArray(i, typeOf(value.id), w.write(value.default), range));
  const outputs = [...groups.map((group) => id(group)), ...arrays, sql.axisArray(range)].map((item, i) => `${item} AS ${id(rel.columns[i]!.id)}`);
  const fixed = axis.bounds?.first !== undefined && axis.bounds.last !== undefined;
  const keep = axis.nonEmpty && fixed && groups.length === 0 ? '' : ' WHERE __rows > 0';
  return `SELECT ${outputs.join(', ')} FROM (SELECT ${collected.join(', ')} FROM (${inputSql}) AS t${groupBy}) AS s${keep}`;
}
