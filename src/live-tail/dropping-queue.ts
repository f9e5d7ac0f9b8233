// A first-in first-out queue of at most `capacity` items, filled with whole arrays at a time
// (a tail's reads, shared by every subscriber of the tail) and never copying them: it keeps
// references to runs of them. When full, taking more items drops the oldest ones and counts
// them, so a reader that falls behind costs the server a bounded amount of memory and learns how
// much it missed; filling it costs the same however many items a run holds.
interface Run<T> {
  items: readonly T[];
  /** The first item of `items` still held. */
  start: number;
}

export class DroppingQueue<T> {
  private runs: Run<T>[] = [];
  private count = 0;
  private dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('a queue holds at least one item');
  }

  get size(): number {
    return this.count;
  }

  /** Items dropped since the last `take`. */
  get droppedSinceTake(): number {
    return this.dropped;
  }

  /** Adds `items` from index `start` on (the array is kept, not copied: it must not change). */
  push(items: readonly T[], start = 0): void {
    const added = items.length - start;
    if (added <= 0) return;
    if (added >= this.capacity) {
      // Only the newest `capacity` of them can stay: everything held before is dropped too.
      this.dropped += this.count + added - this.capacity;
      this.runs = [{ items, start: items.length - this.capacity }];
      this.count = this.capacity;
      return;
    }
    this.runs.push({ items, start });
    this.count += added;
    if (this.count > this.capacity) this.dropped += this.removeOldest(this.count - this.capacity);
  }

  /** Counts `n` items as dropped that never entered the queue. */
  countDropped(n: number): void {
    this.dropped += n;
  }

  /** Removes and returns up to `max` of the oldest items, with how many were dropped before them. */
  take(max: number): { items: T[]; dropped: number } {
    const wanted = Math.min(max, this.count);
    let items: T[];
    const first = this.runs[0];
    if (first && first.items.length - first.start >= wanted) {
      items = first.items.slice(first.start, first.start + wanted);
    } else {
      items = [];
      for (const run of this.runs) {
        const end = Math.min(run.items.length, run.start + wanted - items.length);
        for (let i = run.start; i < end; i++) items.push(run.items[i]!);
        if (items.length === wanted) break;
      }
    }
    this.removeOldest(wanted);
    const dropped = this.dropped;
    this.dropped = 0;
    return { items, dropped };
  }

  /** Removes the oldest items while `unwanted` picks them (not counted as dropped). */
  discardWhile(unwanted: (item: T) => boolean): void {
    let n = 0;
    outer: for (const run of this.runs) {
      for (let i = run.start; i < run.items.length; i++, n++) if (!unwanted(run.items[i]!)) break outer;
    }
    this.removeOldest(n);
  }

  /** Forgets the `n` oldest items; returns n. */
  private removeOldest(n: number): number {
    let left = n;
    while (left > 0) {
      const run = this.runs[0]!;
      const held = run.items.length - run.start;
      if (held > left) {
        run.start += left;
        break;
      }
      this.runs.shift();
      left -= held;
    }
    this.count -= n;
    return n;
  }
}
