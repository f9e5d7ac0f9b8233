// How a dataset's events are laid out in DuckDB. The event store writes this layout, the APL
// compiler reads it; both go through these types and helpers so they cannot drift apart.
//
// - One table per dataset, named by `Dataset.tableName` (server-generated, safe identifier).
// - System columns: `_time` TIMESTAMP_NS (event time, nanoseconds kept), `_sysTime`
//   TIMESTAMP_NS (receive time), `_rowId` BIGINT (monotonic across the store, assigned at
//   ingest; with `_time` it totally orders events and makes query cursors stable).
// - One column per user field. Nested objects are flattened to dot-separated names
//   (`{"req":{"method":"GET"}}` is the field `req.method`). DuckDB identifiers are
//   case-insensitive, so a field's column name may differ from the field name (`Status` and
//   `status` are two fields); always map names through `DatasetSchema`.
// - Column types follow the field type; a value that conflicts with its column's type widens the
//   column (integer -> float -> string; anything mixed -> string), so nothing is ever lost.

export type FieldType = 'string' | 'integer' | 'float' | 'boolean' | 'array' | 'datetime';

export const DUCKDB_TYPE_OF: Record<FieldType, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  float: 'DOUBLE',
  boolean: 'BOOLEAN',
  array: 'JSON',
  datetime: 'TIMESTAMP_NS',
};

export const TIME_FIELD = '_time';
export const SYS_TIME_FIELD = '_sysTime';
export const ROW_ID_FIELD = '_rowId';
export const SYSTEM_FIELDS = [TIME_FIELD, SYS_TIME_FIELD, ROW_ID_FIELD] as const;

export interface StoredField {
  /** The field name users see and write in APL (e.g. `req.method`). */
  name: string;
  /** The DuckDB column holding it (quote with `quoteIdentifier`). */
  column: string;
  type: FieldType;
}

export interface DatasetSchema {
  /** Dataset name as users spell it. */
  name: string;
  /** DuckDB table holding the events. */
  table: string;
  /** System fields first (`_time`, `_sysTime`, `_rowId`), then user fields in discovery order. */
  fields: StoredField[];
}

/** Quotes a DuckDB identifier; the only way a name may reach SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a DuckDB string literal, for the rare places a parameter cannot be used. */
export function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export const SYSTEM_STORED_FIELDS: readonly StoredField[] = [
  { name: TIME_FIELD, column: TIME_FIELD, type: 'datetime' },
  { name: SYS_TIME_FIELD, column: SYS_TIME_FIELD, type: 'datetime' },
  { name: ROW_ID_FIELD, column: ROW_ID_FIELD, type: 'integer' },
];

/** The FieldType a column holds, read back from DuckDB's type name (undefined when foreign). */
export function fieldTypeOfDuckDBType(duckdbType: string): FieldType | undefined {
  for (const [fieldType, name] of Object.entries(DUCKDB_TYPE_OF) as [FieldType, string][]) {
    if (name === duckdbType.toUpperCase()) return fieldType;
  }
  return undefined;
}

/**
 * The type a column must take to hold both what it holds and an incoming value's type:
 * integer and float meet at float; any other mix becomes string, which every value can be
 * written as, so widening never loses a value.
 */
export function widenFieldType(current: FieldType, incoming: FieldType): FieldType {
  if (current === incoming) return current;
  if ((current === 'integer' && incoming === 'float') || (current === 'float' && incoming === 'integer')) return 'float';
  return 'string';
}

export function isSystemField(name: string): boolean {
  return name === TIME_FIELD || name === SYS_TIME_FIELD || name === ROW_ID_FIELD;
}
