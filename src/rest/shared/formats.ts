// Renders rows of records as JSON, CSV or JSON Lines, the output formats of the read routes.
import { csvRow } from './csv';

export type OutputFormat = 'json' | 'csv' | 'jsonl';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'csv', 'jsonl'];

export const CONTENT_TYPE: Record<OutputFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** JSON, indented by two spaces when asked. */
export function renderJson(value: unknown, pretty: boolean): string {
  return pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/** One JSON document per line, lines joined by newlines with none after the last (as modeldb writes them). */
export function renderJsonLines(rows: readonly unknown[]): string {
  return rows.map((row) => JSON.stringify(row)).join('\n');
}

/** Every key of the rows, in the order they first appear (the record order). */
export function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/**
 * RFC 4180 CSV, one line per row, lines joined by newlines with none after the last (as
 * modeldb writes them; no rows is an empty body). `columns` fixes the columns (e.g. the
 * projected fields); otherwise they are the rows' keys in record order. The header line is
 * written only when `headers` is true.
 */
export function renderCsv(rows: readonly Record<string, unknown>[], columns: readonly string[] | undefined, headers: boolean): string {
  if (rows.length === 0) return '';
  const fields = columns ?? columnsOf(rows);
  const lines = headers && fields.length > 0 ? [csvRow(fields)] : [];
  for (const row of rows) lines.push(csvRow(fields.map((field) => row[field])));
  return lines.join('\n');
}
