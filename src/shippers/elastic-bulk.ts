// Elasticsearch's Bulk API (what Beats, Logstash, Fluentd, Vector and the official clients send):
// NDJSON of action lines (`{"index": {...}}`, `{"create": {...}}`), each followed by its document.
// Documents become events of the path's dataset whatever their `_index`; `@timestamp` becomes
// `_time`. The whole body is read before anything is stored: a line that is not JSON, an action
// without its document, or an unknown action refuses the request; `update` and `delete` (which
// need stored documents to change) fail alone, as items with an error.
import { randomBytes } from 'node:crypto';
import { invalidInput } from '../errors';
import { type EventVisitor, isPlainObject, type RawEvent } from '../ingest/parse-body';
import { countingVisitor } from './event-count';

export type BulkActionName = 'index' | 'create' | 'update' | 'delete';

/**
 * The plan of every item, column by column (a bulk of 10,000 items would otherwise keep 10,000
 * small objects alive for the whole request): its action, its index, the id it was given (ids
 * of the others are generated when the answer is written), the position of its document among
 * the events (-1 when it has none to store), and why it fails without being tried.
 */
export interface ParsedBulk {
  actions: BulkActionName[];
  indexes: string[];
  ids: (string | undefined)[];
  events: number[];
  refused: Map<number, string>;
  /** Documents handed over as events. */
  count: number;
}

export interface BulkItemError {
  type: string;
  reason: string;
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

interface BulkAction {
  name: BulkActionName;
  index: string;
  id: string | undefined;
}

function readAction(line: string, number: number, defaultIndex: string): BulkAction {
  const action = parseLine(line, number, 'the action');
  const keys = isPlainObject(action) ? Object.keys(action) : [];
  const name = keys[0] as BulkActionName;
  if (keys.length !== 1 || !ACTIONS.has(name)) {
    throw invalidInput(`malformed action/metadata line [${number}]: expected one of {"index": {...}}, {"create": {...}}, {"update": {...}}, {"delete": {...}}`);
  }
  const metadata = (action as Record<string, unknown>)[name];
  if (!isPlainObject(metadata)) throw invalidInput(`malformed action/metadata line [${number}]: the ${name} action's metadata must be an object`);
  return {
    name,
    index: typeof metadata._index === 'string' && metadata._index !== '' ? metadata._index : defaultIndex,
    id: typeof metadata._id === 'string' && metadata._id !== '' ? metadata._id : typeof metadata._id === 'number' ? String(metadata._id) : undefined,
  };
}

/**
 * Reads a bulk body, handing each document over as an event (with its line's size) as soon as it
 * is read, so that documents are prepared while young; returns the plan of every item. A body
 * found malformed part way is refused whole all the same: nothing is stored before it is read.
 * `defaultIndex` is the index named in the path, else the dataset's name.
 */
export function readBulk(body: Buffer, defaultIndex: string, visit: EventVisitor): ParsedBulk {
  const parsed: ParsedBulk = { actions: [], indexes: [], ids: [], events: [], refused: new Map(), count: 0 };
  const counter = countingVisitor(visit);
  let start = 0;
  let number = 0;
  // The item whose document comes next, or -1.
  let pending = -1;
  let lastActionLine: string | undefined;
  let lastAction: BulkAction | undefined;
  while (start < body.length) {
    let end = body.indexOf(NEWLINE, start);
    if (end === -1) end = body.length;
    const lineStart = start;
    start = end + 1;
    number++;
    if (end > lineStart && body[end - 1] === 0x0d) end--;
    const line = body.toString('utf8', lineStart, end);
    if (line.trim() === '') continue;
    if (pending !== -1) {
      const document = parseLine(line, number, 'the document');
      if (!isPlainObject(document)) throw invalidInput(`the document on line ${number} is not a JSON object`);
      if (!parsed.refused.has(pending)) {
        parsed.events[pending] = counter.count();
        counter.visit(eventOfDocument(document), end - lineStart);
      }
      pending = -1;
      continue;
    }
    // Shippers repeat one action line (`{"create":{"_index":"filebeat-8.17.0"}}`) for every
    // document: read it once.
    if (line !== lastActionLine) {
      lastAction = readAction(line, number, defaultIndex);
      lastActionLine = line;
    }
    const { name, index, id } = lastAction!;
    const item = parsed.actions.length;
    parsed.actions.push(name);
    parsed.indexes.push(index);
    parsed.ids.push(id);
    parsed.events.push(-1);
    if (name === 'update' || name === 'delete') parsed.refused.set(item, `${name} actions are not supported: events are append-only; send index or create`);
    // Every action but delete is followed by a document (update's is the change to make).
    if (name !== 'delete') pending = item;
  }
  if (pending !== -1) {
    throw invalidInput(`the ${parsed.actions[pending]} action on the last line has no document: the bulk request must end with the document and a newline`);
  }
  parsed.count = counter.count();
  return parsed;
}

/** A document as an event: `@timestamp` is the event's time (unless it has a `_time`). */
function eventOfDocument(document: RawEvent): RawEvent {
  if (document['@timestamp'] === undefined || document._time !== undefined) return document;
  const { '@timestamp': timestamp, ...rest } = document;
  return { _time: timestamp, ...rest };
}

/**
 * What `filter_path` keeps of the answer. Beats and Logstash send
 * `filter_path=errors,items.*.error,items.*.status`; top-level names and `items.*.<field>` are
 * understood (a deeper path keeps its whole field), other patterns keep nothing more.
 */
export interface BulkFilter {
  took: boolean;
  errors: boolean;
  /** Every item field, or only these. */
  items: 'all' | Set<string> | false;
}

const ITEM_FIELDS = ['_index', '_id', '_version', 'result', '_shards', '_seq_no', '_primary_term', 'status', 'error'] as const;

export function parseFilterPath(parameter: string | undefined): BulkFilter {
  if (parameter === undefined || parameter.trim() === '') return { took: true, errors: true, items: 'all' };
  const filter: BulkFilter = { took: false, errors: false, items: false };
  for (const pattern of parameter.split(',').map((part) => part.trim())) {
    const [head, second, third] = pattern.split('.');
    if (head === '*' || head === '**') return { took: true, errors: true, items: 'all' };
    if (head === 'took' && second === undefined) filter.took = true;
    else if (head === 'errors' && second === undefined) filter.errors = true;
    else if (head === 'items') {
      if (second === undefined || third === undefined || third === '*' || third === '**') filter.items = 'all';
      else if (filter.items !== 'all') {
        if (filter.items === false) filter.items = new Set();
        filter.items.add(third);
      }
    }
  }
  return filter;
}

const SHARDS = '{"total":1,"successful":1,"failed":0}';

/**
 * The Bulk API's answer as JSON text: one item per action, in order, with its status and any
 * error. Written directly rather than through objects: a bulk of 10,000 documents answers with
 * 10,000 items, and building and serializing them as objects cost more than storing the events.
 */
export function bulkResponseJson(parsed: ParsedBulk, failures: { index: number; error: string }[], took: number, filter: BulkFilter = parseFilterPath(undefined)): string {
  const failedEvents = new Map(failures.map((failure) => [failure.index, failure.error]));
  const keep = (field: (typeof ITEM_FIELDS)[number]) => filter.items === 'all' || (filter.items !== false && filter.items.has(field));
  const kept = ITEM_FIELDS.filter(keep);
  const quotedIndex = new Map<string, string>();
  const newId = idGenerator();
  let sequence = 0;
  let errors = false;
  const items: string[] = [];
  for (let item = 0; item < parsed.actions.length; item++) {
    const refused = parsed.refused.get(item);
    const event = parsed.events[item]!;
    const failure = refused ?? (event !== -1 ? failedEvents.get(event) : undefined);
    if (failure !== undefined) errors = true;
    if (filter.items === false) continue;
    const parts: string[] = [];
    for (const field of kept) {
      switch (field) {
        case '_index': {
          const index = parsed.indexes[item]!;
          let quoted = quotedIndex.get(index);
          if (quoted === undefined) quotedIndex.set(index, (quoted = JSON.stringify(index)));
          parts.push(`"_index":${quoted}`);
          break;
        }
        case '_id':
          parts.push(`"_id":${JSON.stringify(parsed.ids[item] ?? newId())}`);
          break;
        case 'status':
          parts.push(`"status":${failure === undefined ? 201 : 400}`);
          break;
        case 'error':
          if (failure !== undefined) {
            const type = refused !== undefined ? 'illegal_argument_exception' : 'document_parsing_exception';
            parts.push(`"error":${JSON.stringify({ type, reason: failure } satisfies BulkItemError)}`);
          }
          break;
        default:
          if (failure !== undefined) break;
          if (field === '_version') parts.push('"_version":1');
          else if (field === 'result') parts.push('"result":"created"');
          else if (field === '_shards') parts.push(`"_shards":${SHARDS}`);
          else if (field === '_seq_no') parts.push(`"_seq_no":${sequence}`);
          else if (field === '_primary_term') parts.push('"_primary_term":1');
      }
    }
    if (failure === undefined) sequence++;
    // As filter_path does, an item left with nothing is left out.
    if (parts.length > 0) items.push(`{"${parsed.actions[item]}":{${parts.join(',')}}}`);
  }
  const top: string[] = [];
  if (filter.took) top.push(`"took":${took}`);
  if (filter.errors) top.push(`"errors":${errors}`);
  if (filter.items !== false) top.push(`"items":[${items.join(',')}]`);
  return `{${top.join(',')}}`;
}
