// Finds the time axis of a tabular answer: the column an aggregation binned by time
// (`bin(_time, 1m)`, `bin_auto(_time)`), which the server names in `buckets` and types as datetime.
// Kept free of DOM and React so it can be checked on its own.
import type { ResultTable } from '../../../api/query';

/** Index of the time-bin column of the table, or undefined when the answer is not over time bins. */
export function timeColumnIndex(table: ResultTable): number | undefined {
  const named = table.buckets?.field;
  if (named !== undefined) {
    const index = table.fields.findIndex((field) => field.name === named);
    if (index >= 0) return index;
  }
  // Without `buckets`: a datetime field the rows are grouped by.
  const groupNames = new Set(table.groups.map((group) => group.name));
  const index = table.fields.findIndex((field) => field.type === 'datetime' && !field.agg && groupNames.has(field.name));
  return index >= 0 ? index : undefined;
}

/**
 * Seconds since the epoch of an RFC 3339 text the server sends (up to nanosecond precision,
 * which Date cannot read, so the fraction is cut to milliseconds first); undefined otherwise.
 */
export function epochSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.replace(/(\.\d{3})\d+/, '$1');
  const millis = Date.parse(trimmed);
  return Number.isNaN(millis) ? undefined : millis / 1000;
}
