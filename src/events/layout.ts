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
// - A timespan is stored as its signed nanosecond count (BIGINT), the form the query engine
//   computes with. DuckDB's type alone cannot tell it from an integer, so the column's comment
//   records the field type wherever the DuckDB type does not say it (see `columnComment`).
// - A map field (declared per dataset) keeps the object an event holds under its name whole, as
//   JSON, instead of flattening it into one field per key: type `map`, whatever it holds.

export type FieldType = 'string' | 'integer' | 'float' | 'boolean' | 'array' | 'datetime' | 'timespan' | 'map';

export const DUCKDB_TYPE_OF: Record<FieldType, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  float: 'DOUBLE',
  boolean: 'BOOLEAN',
  array: 'JSON',
  datetime: 'TIMESTAMP_NS',
  timespan: 'BIGINT',
  map: 'JSON',
};

/** The field type DuckDB's type name means when the column's comment says nothing more. */
const DEFAULT_TYPE_OF_DUCKDB: Record<string, FieldType> = {
  VARCHAR: 'string',
  BIGINT: 'integer',
  DOUBLE: 'float',
  BOOLEAN: 'boolean',
  JSON: 'array',
  TIMESTAMP_NS: 'datetime',
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
  return DEFAULT_TYPE_OF_DUCKDB[duckdbType.toUpperCase()];
}

const isFieldType = (value: unknown): value is FieldType => typeof value === 'string' && Object.hasOwn(DUCKDB_TYPE_OF, value);

/**
 * The comment a user column carries, or undefined when it needs none: the field name when it
 * is not the column name (`Status` beside `status`), and the field type when DuckDB's type
 * does not tell it. A bare name is written as is; anything more as JSON
 * (`{"field":"duration","type":"timespan"}`), as is a name that could be mistaken for JSON.
 */
export function columnComment(column: string, field: string, type: FieldType): string | undefined {
  const typed = fieldTypeOfDuckDBType(DUCKDB_TYPE_OF[type]) !== type;
  if (!typed && field === column) return undefined;
  if (!typed && !field.startsWith('{')) return field;
  return JSON.stringify(typed ? { field, type } : { field });
}

/** Reads back what `columnComment` wrote (or an older comment holding only the field name). */
export function readColumnComment(column: string, duckdbType: string, comment: string | null | undefined): { field: string; type: FieldType } {
  const type = fieldTypeOfDuckDBType(duckdbType) ?? 'string';
  if (!comment) return { field: column, type };
  if (comment.startsWith('{')) {
    try {
      const parsed = JSON.parse(comment) as { field?: unknown; type?: unknown };
      if (typeof parsed === 'object' && parsed !== null && (typeof parsed.field === 'string' || isFieldType(parsed.type))) {
        const declared = isFieldType(parsed.type) && DUCKDB_TYPE_OF[parsed.type] === DUCKDB_TYPE_OF[type] ? parsed.type : type;
        return { field: typeof parsed.field === 'string' ? parsed.field : column, type: declared };
      }
    } catch {
      // an older comment: the field name itself
    }
  }
  return { field: comment, type };
}

/**
 * The type a column must take to hold both what it holds and an incoming value's type:
 * a map holds any JSON value; integer and float meet at float; any other mix becomes string,
 * which every value can be written as (a timespan as its duration text, "1.5ms"), so widening
 * never loses a value.
 */
export function widenFieldType(current: FieldType, incoming: FieldType): FieldType {
  if (current === incoming) return current;
  if (current === 'map' || incoming === 'map') return 'map';
  if ((current === 'integer' && incoming === 'float') || (current === 'float' && incoming === 'integer')) return 'float';
  return 'string';
}

export function isSystemField(name: string): boolean {
  return name === TIME_FIELD || name === SYS_TIME_FIELD || name === ROW_ID_FIELD;
}
