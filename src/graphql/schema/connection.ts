// Relay connections over a sorted in-memory list whose cursors hold the item's sort key, not its
// offset: a cursor stays meaningful after the list changes (a sync adding or removing models),
// and `after`/`before` find their place by binary search.
import { invalidInput } from '../../errors';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

export interface CursorCodec<T, K> {
  /** A name for error messages and to tell one connection's cursors from another's. */
  kind: string;
  keyOf(item: T): K;
  /** Orders an item against a key, as the list is sorted. */
  compare(item: T, key: K): number;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 10_000;

export function encodeCursor(kind: string, key: unknown): string {
  return Buffer.from(JSON.stringify([kind, key])).toString('base64url');
}

function decodeCursor<K>(kind: string, cursor: string): K {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(decoded) && decoded.length === 2 && decoded[0] === kind) return decoded[1] as K;
  } catch {
    // reported below
  }
  throw invalidInput(`invalid ${kind} cursor: ${cursor}`);
}

/** Index of the first item that sorts after `key` (or at or after it, when `inclusive`). */
function boundary<T, K>(items: readonly T[], key: K, codec: CursorCodec<T, K>, inclusive: boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = codec.compare(items[middle]!, key);
    if (order > 0 || (inclusive && order === 0)) high = middle;
    else low = middle + 1;
  }
  return low;
}

function pageSize(name: string, value: number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw invalidInput(`${name} must be a non-negative integer`);
  if (value > MAX_PAGE_SIZE) throw invalidInput(`${name} must be at most ${MAX_PAGE_SIZE}`);
  return value;
}

export function connectionFrom<T, K>(items: readonly T[], args: ConnectionArgs, codec: CursorCodec<T, K>): Connection<T> {
  const first = pageSize('first', args.first);
  const last = pageSize('last', args.last);
  let start = args.after ? boundary(items, decodeCursor<K>(codec.kind, args.after), codec, false) : 0;
  let end = args.before ? boundary(items, decodeCursor<K>(codec.kind, args.before), codec, true) : items.length;
  end = Math.max(start, end);
  if (first !== undefined) end = Math.min(end, start + first);
  if (last !== undefined) start = Math.max(start, end - last);
  if (first === undefined && last === undefined) end = Math.min(end, start + DEFAULT_PAGE_SIZE);
  const edges = items.slice(start, end).map((node) => ({ cursor: encodeCursor(codec.kind, codec.keyOf(node)), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: items.length,
  };
}
