// Match monitors notify each matching event once. Each run reads the events of its window;
// events already notified (or dropped by the rate limit) are remembered by their row id with
// their time, and forgotten once older than any window that could return them again, so
// overlapping ranges and restarts never notify an event twice. Notifications are limited to
// 10 per minute and 500 per day for each monitor, as Axiom documents; matches beyond the limit
// are counted and dropped.
import { type QueryResult, resultRows } from '../../apl';
import { daysMs, MINUTE_MS } from '../schedule';

export const MATCHES_PER_MINUTE = 10;
export const MATCHES_PER_DAY = 500;
/** Events read per run at most. */
export const MATCH_QUERY_LIMIT = 1000;

export interface MatchMemory {
  /** Row id → event time (epoch ms) of events already handled. */
  seen: Record<string, number>;
  /** Times (epoch ms) of the notifications sent in the last day. */
  sent: number[];
  /** Matches dropped by the rate limit so far. */
  dropped: number;
}

export interface MatchedEvent {
  rowId: string;
  timeMs: number;
  event: Record<string, unknown>;
}

export function emptyMatchMemory(): MatchMemory {
  return { seen: {}, sent: [], dropped: 0 };
}

/** The result's events, oldest first, as the query shaped them (nulls left out). */
export function matchedEvents(result: QueryResult): MatchedEvent[] {
  const identity = result.events;
  if (!identity) return [];
  const rows = resultRows(result);
  const events = rows.map((row, i) => ({
    rowId: identity.rowId[i]!.toString(),
    timeMs: Number(identity.time[i]! / 1_000_000n),
    timeNanos: identity.time[i]!,
    event: Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)),
  }));
  events.sort((a, b) => (a.timeNanos < b.timeNanos ? -1 : a.timeNanos > b.timeNanos ? 1 : Number(BigInt(a.rowId) - BigInt(b.rowId))));
  return events.map(({ rowId, timeMs, event }) => ({ rowId, timeMs, event }));
}

/**
 * Decides which new events to notify. `windowStartMs` is the start of the current window: events
 * before it can no longer come back, so they are forgotten.
 */
export function selectMatches(
  memory: MatchMemory,
  events: MatchedEvent[],
  options: { now: number; windowStartMs: number },
): { notify: MatchedEvent[]; memory: MatchMemory } {
  const seen: Record<string, number> = {};
  for (const [rowId, time] of Object.entries(memory.seen)) if (time >= options.windowStartMs) seen[rowId] = time;
  const sent = memory.sent.filter((time) => time > options.now - daysMs(1));
  let dropped = memory.dropped;
  const notify: MatchedEvent[] = [];
  for (const event of events) {
    if (seen[event.rowId] !== undefined) continue;
    seen[event.rowId] = event.timeMs;
    const lastMinute = sent.filter((time) => time > options.now - MINUTE_MS).length;
    if (lastMinute >= MATCHES_PER_MINUTE || sent.length >= MATCHES_PER_DAY) {
      dropped++;
      continue;
    }
    sent.push(options.now);
    notify.push(event);
  }
  return { notify, memory: { seen, sent, dropped } };
}
