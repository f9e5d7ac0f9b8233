// Reads an aggregated query result for threshold and anomaly monitors: which columns are values,
// which are groups, and each row's group and numbers.
import { type QueryResult, resultRows } from '../../apl';

const NUMERIC_WIRE_TYPES = new Set(['integer', 'float']);

export interface ValueRow {
  /** The row's group-by values (time bins left out), in `groupKeys` order. */
  groupValues: unknown[];
  /** The row's numbers in the compared columns (nulls and non-numbers left out). */
  values: number[];
}

export interface ValueRows {
  groupKeys: string[];
  rows: ValueRow[];
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value); // integers beyond 2^53
  return undefined;
}

export function valueRows(result: QueryResult, columnName: string | null): ValueRows {
  const timeBin = result.aggregation?.timeBin?.field;
  const groupKeys = (result.aggregation?.groupFields ?? []).filter((field) => field !== timeBin);
  const skip = new Set([...groupKeys, ...(timeBin ? [timeBin] : [])]);
  const valueFields = columnName
    ? [columnName]
    : result.table.fields.filter((field) => NUMERIC_WIRE_TYPES.has(field.type) && !skip.has(field.name)).map((field) => field.name);
  const rows = resultRows(result).map((row) => ({
    groupValues: groupKeys.map((key) => row[key] ?? null),
    values: valueFields.map((field) => asNumber(row[field])).filter((value): value is number => value !== undefined),
  }));
  return { groupKeys, rows: rows.filter((row) => row.values.length > 0) };
}

/** Rows by group (the JSON of their group values). */
export function byGroup(rows: ValueRow[]): Map<string, ValueRow[]> {
  const groups = new Map<string, ValueRow[]>();
  for (const row of rows) {
    const key = JSON.stringify(row.groupValues);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
