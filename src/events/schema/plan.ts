// Decides how a batch changes a dataset's table before it is written: which fields are new
// (and their column names), which columns must widen, and which events would pass the
// dataset's field limit and so fail.
import { type FieldType, widenFieldType } from '../layout';
import type { PreparedEvent } from '../ingest/prepare';
import type { NewColumn, StoredColumn } from '../store/event-store';

export interface PlannedField {
  column: string;
  type: FieldType;
}

export interface SchemaPlan {
  /** Fields the batch introduces, in the order met, with their final types. */
  added: NewColumn[];
  /** Existing columns that must take a wider type. */
  widened: { column: string; type: FieldType }[];
  /** Where each field of the batch goes (existing and new). */
  fields: Map<string, PlannedField>;
  /** Events (by batch index) refused because their new fields would pass the limit. */
  rejected: Map<number, string>;
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

export function planSchema(columns: readonly StoredColumn[], userFieldCount: number, events: PreparedEvent[], maxFields: number): SchemaPlan {
  const fields = new Map<string, PlannedField>();
  const original = new Map<string, FieldType>();
  const taken = new Set<string>();
  for (const column of columns) {
    taken.add(column.column.toLowerCase());
    fields.set(column.field, { column: column.column, type: column.type });
    original.set(column.column, column.type);
  }
  const added: NewColumn[] = [];
  const rejected = new Map<number, string>();
  let fieldCount = userFieldCount;
  const fresh: string[] = [];
  for (let index = 0; index < events.length; index++) {
    const { names, types } = events[index]!;
    fresh.length = 0;
    for (const name of names) if (!fields.has(name) && !fresh.includes(name)) fresh.push(name);
    if (fresh.length > 0) {
      if (fieldCount + fresh.length > maxFields) {
        const list = fresh.slice(0, 3).map((name) => `"${name}"`).join(', ') + (fresh.length > 3 ? ', ...' : '');
        rejected.set(index, `adding field${fresh.length > 1 ? 's' : ''} ${list} would pass the dataset's limit of ${maxFields} fields`);
        continue;
      }
      fieldCount += fresh.length;
      for (const name of fresh) {
        const type = types[names.indexOf(name)]!;
        const column = columnNameFor(name, taken);
        fields.set(name, { column, type });
        added.push({ column, field: name, type });
      }
    }
    for (let i = 0; i < names.length; i++) {
      const field = fields.get(names[i]!)!;
      if (field.type !== types[i]) field.type = widenFieldType(field.type, types[i]!);
    }
  }
  for (const column of added) column.type = fields.get(column.field)!.type;
  const widened: SchemaPlan['widened'] = [];
  for (const field of fields.values()) {
    const before = original.get(field.column);
    if (before !== undefined && before !== field.type) widened.push({ column: field.column, type: field.type });
  }
  return { added, widened, fields, rejected };
}
