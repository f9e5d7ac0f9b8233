// The plan nodes straight over a dataset's scan written as one SELECT with it, as a person writes
// them: filters (`where`), a sort by time and row id (a cursor's page, the newest events first), a
// summarize with the sort and limit over it (`top`, the order of bins) and a limit (`take`). Each
// node as a subquery of its own costs ClickHouse time to plan, which is much of a small query's
// time; and the scan gives `_time` as nanoseconds (the form the dialect computes with), so an ORDER
// BY on those converted values makes ClickHouse read and sort every granule of the range, while one
// on the stored columns matches the table's ordering key (`_time`, `_rowId`): ClickHouse reads the
// granules in that order and stops once the LIMIT has its rows. The answer is the same: both
// columns are never null and order alike in either form, and ClickHouse reads the scan's aliases
// (in its SELECT, or in WITH beside a summarize) wherever the outer query read the subquery's
// columns. Filters that look prices up or read subqueries keep their nodes.
import { columnIdentifier } from '../../../engines/clickhouse/layout';
import type { Rel, SortKeyPlan, TExpr } from '../../semantic/plan';
import { subqueryOf } from '../plan-walk';
import { lookupCalls } from '../price-lookups';
import type { CallExpr } from './functions/rule';

type ScanRel = Extract<Rel, { op: 'scan' }>;
type SortRel = Extract<Rel, { op: 'sort' }>;
type AggregateRel = Extract<Rel, { op: 'aggregate' }>;

/** A scan with the predicates of the filters straight over it (innermost first). */
export interface FilteredScan {
  scan: ScanRel;
  predicates: TExpr[];
}

/** True when `expr` reads a subquery (its SQL would nest a SELECT that may name the same aliases). */
function readsSubquery(expr: TExpr): boolean {
  if (expr.kind !== 'call') return false;
  return subqueryOf(expr as CallExpr) !== undefined || expr.args.some(readsSubquery);
}

/** The scan under `rel` through filters only, or undefined (filters that look prices up or read subqueries stay nodes of their own). */
export function filteredScan(rel: Rel): FilteredScan | undefined {
  const predicates: TExpr[] = [];
  let input = rel;
  while (input.op === 'filter') {
    predicates.unshift(input.predicate);
    input = input.input;
  }
  if (input.op !== 'scan') return undefined;
  if (lookupCalls(predicates).length > 0 || predicates.some(readsSubquery)) return undefined;
  return { scan: input, predicates };
}

/** The ORDER BY keys of a sort by the scan's time and row id columns on the stored columns, or undefined. */
export function storedOrderKeys(sort: SortRel, scan: ScanRel): string | undefined {
  if (sort.keys.length === 0) return undefined;
  const keys: string[] = [];
  for (const key of sort.keys) {
    if (key.expr.kind !== 'column') return undefined;
    const columnId = key.expr.id;
    if (columnId !== scan.timeColumnId && columnId !== scan.rowIdColumnId) return undefined;
    const source = scan.sourceColumns.get(columnId);
    if (source === undefined) return undefined;
    keys.push(`${columnIdentifier(source)} ${key.desc ? 'DESC' : 'ASC'}`);
  }
  return keys.join(', ');
}

/** A scan with what this file writes into its SELECT. */
export interface FlatScan extends FilteredScan {
  /** ORDER BY keys on the stored columns. */
  order?: string;
  limit?: number;
}

/** A limit on top of `rel`, taken off: its count and what it limits. */
function withoutLimit(rel: Rel): { node: Rel; limit: number | undefined } {
  return rel.op === 'limit' ? { node: rel.input, limit: rel.count } : { node: rel, limit: undefined };
}

/** `rel` as a flat scan (a limit over a sort by time over filters over a scan, each optional), or undefined. */
export function flatScanOf(rel: Rel): FlatScan | undefined {
  const { limit, node: limited } = withoutLimit(rel);
  let node = limited;
  let order: string | undefined;
  if (node.op === 'sort') {
    const under = filteredScan(node.input);
    order = under && storedOrderKeys(node, under.scan);
    if (order === undefined) return undefined;
    node = node.input;
  }
  const found = filteredScan(node);
  if (!found) return undefined;
  return { ...found, ...(order !== undefined ? { order } : {}), ...(limit !== undefined ? { limit } : {}) };
}

/** A summarize straight over a flat scan (its filters), with the sort and the limit over it (`top`, the order of bins). */
export interface FlatAggregate {
  aggregate: AggregateRel;
  under: FilteredScan;
  sort?: readonly SortKeyPlan[];
  limit?: number;
}

/** `rel` as a flat aggregate, or undefined (price lookups and subqueries keep their nodes). */
export function flatAggregateOf(rel: Rel): FlatAggregate | undefined {
  const { limit, node: limited } = withoutLimit(rel);
  let node = limited;
  let sort: readonly SortKeyPlan[] | undefined;
  if (node.op === 'sort') {
    sort = node.keys;
    node = node.input;
  }
  if (node.op !== 'aggregate') return undefined;
  const under = filteredScan(node.input);
  if (!under) return undefined;
  // The scan's columns are named in WITH beside the aggregate's own: the names must differ.
  const scanIds = new Set(under.scan.columns.map((column) => column.id));
  if (node.columns.some((column) => scanIds.has(column.id))) return undefined;
  const exprs = [...node.groups, ...node.aggregates.flatMap((agg) => (agg.filter ? [...agg.args, agg.filter] : agg.args)), ...(sort ?? []).map((key) => key.expr)];
  if (lookupCalls(exprs).length > 0 || exprs.some(readsSubquery)) return undefined;
  return { aggregate: node, under, ...(sort ? { sort } : {}), ...(limit !== undefined ? { limit } : {}) };
}
