// Query cursors: an event's place in (_time, _rowId) order, opaque to clients and signed with
// the server's key so a forged or altered cursor is refused instead of read.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidInput } from '../../errors';

export interface CursorPosition {
  timeNanos: bigint;
  rowId: bigint;
}

const SIGNATURE_BYTES = 12;

function sign(key: string | Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
}

/** `<time base36>-<rowId base36>-<signature>`; base36 keeps it short and URL-safe. */
export function encodeCursor(position: CursorPosition, key: string | Buffer): string {
  const time = position.timeNanos < 0n ? `n${(-position.timeNanos).toString(36)}` : position.timeNanos.toString(36);
  const payload = `${time}-${position.rowId.toString(36)}`;
  return `${payload}-${sign(key, payload).toString('base64url')}`;
}

export function decodeCursor(cursor: string, key: string | Buffer): CursorPosition {
  const reject = () => invalidInput('invalid cursor: it was not issued by this server for this query', { cursor });
  const match = /^(n?[0-9a-z]{1,14})-([0-9a-z]{1,14})-([A-Za-z0-9_-]{16})$/.exec(cursor);
  if (!match) throw reject();
  const [, time, rowId, signature] = match as unknown as [string, string, string, string];
  const expected = sign(key, `${time}-${rowId}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw reject();
  const parse36 = (text: string) => [...text].reduce((value, digit) => value * 36n + BigInt(parseInt(digit, 36)), 0n);
  const timeNanos = time.startsWith('n') ? -parse36(time.slice(1)) : parse36(time);
  return { timeNanos, rowId: parse36(rowId) };
}
