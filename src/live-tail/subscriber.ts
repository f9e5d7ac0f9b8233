// One open live tail: the events waiting for one client, and the async iterator the GraphQL
// subscription reads. A client is sent at most `maxEventsPerSecond` events, in at most one
// message per `messageIntervalMs`, and is held at most a couple of seconds' worth (and never more
// than `queueLimit`): what arrives faster, or while the client reads slowly, drops the oldest
// events and the next message says how many. The events are the tail's own objects, shared by
// every subscriber of the tail, so a subscriber costs per message, not per event. Ending is
// immediate (`return()` resolves a pending read at once), so a client that goes away releases
// everything.
import type { DomainError } from '../errors';
import { DroppingQueue } from './dropping-queue';

/** One stored event, in the shape of the legacy query's matches. */
export interface LiveEvent {
  time: string;
  sysTime: string;
  rowId: string;
  data: Record<string, unknown>;
}

/** What one read of a tail returned, rising by `_rowId`: shared by the tail's subscribers, never changed. */
export interface TailBatch {
  events: readonly LiveEvent[];
  /** The `_rowId` of each event, as numbers, for ordering and bounds. */
  ids: readonly bigint[];
}

/** What a subscriber receives: the events read since the previous message. */
export interface LiveMessage {
  events: readonly LiveEvent[];
  /** Events left out since the previous message because the subscriber fell behind. */
  skipped: number;
}

/** The last message of a stream ended by an error (access withdrawn, dataset gone). */
export interface LiveFailure {
  failure: DomainError;
}

export type LiveItem = LiveMessage | LiveFailure;

export interface SubscriberOptions {
  /** Events held for the client at most. */
  queueLimit: number;
  /** Events per message at most. */
  messageLimit: number;
  /**
   * Events sent per second at most (a burst of one second's worth is allowed): what arrives
   * faster counts as skipped, so the work of serving a firehose to many clients stays bounded.
   */
  maxEventsPerSecond: number;
  /** The least time between two messages to one client. */
  messageIntervalMs: number;
}

/** Seconds of its pace a client may fall behind before the oldest events it was due are skipped. */
const SECONDS_HELD = 2;

/** How many events a subscriber holds at most with these options. */
export const heldLimit = (options: SubscriberOptions) => Math.max(1, Math.min(options.queueLimit, SECONDS_HELD * options.maxEventsPerSecond));

/**
 * Events one subscriber can be sent from one read of its tail: a message's worth at its pace
 * (tails read once per message interval), never more than it holds.
 */
export const sentBetweenReads = (options: SubscriberOptions) =>
  Math.min(heldLimit(options), options.messageLimit, Math.max(1, Math.ceil((options.maxEventsPerSecond * options.messageIntervalMs) / 1000)));

/** The index of the first id above `after` in rising `ids`. */
function firstAfter(ids: readonly bigint[], after: bigint): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many of rising `ids` are above `after`. */
export const countAbove = (ids: readonly bigint[], after: bigint) => ids.length - firstAfter(ids, after);

export class Subscriber implements AsyncIterableIterator<LiveItem> {
  private readonly queue: DroppingQueue<LiveEvent>;
  /** Only events after this `_rowId` are for this subscriber; unknown until it has started. */
  private after: bigint | undefined;
  private failure: DomainError | undefined;
  private ended = false;
  private finished = false;
  private wakeReader: (() => void) | undefined;
  /** Set while the reader waits for its pace rather than for events: new events need not wake it. */
  private pacing: NodeJS.Timeout | undefined;
  /** Events that may be sent now (refilled at `maxEventsPerSecond`, up to one second's worth). */
  private allowance: number;
  private refilledAt = performance.now();
  /** No message before this moment (performance.now()). */
  private nextMessageAt = 0;

  constructor(
    /** Who subscribed (the token), for the per-token cap. */
    readonly owner: string,
    private readonly options: SubscriberOptions,
    /** Runs once when the stream ends, whoever ends it. */
    private readonly onFinish: (subscriber: Subscriber) => void,
  ) {
    this.queue = new DroppingQueue(heldLimit(options));
    this.allowance = options.maxEventsPerSecond;
  }

  /** Events held now (for tests and the bench). */
  get held(): number {
    return this.queue.size;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Starts the stream after `rowId`: events at or before it were stored before subscribing. */
  begin(rowId: bigint): void {
    this.after = rowId;
    this.queue.discardWhile((event) => BigInt(event.rowId) <= rowId);
    this.wake();
  }

  /** The `_rowId` after which this subscriber's events start; undefined until it has started. */
  get startedAfter(): bigint | undefined {
    return this.after;
  }

  /** Events it was due were left out (the tail read only the newest): the next message says so. */
  skip(count: number): void {
    if (!this.ended && count > 0) this.queue.countDropped(count);
  }

  /** Takes a tail's new events; never waits, never copies them. */
  offer(batch: TailBatch): void {
    if (this.ended) return;
    const after = this.after;
    // Before starting every event is held (begin cuts them); after it, only the later ones.
    const start = after === undefined || (batch.ids.length > 0 && batch.ids[0]! > after) ? 0 : firstAfter(batch.ids, after);
    this.queue.push(batch.events, start);
    if (after !== undefined && this.queue.size > 0 && !this.pacing) this.wake();
  }

  /** Ends the stream with an error message. */
  fail(error: DomainError): void {
    if (this.ended) return;
    this.failure = error;
    this.end();
  }

  /** Ends the stream; a read in progress completes at once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.pacing);
    this.pacing = undefined;
    this.wake();
    this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinish(this);
  }

  private wake(): void {
    const wake = this.wakeReader;
    this.wakeReader = undefined;
    wake?.();
  }

  async next(): Promise<IteratorResult<LiveItem>> {
    for (;;) {
      if (this.failure) {
        const failure = this.failure;
        this.failure = undefined;
        return { done: false, value: { failure } };
      }
      if (this.ended) {
        this.queue.take(this.queue.size);
        return { done: true, value: undefined };
      }
      let waitMs: number | undefined;
      if (this.after !== undefined && this.queue.size > 0) {
        const now = performance.now();
        const allowed = Math.floor(this.refill(now));
        if (allowed >= 1 && now >= this.nextMessageAt) {
          const { items, dropped } = this.queue.take(Math.min(this.options.messageLimit, allowed));
          this.allowance -= items.length;
          this.nextMessageAt = now + this.options.messageIntervalMs;
          return { done: false, value: { events: items, skipped: dropped } };
        }
        const paced = Math.ceil(((1 - this.allowance) * 1000) / this.options.maxEventsPerSecond);
        waitMs = Math.max(1, paced, Math.ceil(this.nextMessageAt - now));
      }
      await new Promise<void>((resolve) => {
        this.wakeReader = resolve;
        if (waitMs === undefined) return;
        clearTimeout(this.pacing);
        this.pacing = setTimeout(() => {
          this.pacing = undefined;
          this.wake();
        }, waitMs);
        this.pacing.unref();
      });
    }
  }

  private refill(now: number): number {
    const rate = this.options.maxEventsPerSecond;
    this.allowance = Math.min(rate, this.allowance + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    return this.allowance;
  }

  async return(): Promise<IteratorResult<LiveItem>> {
    this.failure = undefined;
    this.end();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
