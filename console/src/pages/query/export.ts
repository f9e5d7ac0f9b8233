// Results as text to copy: JSON (an array of row objects) and CSV (a header, then one line per
// row, quoted as RFC 4180 says: fields with a comma, quote or line break in double quotes, with
// quotes doubled; lines end with CRLF).
import { rowAt, rowCount, type ResultTable } from '../../api/query';

export function resultsAsJson(table: ResultTable): string {
  const rows = Array.from({ length: rowCount(table) }, (_, index) => rowAt(table, index));
  return JSON.stringify(rows, null, 2);
}

export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function resultsAsCsv(table: ResultTable): string {
  const lines = [table.fields.map((field) => csvField(field.name)).join(',')];
  const count = rowCount(table);
  for (let row = 0; row < count; row++) lines.push(table.columns.map((column) => csvField(column[row])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
