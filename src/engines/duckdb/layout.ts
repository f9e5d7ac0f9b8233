// How a dataset's events are laid out in DuckDB. The event store writes this layout, the APL
// compiler's DuckDB dialect reads it; both go through these helpers so they cannot drift apart.
// The engine-neutral side (field types, schemas, system fields) is in `src/fields/`.
//
// - One table per dataset, named by `Dataset.tableName` (server-generated, safe identifier).
// - System columns: `_time` TIMESTAMP_NS, `_sysTime` TIMESTAMP_NS, `_rowId` BIGINT.
// - One column per user field. DuckDB identifiers are case-insensitive, so a field's column name
//   may differ from the field name (`Status` and `status` are two fields).
// - Column types follow the field type; a value that conflicts with its column's type widens the
//   column so nothing is ever lost: integer and float meet at float, and any other mix makes the
//   field mixed, stored in a column that keeps each value's own type: JSON by default, or
//   DuckDB's VARIANT where a store is opened so (see `MixedColumnType`).
// - A timespan is stored as its signed nanosecond count (BIGINT), the form the query engine
//   computes with. DuckDB's type alone cannot tell it from an integer, so the column's comment
//   records the field type wherever the DuckDB type does not say it (see `columnComment`).
// - A map field (declared per dataset) keeps the object an event holds under its name whole, as
//   JSON, instead of flattening it into one field per key: type `map`, whatever it holds.
import type { StoredField } from '../../fields/schema';
import { isFieldType, isMixedType, type FieldType, type ScalarFieldType } from '../../fields/types';

/**
 * The DuckDB types a mixed field can be stored as; both keep each value's own type, and both are
 * read by queries as JSON, the form the engine takes dynamic values in (JSON keeps strings,
 * numbers, booleans and arrays apart; a timespan among other types is kept as its duration
 * text). JSON is the default: on DuckDB 1.5, VARIANT took more disk, ingested about three
 * times slower and queried several times slower (bench/mixed-types.ts, docs/guides/ingest.md).
 */
export type MixedColumnType = 'JSON' | 'VARIANT';

export const DUCKDB_TYPE_OF: Record<ScalarFieldType, string> = {
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

/** The DuckDB type of a stored field's column. */
export function physicalTypeOf(field: Pick<StoredField, 'type' | 'storedAs'>): string {
  return field.storedAs ?? duckdbTypeOf(field.type);
}

/** Quotes a DuckDB identifier; the only way a name may reach SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a DuckDB string literal, for the rare places a parameter cannot be used. */
export function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The FieldType a column holds, read back from DuckDB's type name (undefined when foreign). */
export function fieldTypeOfDuckDBType(duckdbType: string): FieldType | undefined {
  return DEFAULT_TYPE_OF_DUCKDB[duckdbType.toUpperCase()];
}

/** The DuckDB type of a column holding a field of this type (mixed fields: the default, JSON). */
export function duckdbTypeOf(type: FieldType): string {
  return isMixedType(type) ? 'JSON' : DUCKDB_TYPE_OF[type];
}

/** Reads a stored column in the form queries compute with: a VARIANT's values as JSON. */
export function columnReadSql(field: Pick<StoredField, 'column' | 'storedAs'>): string {
  const column = quoteIdentifier(field.column);
  // DuckDB casts a NULL VARIANT to the JSON text "null"; absent values must stay NULL.
  return field.storedAs === 'VARIANT' ? `CASE WHEN ${column} IS NULL THEN NULL ELSE CAST(${column} AS JSON) END` : column;
}

/**
 * The comment a user column carries, or undefined when it needs none: the field name when it
 * is not the column name (`Status` beside `status`), and the field type when DuckDB's type
 * does not tell it. A bare name is written as is; anything more as JSON
 * (`{"field":"duration","type":"timespan"}`), as is a name that could be mistaken for JSON.
 */
export function columnComment(column: string, field: string, type: FieldType): string | undefined {
  const typed = fieldTypeOfDuckDBType(duckdbTypeOf(type)) !== type;
  if (!typed && field === column) return undefined;
  if (!typed && !field.startsWith('{')) return field;
  return JSON.stringify(typed ? { field, type } : { field });
}

/**
 * Reads back what `columnComment` wrote (or an older comment holding only the field name), with
 * the column's DuckDB type where it is not the default for the field type (a VARIANT).
 */
export function readColumnComment(column: string, duckdbType: string, comment: string | null | undefined): { field: string; type: FieldType; storedAs?: 'VARIANT' } {
  const variant = duckdbType.toUpperCase() === 'VARIANT';
  // A VARIANT that lost its comment still holds values of any JSON type.
  const type: FieldType = variant ? 'string|integer|float|boolean|array' : (fieldTypeOfDuckDBType(duckdbType) ?? 'string');
  let field = column;
  let declared = type;
  if (comment && comment.startsWith('{')) {
    try {
      const parsed = JSON.parse(comment) as { field?: unknown; type?: unknown };
      if (typeof parsed === 'object' && parsed !== null && (typeof parsed.field === 'string' || isFieldType(parsed.type))) {
        if (typeof parsed.field === 'string') field = parsed.field;
        const fits = isFieldType(parsed.type) && (variant ? isMixedType(parsed.type) : duckdbTypeOf(parsed.type) === duckdbTypeOf(type));
        if (fits) declared = parsed.type as FieldType;
      } else field = comment;
    } catch {
      field = comment; // an older comment: the field name itself
    }
  } else if (comment) field = comment;
  return variant ? { field, type: declared, storedAs: 'VARIANT' } : { field, type: declared };
}
