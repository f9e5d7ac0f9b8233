// Keeps a tool result within what an agent's context can take (~80 KB for the structured result
// and its text copy together): long strings are cut with a marker, then the widest columns are
// dropped, then trailing rows; whatever was left out is reported, never silently lost.
import { csvRow } from '../rest/shared/csv';

export const RESULT_BUDGET_BYTES = 80_000;
/** Cut lengths tried in turn before columns go. */
const STRING_CUTS = [1_000, 200];

export interface Column {
  name: string;
  type: string;
}

export interface Table {
  columns: Column[];
  rows: unknown[][];
}

export interface Omitted {
  /** Rows left out to stay within the size budget (beyond those maxRows left out). */
  rows: number;
  /** Columns left out, widest first. */
  columns: string[];
  /** Values cut short (they end with the cut marker). */
  cutValues: number;
}

/** The CSV copy of a table: a header line, then one line per row. */
export function csvOf(table: Table): string {
  return [csvRow(table.columns.map((column) => column.name)), ...table.rows.map((row) => csvRow(row))].join('\n');
}

const bytes = (text: string) => Buffer.byteLength(text);

function cut(value: unknown, length: number): { value: unknown; cut: boolean } {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return { value, cut: false };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= length) return { value, cut: false };
  return { value: `${text.slice(0, length)}…[cut: ${text.length - length} more characters]`, cut: true };
}

/**
 * The table as it fits `budget` bytes, measured by `size` (which receives the candidate table
 * and returns the bytes of everything the result will carry).
 */
export function fitTable(table: Table, size: (table: Table) => number, budget = RESULT_BUDGET_BYTES): { table: Table; omitted: Omitted } {
  const omitted: Omitted = { rows: 0, columns: [], cutValues: 0 };
  let current = table;
  if (size(current) <= budget) return { table: current, omitted };

  for (const length of STRING_CUTS) {
    let cutValues = 0;
    const rows = current.rows.map((row) =>
      row.map((value) => {
        const result = cut(value, length);
        if (result.cut) cutValues++;
        return result.value;
      }),
    );
    current = { columns: current.columns, rows };
    omitted.cutValues = Math.max(omitted.cutValues, cutValues);
    if (size(current) <= budget) return { table: current, omitted };
  }

  while (current.columns.length > 1 && size(current) > budget) {
    const widths = current.columns.map((_, index) => current.rows.reduce<number>((sum, row) => sum + bytes(JSON.stringify(row[index] ?? null)), 0));
    const widest = widths.indexOf(Math.max(...widths));
    omitted.columns.push(current.columns[widest]!.name);
    current = {
      columns: current.columns.filter((_, index) => index !== widest),
      rows: current.rows.map((row) => row.filter((_, index) => index !== widest)),
    };
  }

  if (size(current) > budget) {
    // Halve until it fits, then grow back by binary search: a few measurements, not one per row.
    let low = 0;
    let high = current.rows.length;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (size({ columns: current.columns, rows: current.rows.slice(0, middle) }) <= budget) low = middle;
      else high = middle - 1;
    }
    omitted.rows = current.rows.length - low;
    current = { columns: current.columns, rows: current.rows.slice(0, low) };
  }
  return { table: current, omitted };
}

/** Cuts every string of a JSON-like value longer than `length` (for results that are not tables). */
export function cutStrings(value: unknown, length: number): unknown {
  if (typeof value === 'string') return cut(value, length).value;
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, length));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, length)]));
  return value;
}
