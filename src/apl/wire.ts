// The two response formats of ../shared/reference/axiom-openapi/v1.json built from one
// QueryResult: tabular (`AplResult` with `tables`) and legacy (`matches` + `buckets`).
import { NANOS_PER_SECOND, formatDateTime, parseDateTime } from './time';
import type { QueryResult, QueryStatus } from './execution/result';

export interface TabularResponse {
  format: 'tabular';
  status: QueryStatus;
  tables: QueryResult['table'][];
  datasetNames: string[];
  fieldsMetaMap: QueryResult['fieldsMeta'];
}

export interface Entry {
  _time: string;
  _sysTime: string;
  _rowId: string;
  data: Record<string, unknown>;
}

export interface EntryGroup {
  id: number;
  group: Record<string, unknown>;
  aggregations: { op: string; value: unknown }[];
}

export interface Interval {
  startTime: string;
  endTime: string;
  groups: EntryGroup[];
}

export interface Timeseries {
  series: Interval[];
  totals: EntryGroup[];
}

export function toTabularResponse(result: QueryResult): TabularResponse {
  return {
    format: 'tabular',
    status: result.status,
    tables: [result.table],
    datasetNames: result.datasetNames,
    fieldsMetaMap: result.fieldsMeta,
  };
}

const SYSTEM = new Set(['_time', '_sysTime', '_rowId']);

/** Rows of the result table as objects keyed by field name. */
export function resultRows(result: QueryResult): Record<string, unknown>[] {
  const { fields, columns } = result.table;
  const count = columns[0]?.length ?? 0;
  const rows: Record<string, unknown>[] = [];
  for (let row = 0; row < count; row++) {
    const record: Record<string, unknown> = {};
    fields.forEach((field, i) => (record[field.name] = columns[i]![row]));
    rows.push(record);
  }
  return rows;
}

/**
 * Events (or plain rows) as legacy `matches`. `data` holds the fields an event has: columns are
 * shared by all events of a dataset, and a null there means the event lacked the field.
 */
export function toMatches(result: QueryResult): Entry[] {
  if (result.aggregation) return [];
  const rows = resultRows(result);
  const fallbackTime = formatDateTime(result.window.startNanos ?? 0n);
  return rows.map((row, i) => {
    const data: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) if (value !== null && !SYSTEM.has(name)) data[name] = value;
    const events = result.events;
    return {
      _time: events ? formatDateTime(events.time[i]!) : String(row._time ?? fallbackTime),
      _sysTime: events ? formatDateTime(events.sysTime[i]!) : String(row._sysTime ?? row._time ?? fallbackTime),
      _rowId: events ? events.rowId[i]!.toString() : String(row._rowId ?? i),
      data,
    };
  });
}

/** A stable id for a group: the same group values get the same id in series and totals. */
function groupId(group: Record<string, unknown>): number {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(group)) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function entryGroups(result: QueryResult, skip?: string): { bin?: unknown; group: EntryGroup }[] {
  const shape = result.aggregation!;
  return resultRows(result).map((row) => {
    const group: Record<string, unknown> = {};
    for (const name of shape.groupFields) if (name !== skip) group[name] = row[name];
    const aggregations = Object.keys(row)
      .filter((name) => !shape.groupFields.includes(name))
      .map((name) => ({ op: name, value: row[name] }));
    return { ...(skip ? { bin: row[skip] } : {}), group: { id: groupId(group), group, aggregations } };
  });
}

/** Aggregated results as legacy buckets: time-binned rows become series, others totals. */
export function toTimeseries(result: QueryResult, totals?: QueryResult): Timeseries {
  const shape = result.aggregation;
  if (!shape) return { series: [], totals: [] };
  const bin = shape.timeBin;
  if (!bin) return { series: [], totals: entryGroups(result).map((g) => g.group) };
  const intervals = new Map<string, Interval>();
  for (const { bin: start, group } of entryGroups(result, bin.field)) {
    const key = String(start);
    let interval = intervals.get(key);
    if (!interval) {
      const startNanos = start === null ? 0n : (parseDateTime(String(start)) ?? 0n);
      interval = { startTime: key, endTime: formatDateTime(startNanos + bin.spanNanos), groups: [] };
      intervals.set(key, interval);
    }
    interval.groups.push(group);
  }
  const totalGroups = totals?.aggregation ? entryGroups(totals).map((g) => g.group) : [];
  return { series: [...intervals.values()], totals: totalGroups };
}

/** `format=legacy` of the APL endpoint. */
export function toLegacyAplResponse(result: QueryResult, request: { startTime?: string; endTime?: string } = {}) {
  const shape = result.aggregation;
  return {
    format: 'legacy' as const,
    status: result.status,
    matches: toMatches(result),
    buckets: toTimeseries(result),
    datasetNames: result.datasetNames,
    fieldsMetaMap: result.fieldsMeta,
    request: {
      startTime: request.startTime ?? result.table.range?.start,
      endTime: request.endTime ?? result.table.range?.end,
      resolution: shape?.timeBin ? `${Number(shape.timeBin.spanNanos / NANOS_PER_SECOND)}s` : 'auto',
      groupBy: shape ? shape.groupFields.filter((f) => f !== shape.timeBin?.field) : [],
      aggregations: shape ? shape.aggregateFields.map((a) => ({ op: a.info?.name ?? a.name, field: a.info?.fields[0] ?? '', alias: a.name })) : [],
      order: result.table.order,
      limit: result.table.columns[0]?.length ?? 0,
    },
  };
}
