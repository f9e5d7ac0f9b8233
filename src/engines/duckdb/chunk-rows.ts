// Reads a result chunk into rows of DuckDB values, as `DuckDBDataChunk.getRows()` does, with one
// difference that matters for wide text results (a trace's spans: ids, names, attributes): a
// string longer than 12 bytes is stored out of line, and the client reads each one with a native
// call of its own (1-2 µs). Here the strings of a text column are read in a few copies of the
// memory they sit in, which DuckDB fills in order: 10,000 spans convert in a fifth of the time.
import bindings, { type Vector } from '@duckdb/node-bindings';
import type { DuckDBDataChunk, DuckDBValue } from '@duckdb/node-api';
import { isAscii } from 'node:buffer';

/** Bytes a `duckdb_string_t` takes in a vector: length, then 12 inline bytes or prefix and pointer. */
const STRING_SIZE = 16;
const INLINE_LIMIT = 12;
/**
 * Two strings are read in one copy when the second starts at most this many bytes after the
 * first ends. Every byte copied then lies within a page that also holds a string's bytes, so the
 * copy never touches memory that is not mapped; the gap is padding or a neighbour's bytes.
 */
const MAX_GAP = 64;
/**
 * One copy never spans more than this. An ASCII copy becomes one string that its entries are
 * slices of, kept as long as any of them is: this bounds what a kept entry holds.
 */
const MAX_SPAN = 1 << 20;
const TWO_TO_32 = 2 ** 32;

const decoder = new TextDecoder();

/** The chunk's rows; text columns read as described above, every other column by the client. */
export function chunkRows(chunk: DuckDBDataChunk): DuckDBValue[][] {
  const rowCount = chunk.rowCount;
  const columnCount = chunk.columnCount;
  const rows: DuckDBValue[][] = new Array(rowCount);
  for (let row = 0; row < rowCount; row++) rows[row] = new Array(columnCount);
  // Column by column, so each column's kind is settled once rather than for every value.
  for (let column = 0; column < columnCount; column++) {
    const vector = bindings.data_chunk_get_vector(chunk.chunk, column);
    if (bindings.get_type_id(bindings.vector_get_column_type(vector)) === bindings.Type.VARCHAR) {
      const texts = textColumn(vector, rowCount);
      for (let row = 0; row < rowCount; row++) rows[row]![column] = texts[row]!;
    } else {
      const values = chunk.getColumnVector(column);
      for (let row = 0; row < rowCount; row++) rows[row]![column] = values.getItem(row);
    }
  }
  return rows;
}

/** The strings of a flat VARCHAR vector of `count` entries (null where the entry is null). */
export function textColumn(vector: Vector, count: number): (string | null)[] {
  const data = bindings.vector_get_data(vector, count * STRING_SIZE);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const validity = bindings.vector_get_validity(vector, Math.ceil(count / 64) * 8) as Uint8Array | null;
  const out: (string | null)[] = new Array(count);
  const outOfLine: number[] = [];
  for (let index = 0; index < count; index++) {
    if (validity && (validity[index >> 3]! & (1 << (index & 7))) === 0) {
      out[index] = null;
      continue;
    }
    const length = view.getUint32(index * STRING_SIZE, true);
    if (length <= INLINE_LIMIT) out[index] = inlineText(data, index * STRING_SIZE + 4, length);
    else outOfLine.push(index);
  }
  if (outOfLine.length > 0) readOutOfLine(view, outOfLine, out);
  return out;
}

/** A string of at most 12 bytes: ASCII by char codes (faster than a decoder call), anything else decoded. */
function inlineText(data: Uint8Array, at: number, length: number): string {
  let text = '';
  for (let offset = at; offset < at + length; offset++) {
    const byte = data[offset]!;
    if (byte > 0x7f) return decoder.decode(data.subarray(at, at + length));
    text += String.fromCharCode(byte);
  }
  return text;
}

/** Fills `out` at `indexes` (entries whose bytes are out of line) with as few copies as the layout allows. */
function readOutOfLine(view: DataView, indexes: number[], out: (string | null)[]): void {
  const address = (index: number) => view.getUint32(index * STRING_SIZE + 12, true) * TWO_TO_32 + view.getUint32(index * STRING_SIZE + 8, true);
  const length = (index: number) => view.getUint32(index * STRING_SIZE, true);
  let ordered = true;
  for (let at = 1; at < indexes.length && ordered; at++) ordered = address(indexes[at]!) >= address(indexes[at - 1]!);
  if (!ordered) indexes.sort((a, b) => address(a) - address(b));

  const start = new DataView(new ArrayBuffer(8));
  let first = 0;
  while (first < indexes.length) {
    const from = address(indexes[first]!);
    let to = from + length(indexes[first]!);
    let next = first + 1;
    for (; next < indexes.length; next++) {
      const at = address(indexes[next]!);
      const end = at + length(indexes[next]!);
      if (at > to + MAX_GAP || end - from > MAX_SPAN) break;
      if (end > to) to = end;
    }
    start.setUint32(0, from % TWO_TO_32, true);
    start.setUint32(4, Math.floor(from / TWO_TO_32), true);
    const copied = bindings.get_data_from_pointer(start.buffer, 0, to - from);
    const bytes = Buffer.from(copied.buffer, copied.byteOffset, copied.byteLength);
    if (isAscii(bytes)) {
      // One string for the whole copy; each entry is a slice of it.
      const text = bytes.toString('latin1');
      for (let at = first; at < next; at++) {
        const index = indexes[at]!;
        const offset = address(index) - from;
        out[index] = text.substring(offset, offset + length(index));
      }
    } else {
      for (let at = first; at < next; at++) {
        const index = indexes[at]!;
        const offset = address(index) - from;
        out[index] = bytes.toString('utf8', offset, offset + length(index));
      }
    }
    first = next;
  }
}
