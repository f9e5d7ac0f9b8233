// Protocol Buffers for the shippers that speak them (OTLP, Loki): `.proto` definitions kept beside
// each format, compiled by protobufjs at start, and decoding that turns any malformed input into a
// 400 instead of a crash. 64-bit integers arrive as protobufjs Longs and leave as bigints.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { invalidInput } from '../errors';

/** Parses `.proto` files (paths relative to `base`, a module URL) into one root. */
export function loadProtoRoot(base: string | URL, files: string[]): protobuf.Root {
  const root = new protobuf.Root();
  for (const file of files) protobuf.parse(readFileSync(new URL(file, base), 'utf8'), root, { keepCase: false });
  root.resolveAll();
  return root;
}

/** Decodes one message, or refuses the body (400) naming the format. */
export function decodeMessage<T>(type: protobuf.Type, body: Uint8Array, format: string): T {
  try {
    return type.decode(body) as unknown as T;
  } catch (error) {
    throw invalidInput(`request body is not a valid ${format} protobuf message: ${(error as Error).message}`);
  }
}

/** A protobufjs Long (or a plain number, for values that fit) as an unsigned/signed bigint. */
export type LongLike = number | { low: number; high: number; unsigned: boolean } | null | undefined;

export function longToBigInt(value: LongLike): bigint {
  if (value === null || value === undefined) return 0n;
  if (typeof value === 'number') return BigInt(value);
  const high = value.unsigned ? BigInt(value.high >>> 0) : BigInt(value.high);
  return (high << 32n) + BigInt(value.low >>> 0);
}

/** A Long as a JavaScript number when it is exactly representable, else its decimal text. */
export function longToValue(value: LongLike): number | string {
  if (typeof value === 'number') return value;
  const big = longToBigInt(value);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}
