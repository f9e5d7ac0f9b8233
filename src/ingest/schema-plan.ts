// Decides how a batch changes a dataset's table before it is written: which fields are new
// (and their column names), which columns must widen, and which events would pass the
// dataset's field limit and so fail. The common case (no limit reached) looks at each field of
// the batch once; only when the limit bites are events looked at one by one.
import { type BatchField, type FieldValue, fieldTypeOf, type PreparedBatch } from './prepare';
import { type FieldType, widenFieldType } from '../fields/types';
import type { NewColumn, StoredColumn } from '../events/store/store';

export interface SchemaPlan {
  /** Fields the batch introduces, in the order met, with their types. */
  added: NewColumn[];
  /** Existing columns that must take a wider type. */
  widened: { column: string; type: FieldType }[];
  /** The column of each stored field of the batch, and its values (one per stored row). */
  columns: { column: string; field: BatchField }[];
  /** Rows refused because their new fields would pass the limit, with the reason. */
  rejected: Map<number, string>;
  /** Rows to store: all of them, or those left after the rejections. */
  rowCount: number;
  times: bigint[];
}

/**
 * A column name for `field` that differs, ignoring case, from every name in `taken` (lower
 * case), because DuckDB identifiers are case-insensitive: `Status` beside `status` becomes
 * `Status#2`. Adds the choice to `taken`.
 */
export function columnNameFor(field: string, taken: Set<string>): string {
  let candidate = field;
  for (let suffix = 2; taken.has(candidate.toLowerCase()); suffix++) candidate = `${field}#${suffix}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

function limitMessage(names: string[], maxFields: number): string {
  const list = names.slice(0, 3).map((name) => `"${name}"`).join(', ') + (names.length > 3 ? ', ...' : '');
  return `adding field${names.length > 1 ? 's' : ''} ${list} would pass the dataset's limit of ${maxFields} fields`;
}

/**
 * Finds the rows whose new fields do not fit under the limit, taking rows in order (earlier
 * events claim the remaining room first), and drops them from the batch.
 */
function rejectRowsPastLimit(batch: PreparedBatch, fresh: BatchField[], room: number, maxFields: number): Map<number, string> {
  const freshOfRow = new Map<number, BatchField[]>();
  for (const field of fresh) {
    for (let row = field.firstRow; row <= field.lastRow; row++) {
      if (field.values[row] === undefined) continue;
      const list = freshOfRow.get(row);
      if (list) list.push(field);
      else freshOfRow.set(row, [field]);
    }
  }
  const admitted = new Set<BatchField>();
  const rejected = new Map<number, string>();
  for (const row of [...freshOfRow.keys()].sort((a, b) => a - b)) {
    const needed = freshOfRow.get(row)!.filter((field) => !admitted.has(field));
    if (needed.length === 0) continue;
    if (needed.length > room) {
      rejected.set(row, limitMessage(needed.map((field) => field.name), maxFields));
      continue;
    }
    room -= needed.length;
    for (const field of needed) admitted.add(field);
  }
  return rejected;
}

/**
 * Removes rejected rows from every field and retypes the fields from the values left. Each
 * field is visited only between its first and last rows, so a batch of many sparse fields
 * (say, one new field per event) costs what it holds, not fields times rows.
 */
function dropRows(batch: PreparedBatch, rejected: Map<number, string>): { rowCount: number; times: bigint[]; fields: BatchField[] } {
  const newRow = new Array<number>(batch.rowCount);
  const times: bigint[] = [];
  for (let row = 0; row < batch.rowCount; row++) {
    newRow[row] = rejected.has(row) ? -1 : times.length;
    if (newRow[row]! >= 0) times.push(batch.times[row]!);
  }
  const fields = batch.fields.map((field): BatchField => {
    const values: (FieldValue | undefined)[] = [];
    let type: FieldType | undefined;
    let firstRow = -1;
    let lastRow = -1;
    for (let row = Math.max(field.firstRow, 0); row <= field.lastRow; row++) {
      const value = field.values[row];
      const to = newRow[row]!;
      if (value === undefined || to < 0) continue;
      values[to] = value;
      if (firstRow < 0) firstRow = to;
      lastRow = to;
      const valueType = fieldTypeOf(value);
      type = type === undefined ? valueType : widenFieldType(type, valueType);
    }
    return { name: field.name, type: type ?? field.type, values, present: type !== undefined, firstRow, lastRow };
  });
  return { rowCount: times.length, times, fields };
}

export function planSchema(columns: readonly StoredColumn[], userFieldCount: number, batch: PreparedBatch, maxFields: number): SchemaPlan {
  const byField = new Map<string, StoredColumn>();
  const taken = new Set<string>();
  for (const column of columns) {
    byField.set(column.field, column);
    taken.add(column.column.toLowerCase());
  }
  let fields = batch.fields.filter((field) => field.present);
  let rowCount = batch.rowCount;
  let times = batch.times;
  let rejected = new Map<number, string>();
  // Map fields hold whole objects instead of one field per key and do not count against the limit.
  const fresh = fields.filter((field) => !byField.has(field.name) && field.type !== 'map');
  if (userFieldCount + fresh.length > maxFields) {
    rejected = rejectRowsPastLimit(batch, fresh, Math.max(0, maxFields - userFieldCount), maxFields);
    const left = dropRows(batch, rejected);
    ({ rowCount, times } = left);
    fields = left.fields.filter((field) => field.present);
  }
  const added: NewColumn[] = [];
  const widened: SchemaPlan['widened'] = [];
  const planned: SchemaPlan['columns'] = [];
  for (const field of fields) {
    const existing = byField.get(field.name);
    if (existing) {
      const type = existing.type === field.type ? existing.type : widenFieldType(existing.type, field.type);
      if (type !== existing.type) widened.push({ column: existing.column, type });
      planned.push({ column: existing.column, field });
    } else {
      const column = columnNameFor(field.name, taken);
      added.push({ column, field: field.name, type: field.type });
      planned.push({ column, field });
    }
  }
  return { added, widened, columns: planned, rejected, rowCount, times };
}
