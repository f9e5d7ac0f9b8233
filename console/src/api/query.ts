// APL queries from the console: the tabular answer of POST /v1/datasets/_apl (columnar, not
// normalized into a cache), with cancellation through the request's AbortSignal.
import { api } from './client';

export interface ResultField {
  name: string;
  /** string, integer, float, boolean, datetime, timespan, array, dynamic... */
  type: string;
  agg?: { name: string; fields?: string[]; args?: unknown[] };
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

export interface QueryStatus {
  /** Microseconds. */
  elapsedTime: number;
  rowsExamined: number;
  rowsMatched: number;
  isPartial?: boolean;
  maxCursor?: string;
  minCursor?: string;
  [other: string]: unknown;
}

export interface Annotation {
  id: string;
  type?: string;
  datasets: string[];
  title?: string;
  description?: string;
  url?: string;
  time: string;
  endTime?: string;
}

export interface TabularAnswer {
  format: 'tabular';
  status: QueryStatus;
  tables: ResultTable[];
  datasetNames: string[];
  fieldsMetaMap: Record<string, { name: string; type: string; unit?: string; description?: string; hidden?: boolean }[]>;
  annotations?: Annotation[];
}

export interface AplRequest {
  apl: string;
  /** RFC 3339, or relative forms the server accepts (`now-1h`). */
  startTime?: string;
  endTime?: string;
  /** Rows at most (the server's maximum is 65,000). */
  limit?: number;
  cursor?: string;
  includeCursor?: boolean;
}

/** The server's page maximum: at most this many rows come back per query. */
export const MAX_ROWS = 65_000;

export function runApl(request: AplRequest, signal?: AbortSignal): Promise<TabularAnswer> {
  return api<TabularAnswer>('/v1/datasets/_apl', { body: request, params: { format: 'tabular' }, ...(signal ? { signal } : {}) });
}

/** Row count of a table. */
export function rowCount(table: ResultTable): number {
  return table.columns[0]?.length ?? 0;
}

/** One row of a table as an object keyed by field name. */
export function rowAt(table: ResultTable, index: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  table.fields.forEach((field, i) => {
    row[field.name] = table.columns[i]?.[index];
  });
  return row;
}
