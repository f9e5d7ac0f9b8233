// The measure QUERY_MAX_RESULT_BYTES is counted in, shared by every store so a result is
// refused at the same size whichever engine computed it.
import { limitExceeded } from '../errors';

/** Bytes a row's values take in memory, roughly: strings by length, anything else 8. */
export function rowBytes(row: readonly unknown[]): number {
  let bytes = 0;
  for (const value of row) bytes += typeof value === 'string' ? value.length + 8 : 8;
  return bytes;
}

/** The error for a result past `maxResultBytes`. */
export function resultTooLarge(maxResultBytes: number) {
  return limitExceeded(`the result is larger than ${maxResultBytes} bytes (QUERY_MAX_RESULT_BYTES): add a limit, project fewer fields or aggregate`);
}
