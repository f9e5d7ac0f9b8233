// The ingest entry points shared by REST and GraphQL: a raw request body (any supported format
// and encoding) or already-parsed events, into a dataset, answered with Axiom's IngestStatus.
import { invalidInput, payloadTooLarge } from '../errors';
import type { DatasetEvents } from './dataset-events';
import { FairAdmission } from './admission';
import type { DatasetRef } from '../datasets/schema/field-registry';
import type { EventStore } from '../events/store/store';
import { type BodyFormat, bodyFormatOf, decodeBody } from './content';
import { compileGoLayout, type TimeLayoutParser } from './go-time-layout';
import { nestsDeeperThan } from '../lib/json-depth';
import { MAX_BODY_BYTES, MAX_EVENT_BYTES, MAX_EVENT_DEPTH, MAX_EVENTS_PER_REQUEST, MAX_FIELD_NAME_BYTES } from './limits';
import { type EventVisitor, isPlainObject, type RawEvent, readBody, tooManyEvents, withLabels } from './parse-body';
import { type EventFailure, EventPreparer, measureEventSize, type PreparedBatch } from './prepare';
import { formatNs, InvalidTimeError } from './timestamp';

export interface IngestOptions {
  /** `timestamp-field`: the field holding the event time (default `_time`). */
  timestampField?: string;
  /** `timestamp-format`: a Go layout or layout name for textual times (see go-time-layout.ts). */
  timestampFormat?: string;
  /** `csv-delimiter`. */
  csvDelimiter?: string;
  /** `X-Axiom-CSV-Fields`: CSV field names when the body has no header line. */
  csvFields?: string[];
  /** `X-Axiom-Event-Labels`: fields added to every event (the event's own fields win). */
  labels?: RawEvent;
  /** Who sends (the token id): ingest turns are shared fairly between callers. */
  caller?: string;
}

export interface IngestLimits {
  /** Requests parsed and written at once. */
  concurrency: number;
  /** Bytes of request bodies that adapters may hold at once (see `bodies`). */
  bufferBytes: number;
}

export interface IngestBody {
  body: Buffer;
  contentType: string | undefined;
  contentEncoding?: string | undefined;
}

export interface IngestFailure {
  timestamp: string;
  error: string;
  /** The event's position in the request, from 0 (beyond Axiom's shape: says which line or item failed). */
  index: number;
}

/**
 * Reads a decoded body into events, handing each over as it is read (with its size when the
 * format gives it); returns how many it read. Throws a DomainError to refuse the whole body.
 * Shippers' formats (OTLP, Elasticsearch bulk, Loki, HEC, logplex) are readers like this.
 */
export type BodyReader = (body: Buffer, visit: EventVisitor) => number;

/** An ingest status with the position in the request of each event that was not stored. */
export interface IngestOutcome {
  status: IngestStatus;
  /** In request order. */
  failures: { index: number; error: string }[];
}

/** Axiom's IngestStatus. */
export interface IngestStatus {
  ingested: number;
  failed: number;
  failures: IngestFailure[];
  /** Bytes of event data read (after decompression). */
  processedBytes: number;
  /** Storage blocks written (DuckDB: vectors of up to 2048 rows; ClickHouse: inserts). */
  blocksCreated: number;
  /** Size of the event store's write-ahead log after the commit, in bytes (0 without one). */
  walLength: number;
}

/** Reads the X-Axiom-Event-Labels header (a JSON object). */
export function parseLabelsHeader(header: string | undefined): RawEvent | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  let labels: unknown;
  try {
    labels = JSON.parse(header);
  } catch {
    throw invalidInput('X-Axiom-Event-Labels must be a JSON object');
  }
  if (!isPlainObject(labels)) throw invalidInput('X-Axiom-Event-Labels must be a JSON object');
  return labels;
}

/** Reads the X-Axiom-CSV-Fields header (comma-separated names). */
export function parseCsvFieldsHeader(header: string | undefined): string[] | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  return header.split(',').map((name) => name.trim()).filter(Boolean);
}

/** The timestamp-field parameter names a field, so it is held to the field name limit. */
function checkTimestampField(field: string | undefined): void {
  if (field !== undefined && Buffer.byteLength(field) > MAX_FIELD_NAME_BYTES) {
    throw invalidInput(`timestamp-field is longer than ${MAX_FIELD_NAME_BYTES} bytes, the longest a field name may be`);
  }
}

function compileTimestampFormat(format: string | undefined): TimeLayoutParser | undefined {
  if (format === undefined || format === '') return undefined;
  try {
    return compileGoLayout(format);
  } catch (error) {
    if (error instanceof InvalidTimeError) throw invalidInput(error.message);
    throw error;
  }
}

/** Everything `prepareBody` needs besides the body. */
interface BodyContext {
  read: BodyReader;
  options: IngestOptions;
  parseTimeText: TimeLayoutParser | undefined;
  receivedAt: Date;
  receivedNs: bigint;
  mapFields: ReadonlySet<string> | undefined;
}

/** Where ingest learns a dataset's map fields (objects under them are kept whole). */
export interface MapFieldLookup {
  namesOf(datasetId: string): Promise<ReadonlySet<string>>;
}

/**
 * Reads and prepares a whole body. Synchronous and separate on purpose: the event objects die
 * here, young, as each is flattened into the batch, and the body is not held while the batch
 * waits for its dataset.
 */
function prepareBody(body: Buffer, context: BodyContext): PreparedBatch {
  const { options } = context;
  const preparer = new EventPreparer({
    receivedAt: context.receivedAt,
    receivedNs: context.receivedNs,
    timestampField: options.timestampField,
    parseTimeText: context.parseTimeText,
    ...(context.mapFields ? { mapFields: context.mapFields } : {}),
  });
  // No event can be larger than a body within the event limit; larger bodies measure events
  // whose size the format does not give (NDJSON lines measure themselves).
  const measure = body.length > MAX_EVENT_BYTES;
  const labels = options.labels;
  context.read(body, (event, size) => {
    const labelled = labels ? withLabels(labels, event) : event;
    // Measured (serialized) only once the event is known not to nest too deep.
    preparer.add(labelled, size ?? (measure ? () => measureEventSize(labelled) : undefined));
  });
  return preparer.finish();
}

/** The reader of one of the API's own formats (JSON, NDJSON, CSV). */
function formatReader(format: BodyFormat, options: IngestOptions): BodyReader {
  const parseOptions = { csvDelimiter: options.csvDelimiter, csvFields: options.csvFields };
  return (body, visit) => readBody(body, format, parseOptions, visit);
}

/**
 * Ingest requests processed at once by default. Two keep both halves of the machine busy (one
 * request is parsed in JavaScript while DuckDB commits another). With more, requests waiting for
 * the same dataset are written together in one transaction (see DatasetEvents.write): under
 * bench:load, 4 took 13% more requests than 2 but doubled the queries' p99 (170 → 317 ms), so
 * the default favours queries.
 */
export const INGEST_REQUESTS_AT_ONCE = 2;

export class IngestService {
  /** Turns to decode, parse and write a request, shared fairly between callers. */
  readonly turns: FairAdmission;
  /**
   * Bytes of raw request bodies adapters hold (while reading them and until their turn ends),
   * shared fairly between callers; a body is read only once its bytes are reserved.
   */
  readonly bodies: FairAdmission;

  constructor(
    private readonly events: DatasetEvents,
    private readonly store: EventStore,
    private readonly mapFields?: MapFieldLookup,
    limits: IngestLimits = { concurrency: INGEST_REQUESTS_AT_ONCE, bufferBytes: 256 * 1024 * 1024 },
  ) {
    this.turns = new FairAdmission(limits.concurrency);
    this.bodies = new FairAdmission(limits.bufferBytes);
  }

  /**
   * Runs `work` in an ingest turn of the caller. `ingest` and `ingestEvents` take their own;
   * shippers' formats run their decoding, reading and `ingestDecoded` in one of these.
   */
  async inTurn<T>(caller: string | undefined, work: () => Promise<T>): Promise<T> {
    const turn = await this.turns.acquire(caller ?? '');
    try {
      return await work();
    } finally {
      turn.release();
    }
  }

  /** Ingests a request body. Unreadable bodies and oversized batches are refused whole. */
  async ingest(dataset: DatasetRef, request: IngestBody, options: IngestOptions = {}): Promise<IngestStatus> {
    return this.inTurn(options.caller, () => this.ingestBody(dataset, request, options));
  }

  private async ingestBody(dataset: DatasetRef, request: IngestBody, options: IngestOptions): Promise<IngestStatus> {
    const receivedAt = new Date();
    const format = bodyFormatOf(request.contentType);
    checkTimestampField(options.timestampField);
    const parseTimeText = compileTimestampFormat(options.timestampFormat);
    const decoded = await this.decode(request);
    return (await this.prepareAndStore(dataset, decoded, formatReader(format, options), options, parseTimeText, receivedAt)).status;
  }

  /** Undoes a body's Content-Encoding; bodies past the limit, sent or decoded, are refused (413). */
  async decode(request: Pick<IngestBody, 'body' | 'contentEncoding'>): Promise<Buffer> {
    if (request.body.length > MAX_BODY_BYTES) throw payloadTooLarge(`request body is larger than ${MAX_BODY_BYTES} bytes`);
    return decodeBody(request.body, request.contentEncoding);
  }

  /**
   * Ingests a decoded body that `read` turns into events (a shipper's format), through the same
   * preparation, limits, per-event failures and one-transaction write as the API's own formats.
   * Takes no turn: callers run it inside `inTurn`.
   */
  async ingestDecoded(dataset: DatasetRef, decoded: Buffer, read: BodyReader, options: IngestOptions = {}): Promise<IngestOutcome> {
    const receivedAt = new Date();
    checkTimestampField(options.timestampField);
    const parseTimeText = compileTimestampFormat(options.timestampFormat);
    return this.prepareAndStore(dataset, decoded, read, options, parseTimeText, receivedAt);
  }

  private async prepareAndStore(
    dataset: DatasetRef,
    decoded: Buffer,
    read: BodyReader,
    options: IngestOptions,
    parseTimeText: TimeLayoutParser | undefined,
    receivedAt: Date,
  ): Promise<IngestOutcome> {
    const receivedNs = nanosecondsOf(receivedAt);
    const mapFields = await this.mapFields?.namesOf(dataset.id);
    const batch = prepareBody(decoded, { read, options, parseTimeText, receivedAt, receivedNs, mapFields });
    return this.storeBatch(dataset, batch, receivedNs, decoded.length);
  }

  /** Ingests events given as values (GraphQL); each must be an object. */
  async ingestEvents(dataset: DatasetRef, events: unknown[], options: IngestOptions = {}): Promise<IngestStatus> {
    return this.inTurn(options.caller, () => this.ingestValues(dataset, events, options));
  }

  private async ingestValues(dataset: DatasetRef, events: unknown[], options: IngestOptions): Promise<IngestStatus> {
    const receivedAt = new Date();
    if (events.length > MAX_EVENTS_PER_REQUEST) throw tooManyEvents(events.length);
    events.forEach((event, index) => {
      if (!isPlainObject(event)) throw invalidInput(`event ${index} is not an object`);
    });
    checkTimestampField(options.timestampField);
    const parseTimeText = compileTimestampFormat(options.timestampFormat);
    const receivedNs = nanosecondsOf(receivedAt);
    const mapFields = await this.mapFields?.namesOf(dataset.id);
    const preparer = new EventPreparer({ receivedAt, receivedNs, timestampField: options.timestampField, parseTimeText, ...(mapFields ? { mapFields } : {}) });
    // Sizes are measured (serialized) only for events of acceptable depth.
    let processedBytes = 0;
    for (const event of events as RawEvent[]) {
      const labelled = options.labels ? withLabels(options.labels, event) : event;
      let measured = false;
      preparer.add(labelled, () => {
        measured = true;
        const bytes = measureEventSize(labelled);
        processedBytes += bytes;
        return bytes;
      });
      // An event that failed before its size was needed still counts as read, if it can be serialized.
      if (!measured && !nestsDeeperThan(labelled, MAX_EVENT_DEPTH)) processedBytes += measureEventSize(labelled);
    }
    return (await this.storeBatch(dataset, preparer.finish(), receivedNs, processedBytes)).status;
  }

  private async storeBatch(dataset: DatasetRef, batch: PreparedBatch, receivedNs: bigint, processedBytes: number): Promise<IngestOutcome> {
    const failures: EventFailure[] = batch.failures;
    let ingested = 0;
    let blocksCreated = 0;
    if (batch.rowCount > 0) {
      const outcome = await this.events.write(dataset, batch, receivedNs);
      ingested = outcome.ingested;
      blocksCreated = outcome.chunks;
      for (const [row, error] of outcome.rejected) {
        failures.push({ index: batch.positions[row]!, time: batch.times[row]!, error });
      }
      if (outcome.rejected.size > 0) failures.sort((a, b) => a.index - b.index);
    }
    const status: IngestStatus = {
      ingested,
      failed: failures.length,
      failures: failures.map((failure) => ({ timestamp: formatNs(failure.time), error: failure.error, index: failure.index })),
      processedBytes,
      blocksCreated,
      walLength: this.store.walBytes(),
    };
    return { status, failures: failures.map((failure) => ({ index: failure.index, error: failure.error })) };
  }
}

const nanosecondsOf = (date: Date) => BigInt(date.getTime()) * 1_000_000n;
