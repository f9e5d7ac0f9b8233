// A monitor clock for tests that moves only when told: `advance` jumps forward and fires every
// wait that fell due, so a test goes through minutes of monitor schedule in milliseconds. Servers
// take it through `startTestServer(env, { monitorClock })`.
import type { Clock } from '../../../src/monitors/clock';

interface Wait {
  instant: number;
  fire: () => void;
}

export const MINUTE = 60_000;

export class VirtualClock implements Clock {
  private current: number;
  private readonly waits = new Set<Wait>();
  private releaseQueued = false;

  /** Starts at `start`, by default the real time now. */
  constructor(start = Date.now()) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  at(instant: number, fire: () => void): () => void {
    const wait = { instant, fire };
    this.waits.add(wait);
    if (instant <= this.current) this.releaseDue();
    return () => this.waits.delete(wait);
  }

  /** Moves the time `ms` forward; what waited for an instant up to the new time runs soon after. */
  advance(ms: number): void {
    this.current += ms;
    this.releaseDue();
  }

  /** Fires due waits on the next turn of the event loop, never inside the caller. */
  private releaseDue(): void {
    if (this.releaseQueued) return;
    this.releaseQueued = true;
    setImmediate(() => {
      this.releaseQueued = false;
      for (const wait of [...this.waits]) {
        if (wait.instant > this.current) continue;
        this.waits.delete(wait);
        wait.fire();
      }
    });
  }
}
