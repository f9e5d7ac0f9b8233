// Rows of a batch as ClickHouse's TabSeparated input: one line per row, columns in a given
// order, `\N` for null, text escaped. Built in one pass per column into a list of lines.
import { type FieldType, isMixedType } from '../../fields/types';
import type { ColumnValue, TimespanValue } from '../column-value';
import { dateTime64Text } from './layout';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

export function escapeText(text: string): string {
  return /[\\\t\n\r\0]/.test(text) ? text.replace(/[\\\t\n\r\0]/g, (c) => ESCAPES[c]!) : text;
}

function floatText(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** A stored value as text for a column of `type` (the conversions of the DuckDB appender). */
export function textFor(type: FieldType): (value: ColumnValue) => string {
  // Each value of a mixed field as JSON of its own type (a timespan as its duration text).
  if (isMixedType(type)) return (value) => escapeText(JSON.stringify(value));
  switch (type) {
    case 'string':
      return (value) => escapeText(typeof value === 'string' ? value : Array.isArray(value) ? JSON.stringify(value) : String(value));
    case 'array':
      return (value) => escapeText(Array.isArray(value) ? JSON.stringify(value) : String(value));
    case 'integer':
      // A safe integer's decimal text is the same as its BigInt's, without making one.
      return (value) => (Number.isSafeInteger(value) ? String(value) : BigInt(value as number).toString());
    case 'float':
      return (value) => floatText(value as number);
    case 'boolean':
      return (value) => (value ? 'true' : 'false');
    case 'datetime':
      return (value) => dateTime64Text(value as unknown as bigint);
    case 'timespan':
      return (value) => (value as TimespanValue).nanoseconds.toString();
    case 'map':
      return (value) => escapeText(JSON.stringify(value));
  }
}

export interface TsvColumn {
  /** The row's value (undefined = null). */
  valueAt: (row: number) => string | undefined;
}

/** The whole batch as TabSeparated bytes. */
export function tabSeparated(columns: TsvColumn[], rowCount: number): Buffer {
  const lines = new Array<string>(rowCount);
  const cells = new Array<string>(columns.length);
  for (let row = 0; row < rowCount; row++) {
    for (let i = 0; i < columns.length; i++) cells[i] = columns[i]!.valueAt(row) ?? '\\N';
    lines[row] = cells.join('\t');
  }
  return Buffer.from(lines.join('\n') + '\n');
}
