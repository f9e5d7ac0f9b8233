// The process's live tails: where ingest signals stored events (`signal`, synchronous and O(1)
// per tail of the dataset) and where subscriptions open and close. Subscribers of the same
// dataset and filter share one tail; caps bound subscriptions per token and per server; access is
// checked when subscribing and again periodically, and a subscriber whose access went away gets
// an error and its stream ends.
import type { Logger } from 'pino';
import { DomainError, limitExceeded } from '../errors';
import type { WrittenRows } from '../ingest/dataset-events';
import { sentBetweenReads, Subscriber, type SubscriberOptions } from './subscriber';
import { Tail, type TailDataset, type TailSource, type TailTiming } from './tail';

export interface LiveTailSettings extends Omit<TailTiming, 'readIntervalMs'>, SubscriberOptions {
  /** Open subscriptions one token may hold. */
  maxPerToken: number;
  /** Open subscriptions on this server. */
  maxSubscriptions: number;
  /** How often each subscriber's access is checked again. */
  accessCheckMs: number;
}

/** What subscribing needs: who asks, for what, and how to ask again later. */
export interface SubscribeRequest {
  /** The token (or session) subscribing, for the per-token cap. */
  owner: string;
  /** The dataset, resolved and checked for the caller's query rights (see authorize). */
  dataset: TailDataset;
  filter: string | undefined;
  /**
   * Checks again that the caller may still query the dataset (credentials still valid, rights
   * still held, the same dataset still there); throws the domain error that ends the stream.
   */
  reauthorize: () => Promise<void>;
}

interface Subscription {
  subscriber: Subscriber;
  tail: Tail;
  reauthorize: () => Promise<void>;
}

export class LiveTailHub {
  /** Tails by dataset id, then by filter. */
  private readonly tails = new Map<string, Map<string, Tail>>();
  private readonly subscriptions = new Map<Subscriber, Subscription>();
  private readonly perOwner = new Map<string, number>();
  private readonly checker: NodeJS.Timeout;
  private checking = false;
  private closed = false;

  constructor(
    private readonly source: TailSource,
    private readonly settings: LiveTailSettings,
    private readonly logger?: Logger,
  ) {
    this.checker = setInterval(() => void this.checkAccess(), settings.accessCheckMs);
    this.checker.unref();
  }

  /** Open subscriptions. */
  get size(): number {
    return this.subscriptions.size;
  }

  /** Tails reading now (subscribers with the same dataset and filter share one). */
  get tailCount(): number {
    let count = 0;
    for (const byFilter of this.tails.values()) count += byFilter.size;
    return count;
  }

  /** Events held for subscribers now, across the server. */
  get heldEvents(): number {
    let held = 0;
    for (const subscriber of this.subscriptions.keys()) held += subscriber.held;
    return held;
  }

  /** Events were stored in the dataset: wakes its tails. Never waits, never throws. */
  signal(datasetId: string, written?: WrittenRows): void {
    const byFilter = this.tails.get(datasetId);
    if (!byFilter) return;
    for (const tail of byFilter.values()) tail.signal(written);
  }

  /**
   * Opens a subscription: events stored in the dataset from now on, matching the filter. Refused
   * past the caps (LIMIT_EXCEEDED, naming the limit) and when the server is closing.
   */
  async subscribe(request: SubscribeRequest): Promise<Subscriber> {
    if (this.closed) throw new DomainError('unavailable', 'the server is shutting down; subscribe again in a moment');
    const { maxPerToken, maxSubscriptions } = this.settings;
    if (this.subscriptions.size >= maxSubscriptions) {
      throw limitExceeded(`this server already serves ${maxSubscriptions} live tails, the most it allows (LIVE_TAIL_MAX_SUBSCRIPTIONS)`);
    }
    const owned = this.perOwner.get(request.owner) ?? 0;
    if (owned >= maxPerToken) {
      throw limitExceeded(`this token already holds ${maxPerToken} live tails, the most one token may (LIVE_TAIL_MAX_PER_TOKEN): close one first`);
    }
    const tail = this.tailFor(request.dataset, request.filter);
    const subscriber = new Subscriber(request.owner, this.settings, (ended) => this.release(ended));
    this.subscriptions.set(subscriber, { subscriber, tail, reauthorize: request.reauthorize });
    this.perOwner.set(request.owner, owned + 1);
    tail.subscribers.add(subscriber);
    // Registered first, then told where "now" is: whatever the tail reads meanwhile is held and
    // cut at that point, so nothing stored after it is missed.
    try {
      const now = await this.source.latestRowId(request.dataset);
      if (subscriber.closed) return subscriber;
      subscriber.begin(now);
      tail.startAt(now);
    } catch (error) {
      subscriber.end();
      throw error;
    }
    return subscriber;
  }

  private tailFor(dataset: TailDataset, filter: string | undefined): Tail {
    let byFilter = this.tails.get(dataset.id);
    if (!byFilter) this.tails.set(dataset.id, (byFilter = new Map()));
    const key = filter ?? '';
    let tail = byFilter.get(key);
    if (!tail) {
      // A read brings no more than a subscriber may send before the next read (older events
      // would only be dropped unsent), and no more often than subscribers are sent messages.
      const timing = { ...this.settings, readLimit: Math.min(this.settings.readLimit, sentBetweenReads(this.settings)), readIntervalMs: this.settings.messageIntervalMs };
      byFilter.set(key, (tail = new Tail(dataset, filter, this.source, timing, this.logger)));
    }
    return tail;
  }

  /** Forgets an ended subscriber; a tail nobody listens to any more stops. */
  private release(subscriber: Subscriber): void {
    const subscription = this.subscriptions.get(subscriber);
    if (!subscription) return;
    this.subscriptions.delete(subscriber);
    const owned = (this.perOwner.get(subscriber.owner) ?? 1) - 1;
    if (owned > 0) this.perOwner.set(subscriber.owner, owned);
    else this.perOwner.delete(subscriber.owner);
    const { tail } = subscription;
    tail.subscribers.delete(subscriber);
    if (tail.subscribers.size > 0) return;
    tail.stop();
    const byFilter = this.tails.get(tail.dataset.id);
    byFilter?.delete(tail.filter ?? '');
    if (byFilter?.size === 0) this.tails.delete(tail.dataset.id);
  }

  /** Checks every subscriber's access again; those refused get the error and end. */
  async checkAccess(): Promise<void> {
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      await Promise.all(
        [...this.subscriptions.values()].map(async ({ subscriber, reauthorize }) => {
          try {
            await reauthorize();
          } catch (error) {
            if (error instanceof DomainError && error.kind !== 'unavailable' && error.kind !== 'timeout') subscriber.fail(error);
            else this.logger?.warn({ err: error }, 'could not check the access of a live tail subscriber; keeping it');
          }
        }),
      );
    } finally {
      this.checking = false;
    }
  }

  /** Ends every stream and stops every tail (server shutdown). */
  close(): void {
    this.closed = true;
    clearInterval(this.checker);
    for (const subscriber of [...this.subscriptions.keys()]) subscriber.end();
  }
}
