// Writes a column of text into a VARCHAR (or JSON) vector of a data chunk being appended. The
// client's own vector writes every string with a native call of its own (about 1 µs, most of the
// appender's JavaScript time for text-heavy events). Here a string of up to 12 bytes is written
// into the vector's entries, where DuckDB keeps it inline, and the longer ones of the chunk are
// handed over in one call, as one string, that their entries then point into: the appender
// copies each entry's bytes when the chunk is appended, before the chunk is reset.
import bindings, { type Vector } from '@duckdb/node-bindings';

/** Bytes a `duckdb_string_t` takes: length, then 12 inline bytes, or a 4-byte prefix and a pointer. */
const STRING_SIZE = 16;
const INLINE_LIMIT = 12;
const TWO_TO_32 = 2 ** 32;
/** The most characters joined into one string for DuckDB (far below V8's longest string). */
export const MAX_JOINED_CHARS = 32 * 1024 * 1024;

const encoder = new TextEncoder();

// The entries and the validity mask are built here, then copied into the vector in one call each
// (the vector's memory is not writable from JavaScript). Writes are synchronous: one buffer serves all.
let entries = new Uint8Array(2048 * STRING_SIZE);
let validity = new Uint8Array(2048 / 8);

/**
 * Writes `textAt(0)` … `textAt(count - 1)` (null: a null entry) into the first `count` rows of a
 * flat VARCHAR vector whose entries are valid and unwritten (a chunk just reset).
 */
export function writeTextVector(vector: Vector, textAt: (row: number) => string | null, count: number): void {
  const size = count * STRING_SIZE;
  const validityBytes = Math.ceil(count / 64) * 8;
  if (entries.length < size) entries = new Uint8Array(size);
  if (validity.length < validityBytes) validity = new Uint8Array(validityBytes);
  entries.fill(0, 0, size);
  const view = new DataView(entries.buffer, 0, size);
  let nulls = false;
  const longRows: number[] = [];
  const longTexts: string[] = [];
  for (let row = 0; row < count; row++) {
    const text = textAt(row);
    if (text === null) {
      if (!nulls) validity.fill(0xff, 0, validityBytes);
      nulls = true;
      validity[row >> 3]! &= ~(1 << (row & 7));
      continue;
    }
    if (text.length <= INLINE_LIMIT && writeInline(entries, view, row * STRING_SIZE, text)) continue;
    longRows.push(row);
    longTexts.push(text);
  }
  for (let first = 0; first < longRows.length; ) {
    let next = first;
    for (let chars = 0; next < longRows.length && (next === first || chars + longTexts[next]!.length <= MAX_JOINED_CHARS); next++) chars += longTexts[next]!.length;
    const whole = first === 0 && next === longRows.length;
    writeOutOfLine(vector, entries, view, whole ? longRows : longRows.slice(first, next), whole ? longTexts : longTexts.slice(first, next));
    first = next;
  }
  bindings.copy_data_to_vector(vector, 0, entries.buffer, 0, size);
  if (nulls) {
    bindings.vector_ensure_validity_writable(vector);
    bindings.copy_data_to_vector_validity(vector, 0, validity.buffer, 0, validityBytes);
  }
}

/** Writes `text` inline at `at` when it takes at most 12 bytes; false when it takes more. */
function writeInline(data: Uint8Array, view: DataView, at: number, text: string): boolean {
  const length = text.length;
  let ascii = true;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) {
      ascii = false;
      break;
    }
    data[at + 4 + index] = code;
  }
  let bytes = length;
  if (!ascii) {
    bytes = Buffer.byteLength(text);
    if (bytes > INLINE_LIMIT) {
      data.fill(0, at, at + STRING_SIZE);
      return false;
    }
    // DuckDB compares inline strings by all 16 bytes: what follows the text stays zero.
    data.fill(0, at + 4, at + STRING_SIZE);
    encoder.encodeInto(text, data.subarray(at + 4, at + 4 + bytes));
  }
  view.setUint32(at, bytes, true);
  return true;
}

/**
 * Hands the longer strings to DuckDB as one (into the vector's string heap, through the first of
 * their entries), reads back where it put it, and points each entry at its part. Text beyond
 * MAX_JOINED_CHARS comes in several such calls.
 */
function writeOutOfLine(vector: Vector, data: Uint8Array, view: DataView, rows: number[], texts: string[]): void {
  const joined = texts.join('');
  const bytes = Buffer.from(joined, 'utf8');
  const lengths = bytes.length === joined.length ? undefined : texts.map((text) => Buffer.byteLength(text));
  // Joining can pair a lone surrogate at the end of one string with one at the start of the
  // next, which then encode differently from apart: such strings are written one by one.
  if (lengths && lengths.reduce((sum, length) => sum + length, 0) !== bytes.length) {
    rows.forEach((row, index) => bindings.vector_assign_string_element(vector, row, texts[index]!));
    // Their entries, now in the vector, are kept when the built ones are copied over it.
    const written = bindings.vector_get_data(vector, (rows[rows.length - 1]! + 1) * STRING_SIZE);
    for (const row of rows) data.set(written.subarray(row * STRING_SIZE, (row + 1) * STRING_SIZE), row * STRING_SIZE);
    return;
  }
  const first = rows[0]! * STRING_SIZE;
  bindings.vector_assign_string_element_len(vector, rows[0]!, bytes);
  const written = new DataView(bindings.vector_get_data(vector, first + STRING_SIZE).buffer);
  const base = written.getUint32(first + 12, true) * TWO_TO_32 + written.getUint32(first + 8, true);
  let offset = 0;
  for (let index = 0; index < rows.length; index++) {
    const length = lengths ? lengths[index]! : texts[index]!.length;
    const at = rows[index]! * STRING_SIZE;
    view.setUint32(at, length, true);
    // The prefix: the first 4 bytes (every string here takes more than 12).
    data[at + 4] = bytes[offset]!;
    data[at + 5] = bytes[offset + 1]!;
    data[at + 6] = bytes[offset + 2]!;
    data[at + 7] = bytes[offset + 3]!;
    const address = base + offset;
    view.setUint32(at + 8, address % TWO_TO_32, true);
    view.setUint32(at + 12, Math.floor(address / TWO_TO_32), true);
    offset += length;
  }
}
