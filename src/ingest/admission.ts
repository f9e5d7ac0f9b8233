// Shares a bounded resource (ingest turns, bytes of buffered bodies) among callers fairly:
// whoever holds the least of it among those waiting goes next, so one token sending many
// requests, or slow ones, cannot keep every other token waiting. Grants are released
// explicitly; a waiter whose caller goes away (its signal aborts) leaves the line.

export interface Grant {
  /** How much is held. */
  readonly amount: number;
  /** Takes `extra` more at once if it is free (never waits); false when it is not. */
  grow(extra: number): boolean;
  /** Gives everything back; later calls do nothing. */
  release(): void;
}

interface Waiter {
  key: string;
  amount: number;
  grant: (grant: Grant) => void;
}

export class FairAdmission {
  private available: number;
  private readonly held = new Map<string, number>();
  /** Waiters per key; the map's order is the order keys joined the line. */
  private readonly lines = new Map<string, Waiter[]>();

  constructor(readonly capacity: number) {
    this.available = capacity;
  }

  /** Amount free right now (for tests and metrics). */
  get free(): number {
    return this.available;
  }

  /**
   * Waits for `amount` (at most the capacity; more is granted only when nothing else is held)
   * on behalf of `key`. Rejects with the signal's reason if it aborts first.
   */
  acquire(key: string, amount = 1, signal?: AbortSignal): Promise<Grant> {
    signal?.throwIfAborted();
    return new Promise<Grant>((resolve, reject) => {
      const waiter: Waiter = { key, amount, grant: resolve };
      const line = this.lines.get(key);
      if (line) line.push(waiter);
      else this.lines.set(key, [waiter]);
      if (signal) {
        const leave = () => {
          const waiting = this.lines.get(key);
          const at = waiting?.indexOf(waiter) ?? -1;
          if (at < 0) return; // already granted
          waiting!.splice(at, 1);
          if (waiting!.length === 0) this.lines.delete(key);
          reject(signal.reason);
          this.dispatch();
        };
        signal.addEventListener('abort', leave, { once: true });
        waiter.grant = (grant) => {
          signal.removeEventListener('abort', leave);
          resolve(grant);
        };
      }
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.lines.size > 0) {
      // The key holding the least goes first; among equals, the one that joined the line first.
      let chosen: string | undefined;
      for (const key of this.lines.keys()) {
        if (chosen === undefined || (this.held.get(key) ?? 0) < (this.held.get(chosen) ?? 0)) chosen = key;
      }
      const line = this.lines.get(chosen!)!;
      const waiter = line[0]!;
      const alone = this.available === this.capacity;
      if (waiter.amount > this.available && !alone) return;
      line.shift();
      // Its next request queues behind the keys already waiting.
      this.lines.delete(chosen!);
      if (line.length > 0) this.lines.set(chosen!, line);
      waiter.grant(this.take(waiter.key, waiter.amount));
    }
  }

  private take(key: string, amount: number): Grant {
    let holding = amount;
    this.available -= amount;
    this.held.set(key, (this.held.get(key) ?? 0) + amount);
    let released = false;
    return {
      get amount() {
        return holding;
      },
      grow: (extra) => {
        if (released || extra > this.available) return false;
        this.available -= extra;
        this.held.set(key, (this.held.get(key) ?? 0) + extra);
        holding += extra;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.available += holding;
        const left = (this.held.get(key) ?? 0) - holding;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
        this.dispatch();
      },
    };
  }
}
