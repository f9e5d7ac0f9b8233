// The engine's answer to one query, independent of the wire: one result table plus what the
// two response formats (tabular and legacy) and the pagination layers need.
import type { AggregationInfo } from '../semantic/aggregates';

export interface ResultField {
  name: string;
  /** Axiom's field type names: string, integer, float, boolean, datetime, timespan, array, dynamic. */
  type: string;
  agg?: AggregationInfo;
}

export interface QueryStatus {
  /** Microseconds spent on the query. */
  elapsedTime: number;
  blocksExamined: number;
  blocksCached: number;
  blocksMatched: number;
  rowsExamined: number;
  rowsMatched: number;
  numGroups: number;
  isPartial: boolean;
  cacheStatus: number;
  minBlockTime: string;
  maxBlockTime: string;
  /** Cursor of the oldest returned event: send it back (desc order) for the next page. */
  minCursor?: string;
  /** Cursor of the newest returned event: send it back (asc order) for the next page. */
  maxCursor?: string;
}

export interface ResultTable {
  name: string;
  sources: { name: string }[];
  fields: ResultField[];
  order: { field: string; desc: boolean }[];
  groups: { name: string }[];
  range?: { field: string; start: string; end: string };
  buckets?: { field: string; size: number };
  /** Column-major values, lined up with `fields`. */
  columns: unknown[][];
}

export interface FieldMeta {
  name: string;
  type: string;
  unit: string;
  hidden: boolean;
  description: string;
}

/** Row-aligned identity of the returned events, when the rows are stored events. */
export interface EventRows {
  time: bigint[];
  sysTime: bigint[];
  rowId: bigint[];
}

export interface AggregationShape {
  groupFields: string[];
  timeBin?: { field: string; spanNanos: bigint };
  aggregateFields: { name: string; info?: AggregationInfo }[];
}

export interface QueryResult {
  datasetNames: string[];
  fieldsMeta: Record<string, FieldMeta[]>;
  status: QueryStatus;
  table: ResultTable;
  events?: EventRows;
  aggregation?: AggregationShape;
  /** The time window the query was restricted to, in nanoseconds (undefined = open). */
  window: { startNanos?: bigint; endNanos?: bigint };
}
