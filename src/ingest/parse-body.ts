// Reads a decoded request body into event objects: JSON (an object, an array of objects, or
// an array of `{labels, events}` groups), NDJSON (one JSON object per line) and CSV (a header
// line of field names, or names given by the caller). A body that cannot be read, holds
// something other than objects, or holds more events than allowed is refused whole: callers
// store nothing until the whole body has been read. Events are handed over one at a time, so
// each can be flattened and dropped at once instead of all of them living until the end.
import { parse as parseCsvText } from 'csv-parse/sync';
import { invalidInput, payloadTooLarge } from '../errors';
import type { BodyFormat } from './content';
import { MAX_EVENTS_PER_REQUEST } from './limits';

export type RawEvent = Record<string, unknown>;

export interface ParsedBody {
  events: RawEvent[];
  /** UTF-8 size of each event's own text, when the format gives it for free (NDJSON). */
  sizes?: number[];
}

export interface ParseOptions {
  /** `csv-delimiter`: the CSV field separator (default ","). */
  csvDelimiter?: string;
  /** `X-Axiom-CSV-Fields`: CSV field names, when the body has no header line. */
  csvFields?: string[];
}

export function tooManyEvents(count: number | string): Error {
  return payloadTooLarge(`a request may carry at most ${MAX_EVENTS_PER_REQUEST} events (got ${count}); split it into smaller batches`);
}

export function isPlainObject(value: unknown): value is RawEvent {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Receives each event of a body as it is read, with its size when the format gives it. */
export type EventVisitor = (event: RawEvent, size: number | undefined) => void;

/** Reads a body event by event (nothing is kept between events); returns the count. */
export function readBody(body: Buffer, format: BodyFormat, options: ParseOptions, visit: EventVisitor): number {
  switch (format) {
    case 'json':
      return readJsonBody(body, visit);
    case 'ndjson':
      return readNdjsonBody(body, visit);
    case 'csv':
      return readCsvBody(body, options, visit);
  }
}

function collect(read: (visit: EventVisitor) => number, keepSizes: boolean): ParsedBody {
  const events: RawEvent[] = [];
  const sizes: number[] = [];
  read((event, size) => {
    events.push(event);
    if (size !== undefined) sizes.push(size);
  });
  return keepSizes ? { events, sizes } : { events };
}

/** All events of a body at once (tests, small bodies). */
export function parseBody(body: Buffer, format: BodyFormat, options: ParseOptions = {}): ParsedBody {
  return collect((visit) => readBody(body, format, options, visit), format === 'ndjson');
}

function isGroup(value: RawEvent): value is { labels: RawEvent; events: unknown[] } {
  // Most events are not groups: decide on the two keys before enumerating a wide event's keys.
  if (!Array.isArray(value.events) || !isPlainObject(value.labels)) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== 'labels' && key !== 'events') return false;
    keys++;
  }
  return keys === 2 && isPlainObject(value.labels) && Array.isArray(value.events);
}

/** Applies labels under each event: the event's own fields win over a label of the same name. */
export function withLabels(labels: RawEvent, event: RawEvent): RawEvent {
  return { ...labels, ...event };
}

/** Expands a parsed JSON body into events, applying group labels. */
export function eventsOfJsonValue(value: unknown): RawEvent[] {
  if (isPlainObject(value)) return [value];
  if (!Array.isArray(value)) {
    throw invalidInput('request body must be a JSON object, an array of objects, or an array of {labels, events} groups');
  }
  const events: RawEvent[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!isPlainObject(item)) throw invalidInput(`element ${i} of the body is ${describe(item)}, not an event object`);
    if (!isGroup(item)) {
      events.push(item);
      continue;
    }
    for (let j = 0; j < item.events.length; j++) {
      const event: unknown = item.events[j];
      if (!isPlainObject(event)) throw invalidInput(`event ${j} of group ${i} is ${describe(event)}, not an object`);
      events.push(withLabels(item.labels, event));
    }
    if (events.length > MAX_EVENTS_PER_REQUEST) throw tooManyEvents(`more than ${MAX_EVENTS_PER_REQUEST}`);
  }
  if (events.length > MAX_EVENTS_PER_REQUEST) throw tooManyEvents(events.length);
  return events;
}

export function readJsonBody(body: Buffer, visit: EventVisitor): number {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Clients often send NDJSON labelled as JSON; Axiom reads it, so do the same.
    if (text.trimEnd().includes('\n')) {
      let count: number | undefined;
      try {
        count = readNdjsonBody(body, visit);
      } catch {
        // fall through to the JSON error, which describes what was declared
      }
      if (count !== undefined) return count;
    }
    throw invalidInput(`request body is not valid JSON: ${(error as Error).message}`);
  }
  const events = eventsOfJsonValue(value);
  for (const event of events) visit(event, undefined);
  return events.length;
}

export function parseJsonBody(body: Buffer): ParsedBody {
  return collect((visit) => readJsonBody(body, visit), false);
}

const NEWLINE = 0x0a;

const isBlank = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** Runs of empty lines (LF or CRLF) are compared a block at a time rather than byte by byte. */
const BLANK_BLOCK = 4096;
const LF_BLOCK = Buffer.alloc(BLANK_BLOCK, '\n');
const CRLF_BLOCK = Buffer.alloc(BLANK_BLOCK, '\r\n');

/**
 * One JSON object per line; blank lines are skipped; each event's size is its line's. Blank
 * lines and leading whitespace are skipped byte by byte, without making text of them, so a body
 * of nothing but line breaks costs a scan of its bytes.
 */
export function readNdjsonBody(body: Buffer, visit: EventVisitor): number {
  let count = 0;
  let start = 0;
  let newlines = 0;
  while (start < body.length) {
    const byte = body[start]!;
    if (isBlank(byte)) {
      const block = body.subarray(start, start + BLANK_BLOCK);
      if (block.length === BLANK_BLOCK && (block.equals(LF_BLOCK) || block.equals(CRLF_BLOCK))) {
        newlines += byte === NEWLINE ? BLANK_BLOCK : BLANK_BLOCK / 2;
        start += BLANK_BLOCK;
        continue;
      }
      if (byte === NEWLINE) newlines++;
      start++;
      continue;
    }
    const lineNumber = newlines + 1;
    const lineStart = start;
    let end = body.indexOf(NEWLINE, lineStart);
    if (end === -1) end = body.length;
    start = end;
    while (end > lineStart && isBlank(body[end - 1]!)) end--;
    if (count === MAX_EVENTS_PER_REQUEST) throw tooManyEvents(`more than ${MAX_EVENTS_PER_REQUEST}`);
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8', lineStart, end));
    } catch (error) {
      throw invalidInput(`line ${lineNumber} is not valid JSON: ${(error as Error).message}`);
    }
    if (!isPlainObject(value)) throw invalidInput(`line ${lineNumber} is ${describe(value)}, not an event object`);
    count++;
    visit(value, end - lineStart);
  }
  return count;
}

export function parseNdjsonBody(body: Buffer): ParsedBody {
  return collect((visit) => readNdjsonBody(body, visit), true);
}

/** The csv-delimiter parameter: any text; the two characters `\t` also mean a tab. */
export function csvDelimiterOf(parameter: string | undefined): string {
  if (parameter === undefined || parameter === '') return ',';
  if (parameter === '\\t') return '\t';
  if (parameter.length > 8 || /[\r\n"]/.test(parameter)) {
    throw invalidInput('csv-delimiter must be at most 8 characters and not a quote or a line break');
  }
  return parameter;
}

const CSV_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * CSV carries text only; a cell that is exactly a JSON number or `true`/`false` is read as that
 * type so it can be compared and summed, an empty cell is absent, anything else stays text.
 */
export function csvCellValue(cell: string): unknown {
  if (cell === '') return undefined;
  if (cell === 'true') return true;
  if (cell === 'false') return false;
  if (cell.length <= 32 && CSV_NUMBER.test(cell)) {
    const number = Number(cell);
    const writtenAsInteger = !/[.eE]/.test(cell);
    // Integers beyond 2^53 would lose digits as numbers (ids, card numbers): keep their text.
    if (Number.isFinite(number) && !(writtenAsInteger && !Number.isSafeInteger(number))) return number;
  }
  return cell;
}

export function readCsvBody(body: Buffer, options: ParseOptions, visit: EventVisitor): number {
  const delimiter = csvDelimiterOf(options.csvDelimiter);
  const givenFields = options.csvFields?.map((field) => field.trim()).filter(Boolean);
  let records: string[][];
  try {
    records = parseCsvText(body, {
      delimiter,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      to: MAX_EVENTS_PER_REQUEST + 2,
    }) as string[][];
  } catch (error) {
    throw invalidInput(`request body is not valid CSV: ${(error as Error).message}`);
  }
  const header = givenFields && givenFields.length > 0 ? givenFields : records.shift();
  if (!header) return 0;
  const names = header.map((name) => name.trim());
  if (names.some((name) => name === '')) throw invalidInput('the CSV header has an empty field name');
  if (records.length > MAX_EVENTS_PER_REQUEST) throw tooManyEvents(`more than ${MAX_EVENTS_PER_REQUEST}`);
  records.forEach((record, index) => {
    if (record.length !== names.length) {
      throw invalidInput(`CSV record ${index + 1} has ${record.length} fields but the header names ${names.length}`);
    }
  });
  for (const record of records) {
    const event: RawEvent = {};
    for (let i = 0; i < names.length; i++) {
      const value = csvCellValue(record[i]!);
      if (value !== undefined) event[names[i]!] = value;
    }
    visit(event, undefined);
  }
  return records.length;
}

export function parseCsvBody(body: Buffer, options: ParseOptions = {}): ParsedBody {
  return collect((visit) => readCsvBody(body, options, visit), false);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
