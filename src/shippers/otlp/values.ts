// OTLP values as event values, the same for every signal: AnyValue to JSON-like values, attribute
// lists to name/value pairs, trace and span ids to lowercase hex, 64-bit times to bigint
// nanoseconds. Both encodings (protobuf, OTLP/JSON) are read here; bad values are a 400.
import { invalidInput } from '../../errors';
import type { RawEvent } from '../../ingest/parse-body';
import { type LongLike, longToBigInt, longToValue } from '../protobuf';
import type { OtlpAnyValue, OtlpId, OtlpInt64, OtlpKeyValue } from './model';

/** How deep AnyValue arrays and maps may nest; deeper input is refused rather than recursed into. */
const MAX_DEPTH = 32;

const present = (value: unknown) => value !== undefined && value !== null;

/** A 64-bit integer as a bigint: a Long, a number, or decimal text (OTLP/JSON). */
export function int64(value: OtlpInt64, what: string): bigint {
  if (typeof value === 'string') {
    if (!/^-?\d{1,20}$/.test(value)) throw invalidInput(`${what} must be an integer (got "${value.slice(0, 40)}")`);
    return BigInt(value);
  }
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw invalidInput(`${what} must be an integer (got ${value})`);
  return longToBigInt(value as LongLike);
}

/** A 64-bit integer value: a number when exact, else its decimal text. */
function int64Value(value: OtlpInt64): number | string {
  if (typeof value === 'string') {
    const big = int64(value, 'intValue');
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
  }
  return longToValue(value as LongLike);
}

/** An id as lowercase hex ("" when absent): bytes from protobuf, hex text from OTLP/JSON. */
export function idHex(value: OtlpId, what: string): string {
  if (!present(value)) return '';
  if (typeof value === 'string') {
    if (!/^[0-9a-fA-F]*$/.test(value)) throw invalidInput(`${what} must be hex (got "${value.slice(0, 40)}")`);
    return value.toLowerCase();
  }
  return bytesOf(value!).toString('hex');
}

/** Bytes as protobufjs hands them over: a Buffer, another Uint8Array, or an empty array default. */
function bytesOf(value: Uint8Array | ArrayLike<number>): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return Buffer.from(Array.from(value));
}

const ANY_VALUE_KINDS = ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] as const;
type AnyValueKind = (typeof ANY_VALUE_KINDS)[number];

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Which member of an AnyValue is set: its own property, in protobufjs messages (whose unset
 * members read as defaults from the prototype) as in JSON objects.
 */
function kindOf(value: OtlpAnyValue): AnyValueKind | undefined {
  for (const kind of ANY_VALUE_KINDS) if (hasOwn.call(value, kind) && present(value[kind])) return kind;
  return undefined;
}

/** An OTLP AnyValue as an event value (undefined when it holds none). */
export function anyValue(value: OtlpAnyValue | null | undefined, depth = 0): unknown {
  if (!value) return undefined;
  if (depth > MAX_DEPTH) throw invalidInput(`attribute values nest deeper than ${MAX_DEPTH} levels`);
  switch (kindOf(value)) {
    case 'stringValue':
      return String(value.stringValue);
    case 'boolValue':
      return Boolean(value.boolValue);
    case 'intValue':
      return int64Value(value.intValue!);
    case 'doubleValue': {
      const number = Number(value.doubleValue);
      // NaN and infinities have no JSON form; keep their names.
      return Number.isFinite(number) ? number : String(value.doubleValue);
    }
    case 'arrayValue':
      return listOf(value.arrayValue!.values, 'arrayValue.values').map((item) => anyValue(item, depth + 1) ?? null);
    case 'kvlistValue':
      return keyValues(value.kvlistValue!.values, depth + 1);
    case 'bytesValue': {
      const bytes = value.bytesValue!;
      return typeof bytes === 'string' ? bytes : bytesOf(bytes).toString('base64');
    }
    default:
      return undefined;
  }
}

/** A KeyValue list as an object (later keys win, as OTLP leaves duplicates undefined). */
export function keyValues(list: OtlpKeyValue[] | null | undefined, depth = 0): RawEvent {
  const object: RawEvent = {};
  if (!list) return object;
  if (!Array.isArray(list)) throw invalidInput('attributes must be a list of {key, value}');
  for (const pair of list) {
    if (typeof pair?.key !== 'string') throw invalidInput('every attribute needs a string key');
    const value = anyValue(pair.value, depth);
    if (value !== undefined) object[pair.key] = value;
  }
  return object;
}

/** Each attribute as a name and value, without building an object. */
export function forEachAttribute(list: OtlpKeyValue[] | null | undefined, visit: (key: string, value: unknown) => void): void {
  if (!list) return;
  if (!Array.isArray(list)) throw invalidInput('attributes must be a list of {key, value}');
  for (const pair of list) {
    if (typeof pair?.key !== 'string') throw invalidInput('every attribute needs a string key');
    const value = anyValue(pair.value);
    if (value !== undefined) visit(pair.key, value);
  }
}

/** A list field of a decoded message (an empty list when absent); anything else is a 400. */
export function listOf<T>(value: T[] | null | undefined, what: string): T[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`${what} must be a list`);
  return value;
}

/** An enum value: its number, or its name in lenient OTLP/JSON. */
export function enumNumber(value: number | string | null | undefined, names: readonly string[], what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  const index = names.indexOf(value);
  if (index === -1) throw invalidInput(`${what} must be one of ${names.join(', ')} or their numbers (got "${String(value).slice(0, 40)}")`);
  return index;
}
