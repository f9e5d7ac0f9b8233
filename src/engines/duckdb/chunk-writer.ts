// Writes a columnar batch through a DuckDB appender as data chunks (whole vectors at a time,
// about twice as fast as appending value by value). Every column of the table is written in
// table order; columns the batch does not mention are written as nulls.
import {
  BIGINT,
  BOOLEAN,
  type DuckDBAppender,
  DuckDBDataChunk,
  DuckDBTimestampNanosecondsValue,
  type DuckDBType,
  DuckDBVarCharType,
  type DuckDBVector,
  DOUBLE,
  TIMESTAMP_NS,
  VARCHAR,
} from '@duckdb/node-api';
import bindings, { type Vector } from '@duckdb/node-bindings';
import { type FieldType, isMixedType, type ScalarFieldType } from '../../fields/types';
import type { ColumnValue, TimespanValue } from '../column-value';
import { writeTextVector } from './text-vector';

const JSON_TYPE = DuckDBVarCharType.create('JSON');

const VECTOR_TYPE: Record<ScalarFieldType, DuckDBType> = {
  string: VARCHAR,
  integer: BIGINT,
  float: DOUBLE,
  boolean: BOOLEAN,
  array: JSON_TYPE,
  datetime: TIMESTAMP_NS,
  timespan: BIGINT,
  map: JSON_TYPE,
};

/**
 * The vector type a column's values are written as: its own, or JSON text for a mixed field,
 * which data chunks cannot hold as VARIANT (the store converts it on the way in).
 */
export function vectorTypeOf(type: FieldType): DuckDBType {
  return isMixedType(type) ? JSON_TYPE : VECTOR_TYPE[type];
}

/** DuckDB's vector size: the most rows one data chunk holds. */
export const CHUNK_ROWS = 2048;

export interface ChunkColumn {
  type: FieldType;
  /**
   * One value per row (undefined = null), or for system columns a generator of the row's
   * value. Absent: the column is null in every row.
   */
  values?: (ColumnValue | undefined)[];
  valueAt?: (row: number) => unknown;
}

/** A value in a string column: arrays as JSON, timespans as their duration text ("1.5ms"). */
function asText(value: ColumnValue): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

/** Converts a stored value to what the vector of a column of `type` takes. */
function converterFor(type: FieldType): (value: ColumnValue) => unknown {
  // Each value of a mixed field as JSON of its own type (a timespan as its duration text).
  if (isMixedType(type)) return (value) => JSON.stringify(value);
  switch (type) {
    case 'string':
      return asText;
    case 'array':
      return (value) => (Array.isArray(value) ? JSON.stringify(value) : asText(value));
    case 'integer':
      return (value) => BigInt(value as number);
    case 'float':
      return (value) => value as number;
    case 'boolean':
      return (value) => value as boolean;
    case 'datetime':
      return (value) => new DuckDBTimestampNanosecondsValue(value as unknown as bigint);
    case 'timespan':
      return (value) => (value as TimespanValue).nanoseconds;
    case 'map':
      // Whatever a map field holds, kept whole as JSON (a timespan as its duration text).
      return (value) => JSON.stringify(value);
  }
}

/** Whether a column of `type` is written as text (VARCHAR or JSON). */
const isText = (type: FieldType) => vectorTypeOf(type).typeId === VARCHAR.typeId;

/** Writes a text column's rows through ./text-vector.ts. */
function fillTextVector(vector: Vector, column: ChunkColumn, offset: number, rows: number) {
  const { valueAt, values } = column;
  if (valueAt) {
    writeTextVector(vector, (row) => (valueAt(offset + row) ?? null) as string | null, rows);
  } else if (values) {
    const convert = converterFor(column.type) as (value: ColumnValue) => string;
    writeTextVector(vector, (row) => (values[offset + row] === undefined ? null : convert(values[offset + row]!)), rows);
  } else {
    writeTextVector(vector, () => null, rows);
  }
}

function fillVector(vector: DuckDBVector, column: ChunkColumn, offset: number, rows: number) {
  if (column.valueAt) {
    for (let row = 0; row < rows; row++) vector.setItem(row, column.valueAt(offset + row) as never);
  } else if (column.values) {
    const convert = converterFor(column.type);
    const values = column.values;
    for (let row = 0; row < rows; row++) {
      const value = values[offset + row];
      vector.setItem(row, (value === undefined ? null : convert(value)) as never);
    }
  } else {
    for (let row = 0; row < rows; row++) vector.setItem(row, null);
  }
  vector.flush();
}

// A data chunk's native memory (vectors and their string heaps) is freed only when the garbage
// collector finalizes its JS wrapper, which can be long after use and does not count towards
// the heap that triggers collection. So chunks are reused: one per column layout, reset before
// each fill. Filling and appending are synchronous, so no two writes share a chunk at once.
const REUSED_CHUNKS = 16;
const chunkByLayout = new Map<string, DuckDBDataChunk>();

function chunkFor(columns: ChunkColumn[]): DuckDBDataChunk {
  const layout = columns.map((column) => column.type).join(',');
  let chunk = chunkByLayout.get(layout);
  if (chunk) {
    chunkByLayout.delete(layout); // re-inserted below as the most recently used
  } else {
    chunk = DuckDBDataChunk.create(columns.map((column) => vectorTypeOf(column.type)));
    if (chunkByLayout.size >= REUSED_CHUNKS) chunkByLayout.delete(chunkByLayout.keys().next().value!);
  }
  chunkByLayout.set(layout, chunk);
  return chunk;
}

/** Appends `rowCount` rows; returns the number of data chunks written. */
export function appendColumns(appender: DuckDBAppender, columns: ChunkColumn[], rowCount: number): number {
  const chunk = chunkFor(columns);
  let chunks = 0;
  for (let offset = 0; offset < rowCount; offset += CHUNK_ROWS) {
    const rows = Math.min(CHUNK_ROWS, rowCount - offset);
    chunk.reset();
    chunk.rowCount = rows;
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index]!;
      if (isText(column.type)) fillTextVector(bindings.data_chunk_get_vector(chunk.chunk, index), column, offset, rows);
      else fillVector(chunk.getColumnVector(index), column, offset, rows);
    }
    appender.appendDataChunk(chunk);
    chunks++;
  }
  chunk.reset();
  return chunks;
}
