// Which line of an NDJSON file each failed event came from: the ingest answer names events by
// their position in the request, and blank lines hold no event.

/** Line numbers (from 1) of the events at the given positions (from 0), for those the text has. */
export function ndjsonLineNumbers(text: string, positions: readonly number[]): Map<number, number> {
  const wanted = new Set(positions);
  const lines = new Map<number, number>();
  let event = 0;
  let lineNumber = 0;
  let start = 0;
  while (start <= text.length && lines.size < wanted.size) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lineNumber++;
    if (text.slice(start, end).trim() !== '') {
      if (wanted.has(event)) lines.set(event, lineNumber);
      event++;
    }
    start = end + 1;
  }
  return lines;
}

/** Files up to this size are read again in the browser to number the failed lines. */
export const MAX_FILE_TO_NUMBER = 32 * 1024 * 1024;
