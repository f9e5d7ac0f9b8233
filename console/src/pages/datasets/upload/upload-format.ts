// Which ingest format a file is sent as: chosen by the user, or guessed from its name.
export const UPLOAD_FORMATS = [
  { id: 'ndjson', label: 'NDJSON (one JSON object per line)', contentType: 'application/x-ndjson' },
  { id: 'json', label: 'JSON (an object or an array of objects)', contentType: 'application/json' },
  { id: 'csv', label: 'CSV (a header line of field names)', contentType: 'text/csv' },
] as const;

export type UploadFormat = (typeof UPLOAD_FORMATS)[number]['id'];

export function guessFormat(fileName: string): UploadFormat | undefined {
  const lower = fileName.toLowerCase();
  if (/\.(ndjson|jsonl|ldjson)$/.test(lower)) return 'ndjson';
  if (lower.endsWith('.json')) return 'json';
  if (/\.(csv|tsv)$/.test(lower)) return 'csv';
  return undefined;
}

export function contentTypeOf(format: UploadFormat): string {
  return UPLOAD_FORMATS.find((candidate) => candidate.id === format)!.contentType;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
