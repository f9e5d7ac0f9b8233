// One dataset seen through one filter, shared by every subscriber asking for the same: after
// ingest signals new events, it waits a moment for more (coalescing bursts of requests), then
// reads the newest of what was stored after the last event it read (as many as a subscriber may
// hold), in `_rowId` order, and hands that one batch to its subscribers with how many they were
// due but will not get. When this server writes every event of the dataset (an embedded store),
// ingest's signals say which ids each write took, so a tail without a filter knows what is new
// without asking and reads exactly the newest events, and a filtered one needs no count when a
// read brings everything written; otherwise (and when other instances write too: a shared
// ClickHouse) a tail counts first and then reads only the newest. So a firehose costs a tail one
// or two small queries per read interval, whatever its rate. It reads nothing while nobody listens, and never more than one read at a time.
import type { Logger } from 'pino';
import { DomainError } from '../errors';
import type { WrittenRows } from '../ingest/dataset-events';
import { countAbove, type Subscriber, type TailBatch } from './subscriber';

/** The dataset a tail reads, as resolved when someone subscribed. */
export interface TailDataset {
  id: string;
  name: string;
  orgId: string;
}

/** What a tail learns of new events before reading them. */
export interface TailSurvey {
  /** The highest `_rowId` stored in the dataset now (whether it matches the filter or not). */
  latest: bigint;
  /** For each starting point asked: how many events after it (and up to `latest`) match the filter. */
  counts: number[];
}

/** Where tails read events (the APL engine over the event store, see query-source.ts). */
export interface TailSource {
  /** The highest `_rowId` stored in the dataset now (0 when it holds none). */
  latestRowId(dataset: TailDataset): Promise<bigint>;
  /**
   * The highest `_rowId` stored now (or `upTo` when given), and how many events match the filter
   * after `after` and after each of `from` (points later than `after`) up to it.
   */
  survey(dataset: TailDataset, filter: string | undefined, after: bigint, from: readonly bigint[], upTo?: bigint): Promise<TailSurvey>;
  /**
   * The newest `limit` events with `after < _rowId <= upTo` that match the filter, rising by
   * `_rowId`.
   */
  read(dataset: TailDataset, filter: string | undefined, after: bigint, upTo: bigint, limit: number): Promise<TailBatch>;
}

export interface TailTiming {
  /** How long a tail waits after a signal before reading, gathering the signals that follow. */
  coalesceMs: number;
  /**
   * The least time between the starts of two reads: a tail of a busy dataset reads at this pace,
   * the pace at which its subscribers are sent messages, whatever the rate of ingest.
   */
  readIntervalMs: number;
  /**
   * Events one read returns at most: the newest ones; older ones are counted as skipped without
   * being read (no subscriber holds more than this, see heldLimit, so none would send them).
   */
  readLimit: number;
  /** How long a tail waits before reading again after a read failed. */
  retryMs: number;
  /**
   * True when every write of the dataset goes through this server and is signalled with its ids
   * (an embedded store); false when other instances write the same store.
   */
  hearsEveryWrite: boolean;
}

/** What one read found new: its newest events, how many there were, and how many after a point. */
interface NewEvents {
  batch: TailBatch | undefined;
  /** Events after the cursor that match the filter. */
  total: number;
  /** How many of them lie after `start`, for a subscriber that started later than the cursor. */
  dueAfter(start: bigint): number;
}

export class Tail {
  readonly subscribers = new Set<Subscriber>();
  /** The `_rowId` after which the next read starts; unknown until the first subscriber started. */
  private cursor: bigint | undefined;
  private hasRead = false;
  private signalled = false;
  private reading = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** When the last read began (performance.now()). */
  private lastReadAt = -Infinity;
  /** The writes signalled since the last read, oldest first (when the tail hears every write). */
  private written: WrittenRows[] = [];

  constructor(
    readonly dataset: TailDataset,
    readonly filter: string | undefined,
    private readonly source: TailSource,
    private readonly timing: TailTiming,
    private readonly logger?: Logger,
  ) {}

  /**
   * A subscriber started after `rowId`. The first fixes where the tail starts; while it has not
   * read yet, a later one that started earlier moves the start back so it misses nothing.
   */
  startAt(rowId: bigint): void {
    if (this.cursor === undefined || (!this.hasRead && rowId < this.cursor)) this.cursor = rowId;
    if (this.signalled) this.schedule(this.timing.coalesceMs);
  }

  /** New events were stored in the dataset. Synchronous and cheap: it only sets a timer. */
  signal(written?: WrittenRows): void {
    if (written && this.timing.hearsEveryWrite) this.written.push(written);
    this.signalled = true;
    this.schedule(this.timing.coalesceMs);
  }

  /** Stops reading for good (the last subscriber left, or the server closes). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.reading || this.stopped || this.cursor === undefined) return;
    const paced = Math.max(delayMs, this.lastReadAt + this.timing.readIntervalMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.readNew();
    }, paced);
    this.timer.unref?.();
  }

  private async readNew(): Promise<void> {
    if (this.stopped || this.subscribers.size === 0) return;
    this.reading = true;
    this.lastReadAt = performance.now();
    let retry = false;
    try {
      this.signalled = false;
      await this.readToLatest();
    } catch (error) {
      retry = this.readFailed(error);
    } finally {
      this.reading = false;
    }
    // Signals that came during the read wait their turn: at most one read per read interval.
    if (retry) {
      this.signalled = true;
      this.schedule(this.timing.retryMs);
    } else if (this.signalled) this.schedule(this.timing.coalesceMs);
  }

  /**
   * Reads what was stored since the last read, up to the newest write it knows of: every event at
   * or below that id is committed (a dataset's writes are serialized and their ids rise), so the
   * tail moves past events the filter left out. Past `readLimit` events it reads only the newest
   * and tells each subscriber how many of those it was due were skipped.
   */
  private async readToLatest(): Promise<void> {
    const after = this.cursor!;
    // A subscriber that started after the cursor is due only the events after its start.
    const starts = new Set<bigint>();
    for (const subscriber of this.subscribers) {
      const start = subscriber.startedAfter;
      if (start !== undefined && start > after) starts.add(start);
    }
    const from = [...starts];
    let latest: bigint;
    let found: NewEvents;
    if (this.timing.hearsEveryWrite) {
      const written = this.written.splice(0).filter((write) => write.lastRowId > after);
      latest = written.at(-1)?.lastRowId ?? after;
      const rows = written.reduce((sum, write) => sum + write.count, 0);
      if (latest === after) found = { batch: undefined, total: 0, dueAfter: () => 0 };
      else if (this.filter === undefined) found = await this.readWritten(after, written);
      else if (rows <= this.timing.readLimit) found = await this.readFew(after, latest);
      else found = await this.surveyAndRead(after, from, latest);
    } else {
      const surveyed = await this.surveyAndRead(after, from);
      latest = surveyed.latest;
      found = surveyed;
    }
    if (this.stopped) return;
    this.hasRead = true;
    if (latest > after) this.cursor = latest;
    const { batch, total } = found;
    if (!batch || batch.ids.length === 0) return;
    const unread = total - batch.ids.length;
    for (const subscriber of this.subscribers) {
      if (unread > 0) {
        const start = subscriber.startedAfter;
        if (start !== undefined) {
          // One that started while this read ran was not counted for: nothing is reported to it.
          const due = start <= after ? total : from.includes(start) ? found.dueAfter(start) : 0;
          subscriber.skip(Math.max(0, due - countAbove(batch.ids, start)));
        }
      }
      subscriber.offer(batch);
    }
  }

  /**
   * Without a filter every event written is due, so the signalled writes tell how many there are
   * and where the newest `readLimit` of them begin: one read of exactly those. (A subscriber's
   * start is the highest id at some moment, always the end of a write, never inside one.)
   */
  private async readWritten(after: bigint, written: readonly WrittenRows[]): Promise<NewEvents> {
    const limit = this.timing.readLimit;
    const total = written.reduce((sum, write) => sum + write.count, 0);
    const dueAfter = (start: bigint) => written.reduce((sum, write) => (write.firstRowId > start ? sum + write.count : sum), 0);
    let from = after;
    let newest = 0;
    for (let i = written.length - 1; i >= 0 && newest < limit; i--) {
      newest += written[i]!.count;
      if (newest >= limit) from = written[i]!.firstRowId - 1n;
    }
    const latest = written.at(-1)!.lastRowId;
    return { batch: await this.source.read(this.dataset, undefined, from > after ? from : after, latest, limit), total, dueAfter };
  }

  /** No more events were written than a read brings: one read of them all, nothing to count. */
  private async readFew(after: bigint, latest: bigint): Promise<NewEvents> {
    const batch = await this.source.read(this.dataset, this.filter, after, latest, this.timing.readLimit);
    return { batch, total: batch.ids.length, dueAfter: (start) => countAbove(batch.ids, start) };
  }

  /**
   * Counts what matches first (a scan of the ids and the filter's fields only), then reads the
   * newest of it: reading a large range whole would fetch and sort every field of every match.
   */
  private async surveyAndRead(after: bigint, from: readonly bigint[], upTo?: bigint): Promise<NewEvents & { latest: bigint }> {
    const survey = await this.source.survey(this.dataset, this.filter, after, from, upTo);
    const total = survey.counts[0] ?? 0;
    const dueAfter = (start: bigint) => {
      const asked = from.indexOf(start);
      return asked >= 0 ? survey.counts[1 + asked]! : 0;
    };
    const batch = total === 0 || this.stopped ? undefined : await this.readNewest(after, survey.latest, total);
    return { batch, total, dueAfter, latest: survey.latest };
  }

  /**
   * The newest `readLimit` of the `total` events in (after, latest]. The engine sorts every row
   * of the range it is given, so when only part of a large range is wanted, the tail first asks
   * for the stretch of ids just below `latest` where that many events should lie (as dense as
   * the range is on average, with a margin); if fewer turn up there, it reads the whole range.
   */
  private async readNewest(after: bigint, latest: bigint, total: number): Promise<TailBatch> {
    const limit = this.timing.readLimit;
    if (total > limit) {
      const stretch = BigInt(Math.ceil((Number(latest - after) * limit * 1.25) / total)) + 1n;
      if (latest - stretch > after) {
        const newest = await this.source.read(this.dataset, this.filter, latest - stretch, latest, limit);
        if (newest.ids.length === limit || this.stopped) return newest;
      }
    }
    return this.source.read(this.dataset, this.filter, after, latest, limit);
  }

  /** A dataset gone or a filter that no longer binds ends the streams; anything else is retried. */
  private readFailed(error: unknown): boolean {
    if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'invalid_input' || error.kind === 'forbidden')) {
      for (const subscriber of [...this.subscribers]) subscriber.fail(error);
      return false;
    }
    this.logger?.warn({ err: error, dataset: this.dataset.name }, 'live tail could not read new events; retrying');
    return true;
  }
}
