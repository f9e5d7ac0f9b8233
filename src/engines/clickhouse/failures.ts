// What a ClickHouse failure means for the caller, decided in one place for both executors. A
// ClickHouse that cannot take the work now (out of memory or disk, too many queries or parts,
// replicas or Keeper unreachable, read-only) or that does not answer at all is the store being
// unavailable: a 503 the caller may retry (shippers do), never a 500 that reads as a bug. What the
// data met in a query (a value that does not parse, a pattern that does not compile) is the
// caller's, decided by the APL runner (./apl-runner.ts); anything else
// is left as it is, because it means the SQL the store wrote is wrong.
import { unavailable } from '../../errors';
import type { ClickHouseError } from './executor';

/** Codes of a ClickHouse that cannot do the work now, by ClickHouse's names (errorCodeToName). */
const UNAVAILABLE_CODES: Readonly<Record<number, string>> = {
  81: 'UNKNOWN_DATABASE',
  164: 'READONLY',
  173: 'CANNOT_ALLOCATE_MEMORY',
  202: 'TOO_MANY_SIMULTANEOUS_QUERIES',
  203: 'NO_FREE_CONNECTION',
  209: 'SOCKET_TIMEOUT',
  210: 'NETWORK_ERROR',
  225: 'NO_ZOOKEEPER',
  236: 'ABORTED',
  241: 'MEMORY_LIMIT_EXCEEDED',
  242: 'TABLE_IS_READ_ONLY',
  243: 'NOT_ENOUGH_SPACE',
  252: 'TOO_MANY_PARTS',
  279: 'ALL_CONNECTION_TRIES_FAILED',
  285: 'TOO_FEW_LIVE_REPLICAS',
  286: 'UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE',
  319: 'UNKNOWN_STATUS_OF_INSERT',
  425: 'SYSTEM_ERROR',
  439: 'CANNOT_SCHEDULE_TASK',
  497: 'ACCESS_DENIED',
  516: 'AUTHENTICATION_FAILED',
  999: 'KEEPER_EXCEPTION',
};

/** Node's codes for a connection that could not be made or was lost. */
const TRANSPORT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** The first line of a ClickHouse message, without its code prefix and version suffix. */
export function clickhouseMessage(message: string): string {
  return message
    .replace(/^Code: \d+\. DB::Exception: /, '')
    .replace(/\s*\(version [^)]*\)\s*$/, '')
    .split('\n')[0]!
    .replace(/: While executing .*$/, '');
}

/** An error ClickHouse answered with: unavailable for the codes above, else as it is. */
export function engineFailure(error: ClickHouseError): Error {
  const name = UNAVAILABLE_CODES[error.code];
  if (name === undefined) return error;
  return unavailable(`the event store (ClickHouse) cannot take the request now (${name}): ${clickhouseMessage(error.message)}`);
}

/** A failure to reach ClickHouse at all (refused, reset, timed out): unavailable; else as it is. */
export function transportFailure(error: unknown): unknown {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const text = error instanceof Error ? error.message : '';
  if ((typeof code === 'string' && TRANSPORT_CODES.has(code)) || /^(socket hang up|Timeout error)/i.test(text)) {
    return unavailable(`the event store (ClickHouse) does not answer: ${typeof code === 'string' ? code : text}`);
  }
  return error;
}
