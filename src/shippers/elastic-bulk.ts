// Elasticsearch's Bulk API (what Beats, Logstash, Fluentd, Vector and the official clients send):
// NDJSON of action lines (`{"index": {...}}`, `{"create": {...}}`), each followed by its document.
// Documents become events of the path's dataset whatever their `_index`; `@timestamp` becomes
// `_time`. The whole body is read before anything is stored: a line that is not JSON, an action
// without its document, or an unknown action refuses the request; `update` and `delete` (which
// need stored documents to change) fail alone, as items with an error.
import { randomBytes } from 'node:crypto';
import { invalidInput } from '../errors';
import { isPlainObject, type RawEvent } from '../events/ingest/parse-body';
import { countingVisitor } from './event-count';

export type BulkActionName = 'index' | 'create' | 'update' | 'delete';

interface BulkItemPlan {
  action: BulkActionName;
  index: string;
  id: string;
  /** Position of the item's document among the events, or undefined when it has none to store. */
  event?: number;
  /** Why the item fails without being tried. */
  refused?: string;
}

export interface ParsedBulk {
  items: BulkItemPlan[];
  events: RawEvent[];
  /** The size of each event's document line, its size as the event limit counts it. */
  sizes: number[];
}

export interface BulkItemError {
  type: string;
  reason: string;
}

export interface BulkResponse {
  took: number;
  errors: boolean;
  items: Record<string, Record<string, unknown>>[];
}

const ACTIONS = new Set<BulkActionName>(['index', 'create', 'update', 'delete']);
const NEWLINE = 0x0a;

/**
 * Ids like the ones Elasticsearch generates (20 URL-safe base64 characters): nine random bytes
 * per request and a six-byte counter, so a bulk of thousands of documents draws randomness once.
 */
function idGenerator(): () => string {
  const bytes = Buffer.alloc(15);
  randomBytes(9).copy(bytes);
  let counter = 0;
  return () => {
    bytes.writeUIntBE(counter++, 9, 6);
    return bytes.toString('base64url');
  };
}

function parseLine(line: string, number: number, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw invalidInput(`${what} on line ${number} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads a bulk body; `defaultIndex` is the index named in the path, else the dataset's name. */
export function parseBulk(body: Buffer, defaultIndex: string): ParsedBulk {
  const items: BulkItemPlan[] = [];
  const events: RawEvent[] = [];
  const sizes: number[] = [];
  const counter = countingVisitor((event, size) => {
    events.push(event);
    sizes.push(size ?? 0);
  });
  let start = 0;
  let number = 0;
  let pending: BulkItemPlan | undefined;
  const newId = idGenerator();
  while (start < body.length) {
    let end = body.indexOf(NEWLINE, start);
    if (end === -1) end = body.length;
    const lineStart = start;
    start = end + 1;
    number++;
    if (end > lineStart && body[end - 1] === 0x0d) end--;
    const line = body.toString('utf8', lineStart, end);
    if (line.trim() === '') continue;
    if (pending) {
      const document = parseLine(line, number, 'the document');
      if (!isPlainObject(document)) throw invalidInput(`the document on line ${number} is not a JSON object`);
      if (pending.refused === undefined) {
        pending.event = events.length;
        counter.visit(eventOfDocument(document), end - lineStart);
      }
      pending = undefined;
      continue;
    }
    const action = parseLine(line, number, 'the action');
    const keys = isPlainObject(action) ? Object.keys(action) : [];
    const name = keys[0] as BulkActionName;
    if (keys.length !== 1 || !ACTIONS.has(name)) {
      throw invalidInput(`malformed action/metadata line [${number}]: expected one of {"index": {...}}, {"create": {...}}, {"update": {...}}, {"delete": {...}}`);
    }
    const metadata = (action as Record<string, unknown>)[name];
    if (!isPlainObject(metadata)) throw invalidInput(`malformed action/metadata line [${number}]: the ${name} action's metadata must be an object`);
    const item: BulkItemPlan = {
      action: name,
      index: typeof metadata._index === 'string' && metadata._index !== '' ? metadata._index : defaultIndex,
      id: typeof metadata._id === 'string' && metadata._id !== '' ? metadata._id : typeof metadata._id === 'number' ? String(metadata._id) : newId(),
    };
    if (name === 'update' || name === 'delete') item.refused = `${name} actions are not supported: events are append-only; send index or create`;
    items.push(item);
    // Every action but delete is followed by a document (update's is the change to make).
    if (name !== 'delete') pending = item;
  }
  if (pending) throw invalidInput(`the ${pending.action} action on the last line has no document: the bulk request must end with the document and a newline`);
  return { items, events, sizes };
}

/** A document as an event: `@timestamp` is the event's time (unless it has a `_time`). */
function eventOfDocument(document: RawEvent): RawEvent {
  if (document['@timestamp'] === undefined || document._time !== undefined) return document;
  const { '@timestamp': timestamp, ...rest } = document;
  return { _time: timestamp, ...rest };
}

/** The Bulk API's answer: one item per action, in order, with its status and any error. */
export function bulkResponse(parsed: ParsedBulk, failures: { index: number; error: string }[], took: number): BulkResponse {
  const failedEvents = new Map(failures.map((failure) => [failure.index, failure.error]));
  let sequence = 0;
  let errors = false;
  const items = parsed.items.map((item) => {
    const common = { _index: item.index, _id: item.id };
    const failure = item.refused ?? (item.event !== undefined ? failedEvents.get(item.event) : undefined);
    if (failure !== undefined) {
      errors = true;
      const type = item.refused ? 'illegal_argument_exception' : 'document_parsing_exception';
      return { [item.action]: { ...common, status: 400, error: { type, reason: failure } satisfies BulkItemError } };
    }
    return {
      [item.action]: {
        ...common,
        _version: 1,
        result: 'created',
        _shards: { total: 1, successful: 1, failed: 0 },
        _seq_no: sequence++,
        _primary_term: 1,
        status: 201,
      },
    };
  });
  return { took, errors, items };
}
