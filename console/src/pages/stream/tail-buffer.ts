// What the page keeps of a live tail: at most MAX_EVENTS lines of events (the oldest dropped)
// with the server's "skipped" markers between them, and, while paused, the events that arrived
// meanwhile (bounded the same way, counted in full) to show on resume. Batches gather here and
// reach the screen once per frame, so a fast stream costs one render per frame at most.
import type { LiveBatch, LiveEvent } from '../../api/live';
import { type Level, levelOf } from './levels';

export const MAX_EVENTS = 2000;

export type TailLine =
  | { kind: 'event'; key: number; event: LiveEvent; level: Level }
  | { kind: 'skipped'; key: number; count: number };

export interface TailView {
  lines: readonly TailLine[];
  /** Events among the lines. */
  shownEvents: number;
  /** Events received while paused, not shown yet. */
  pendingEvents: number;
  /** Events received since the tail (re)started, shown or not. */
  receivedEvents: number;
}

/** Drops the oldest lines until at most `max` events remain (markers before them go too). */
export function keepNewest(lines: TailLine[], max = MAX_EVENTS): TailLine[] {
  let events = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]!.kind === 'event' && ++events > max) return lines.slice(i + 1);
  }
  return lines;
}

export class TailBuffer {
  private nextKey = 1;
  private incoming: TailLine[] = [];
  private shown: TailLine[] = [];
  private pending: TailLine[] = [];
  private pendingEvents = 0;
  private receivedEvents = 0;
  private paused = false;
  private countedLines: TailLine[] | undefined;
  private shownEvents = 0;

  add(batch: LiveBatch): void {
    if (batch.skipped > 0) this.incoming.push({ kind: 'skipped', key: this.nextKey++, count: batch.skipped });
    for (const event of batch.events) this.incoming.push({ kind: 'event', key: this.nextKey++, event, level: levelOf(event.data) });
    this.receivedEvents += batch.events.length;
    if (this.paused) this.pendingEvents += batch.events.length;
    if (this.incoming.length > MAX_EVENTS * 2) this.incoming = keepNewest(this.incoming);
  }

  /** Moves what arrived since the last flush to the screen (or to the pending lines while paused). */
  flush(): void {
    if (this.incoming.length === 0) return;
    if (this.paused) this.pending = keepNewest(this.pending.concat(this.incoming));
    else this.shown = keepNewest(this.shown.concat(this.incoming));
    this.incoming = [];
  }

  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.flush();
    this.paused = paused;
    if (!paused) {
      this.shown = keepNewest(this.shown.concat(this.pending));
      this.pending = [];
      this.pendingEvents = 0;
    }
  }

  clear(): void {
    this.incoming = [];
    this.shown = [];
    this.pending = [];
    this.pendingEvents = 0;
  }

  reset(): void {
    this.clear();
    this.receivedEvents = 0;
  }

  get hasIncoming(): boolean {
    return this.incoming.length > 0;
  }

  view(): TailView {
    if (this.countedLines !== this.shown) {
      this.countedLines = this.shown;
      this.shownEvents = this.shown.reduce((count, line) => count + (line.kind === 'event' ? 1 : 0), 0);
    }
    return { lines: this.shown, shownEvents: this.shownEvents, pendingEvents: this.pendingEvents, receivedEvents: this.receivedEvents };
  }
}
