// A dataset's schema as queries see it: its fields with their types and the columns holding them.
// Every event store describes its datasets this way and the APL compiler reads only this, so the
// query language needs to know nothing of how an engine lays events out.
//
// Nested objects are flattened to dot-separated field names (`{"req":{"method":"GET"}}` is the
// field `req.method`). A field's column name may differ from the field name (an engine whose
// identifiers ignore case stores `Status` beside `status`); always map names through the schema.
import type { FieldType } from './types';

export interface StoredField {
  /** The field name users see and write in APL (e.g. `req.method`). */
  name: string;
  /** The column holding it (quote with the engine's identifier quoting). */
  column: string;
  type: FieldType;
  /** The column's physical type when it is not the engine's default for `type`: a mixed field kept as VARIANT. */
  storedAs?: 'VARIANT';
}

export interface DatasetSchema {
  /** Dataset name as users spell it. */
  name: string;
  /** The table holding the events. */
  table: string;
  /** System fields first (`_time`, `_sysTime`, `_rowId`), then user fields in discovery order. */
  fields: StoredField[];
  /** Fields computed at query time from an APL expression, in order: each may use those before it. */
  virtualFields?: readonly VirtualFieldSource[];
}

export interface VirtualFieldSource {
  name: string;
  /** An APL scalar expression over the dataset's fields. */
  expression: string;
  /** Fail any query over the dataset when it cannot be evaluated (fields of a legacy request). */
  strict?: boolean;
}
