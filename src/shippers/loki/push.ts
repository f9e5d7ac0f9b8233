// Loki's push API (POST /loki/api/v1/push): JSON (`{"streams": [{"stream": {labels}, "values":
// [["<ns>", "<line>", {metadata}]]}]}`, or the older `labels`/`entries` form) and snappy-compressed
// protobuf (Promtail, Grafana Agent, winston-loki). One event per entry: the stream's labels as
// fields, the line in `message`, the entry's time as `_time` (to the nanosecond), structured
// metadata as fields.
import snappy from 'snappy';
import { invalidInput, payloadTooLarge } from '../../errors';
import { isPlainObject, type EventVisitor, type RawEvent } from '../../ingest/parse-body';
import { parseTimeValue } from '../../ingest/timestamp';
import { countingVisitor } from '../event-count';
import { eventTime } from '../event-time';
import { decodeMessage, type LongLike, loadProtoRoot, longToBigInt } from '../protobuf';
import { parseLabelSet } from './labels';

const root = loadProtoRoot(import.meta.url, ['./push.proto']);
const PushRequest = root.lookupType('lokipush.PushRequest');

interface PushMessage {
  streams: { labels: string; entries: { timestamp?: { seconds: LongLike; nanos: number }; line: string; structuredMetadata: { name: string; value: string }[] }[] }[];
}

const NS_PER_SECOND = 1_000_000_000n;

function entryEvent(labels: Record<string, unknown>, line: string, time: bigint, metadata?: Record<string, unknown>): RawEvent {
  const _time = eventTime(time);
  return metadata ? { ...labels, ...metadata, message: line, _time } : { ...labels, message: line, _time };
}

/** Undoes the snappy block compression of a protobuf push, refusing output past `limit` (413). */
export function unsnappy(body: Buffer, limit: number): Buffer {
  // The block format opens with the uncompressed length as a varint: check it before decoding.
  let length = 0;
  let shift = 0;
  for (let i = 0; i < 5 && i < body.length; i++) {
    length += (body[i]! & 0x7f) * 2 ** shift;
    shift += 7;
    if ((body[i]! & 0x80) === 0) break;
  }
  if (length > limit) throw payloadTooLarge(`request body is larger than ${limit} bytes once decompressed`);
  try {
    return snappy.uncompressSync(body) as Buffer;
  } catch (error) {
    throw invalidInput(`request body is not valid snappy data: ${(error as Error).message}`);
  }
}

export function readLokiProtobuf(body: Buffer, visit: EventVisitor): number {
  const counter = countingVisitor(visit);
  const request = decodeMessage<PushMessage>(PushRequest, body, 'Loki push');
  for (const stream of request.streams) {
    const labels = parseLabelSet(stream.labels);
    for (const entry of stream.entries) {
      const time = entry.timestamp ? longToBigInt(entry.timestamp.seconds) * NS_PER_SECOND + BigInt(entry.timestamp.nanos ?? 0) : undefined;
      let metadata: Record<string, string> | undefined;
      if (entry.structuredMetadata.length > 0) {
        metadata = {};
        for (const pair of entry.structuredMetadata) metadata[pair.name] = pair.value;
      }
      const event = entryEvent(labels, entry.line, time ?? 0n, metadata);
      if (time === undefined) delete event._time;
      counter.visit(event);
    }
  }
  return counter.count();
}

/** A JSON entry time: nanoseconds since the epoch as digits (or a number). */
function jsonTime(value: unknown, where: string): bigint {
  if (typeof value === 'string' && /^\d{1,19}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw invalidInput(`${where}: the time must be a string of nanoseconds since the epoch`);
}

function stringRecord(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidInput(`${where} must be an object of labels`);
  return value;
}

export function readLokiJson(body: Buffer, visit: EventVisitor): number {
  const counter = countingVisitor(visit);
  let request: unknown;
  try {
    request = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw invalidInput(`request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(request) || !Array.isArray(request.streams)) throw invalidInput('the body must be {"streams": [...]}');
  request.streams.forEach((stream: unknown, s: number) => {
    const where = `stream ${s}`;
    if (!isPlainObject(stream)) throw invalidInput(`${where} is not an object`);
    if (Array.isArray(stream.values)) {
      const labels = stringRecord(stream.stream ?? {}, `${where}: "stream"`);
      stream.values.forEach((value: unknown, v: number) => {
        const at = `${where}, value ${v}`;
        if (!Array.isArray(value) || value.length < 2 || value.length > 3 || typeof value[1] !== 'string') {
          throw invalidInput(`${at} must be ["<nanoseconds>", "<line>"] or ["<nanoseconds>", "<line>", {metadata}]`);
        }
        const metadata = value[2] === undefined ? undefined : stringRecord(value[2], `${at}: structured metadata`);
        counter.visit(entryEvent(labels, value[1], jsonTime(value[0], at), metadata));
      });
    } else if (typeof stream.labels === 'string' && Array.isArray(stream.entries)) {
      // The older form: a label set text and entries with RFC 3339 times.
      const labels = parseLabelSet(stream.labels);
      stream.entries.forEach((entry: unknown, e: number) => {
        const at = `${where}, entry ${e}`;
        if (!isPlainObject(entry) || typeof entry.line !== 'string') throw invalidInput(`${at} must be {"ts": "<RFC 3339>", "line": "..."}`);
        let time: bigint;
        try {
          time = parseTimeValue(entry.ts);
        } catch (error) {
          throw invalidInput(`${at}: ${(error as Error).message}`);
        }
        counter.visit(entryEvent(labels, entry.line, time));
      });
    } else {
      throw invalidInput(`${where} must have "stream" and "values" (or "labels" and "entries")`);
    }
  });
  return counter.count();
}
