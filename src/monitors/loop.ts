// A background loop of rounds: each round returns the instant of the next one on the monitors'
// clock; `wake()` runs the next round at once (or right after the current one). A round also
// comes after `maxSleepMs` of real time at most, whatever the clock says: leases and changes
// made by other instances follow the wall clock. Work a round starts and does not wait for (a
// monitor run, a delivery) is tracked by key: when it ends the next round runs at once, and
// `stop()` waits for it as for the round in progress. Waits never keep the process alive.
// `idle()` tells whether the loop only waits for a time still to come.
import type { Clock } from './clock';

export class RoundLoop {
  private cancelWait: (() => void) | undefined;
  /** The instant the loop waits for, while it waits. */
  private waitingUntil: number | undefined;
  private current: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;
  private readonly work = new Map<string, Promise<void>>();

  constructor(
    /** Does one round's work and returns when the next round is due (epoch milliseconds). */
    private readonly round: () => Promise<number>,
    private readonly onError: (error: unknown) => void,
    private readonly maxSleepMs: number,
    private readonly clock: Clock,
  ) {}

  start(): void {
    this.stopped = false;
    this.waitUntil(this.clock.now());
  }

  wake(): void {
    if (this.stopped) return;
    if (this.current) this.wakeRequested = true;
    else this.waitUntil(this.clock.now());
  }

  /** Keeps `task`, started by a round, under `key` until it ends; then runs the next round. */
  track(key: string, task: Promise<void>): void {
    this.work.set(
      key,
      task.finally(() => {
        this.work.delete(key);
        this.wake(); // more may be due, and before the current wait ends
      }),
    );
  }

  /** Keys of the tracked work still under way. */
  working(): string[] {
    return [...this.work.keys()];
  }

  /** True while the loop waits for an instant still to come: no round or tracked work under way, none asked for. */
  idle(): boolean {
    return !this.current && !this.wakeRequested && this.work.size === 0 && this.waitingUntil !== undefined && this.waitingUntil > this.clock.now();
  }

  private waitUntil(instant: number): void {
    this.cancelWait?.();
    this.waitingUntil = instant;
    const fire = () => {
      this.cancelWait?.();
      this.cancelWait = undefined;
      this.waitingUntil = undefined;
      this.current = this.runRound().finally(() => (this.current = undefined));
    };
    const cancelClockWait = this.clock.at(instant, fire);
    const poll = setTimeout(fire, this.maxSleepMs);
    poll.unref();
    this.cancelWait = () => {
      cancelClockWait();
      clearTimeout(poll);
    };
  }

  private async runRound(): Promise<void> {
    if (this.stopped) return;
    let next: number | undefined;
    try {
      next = await this.round();
    } catch (error) {
      this.onError(error);
    }
    if (this.stopped) return;
    const now = this.clock.now();
    let instant = Math.max(now, next ?? now + this.maxSleepMs);
    if (this.wakeRequested) {
      this.wakeRequested = false;
      instant = now;
    }
    this.waitUntil(instant);
  }

  /** Stops running rounds and waits for the one in progress and the tracked work. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelWait?.();
    this.cancelWait = undefined;
    this.waitingUntil = undefined;
    await this.current;
    await Promise.allSettled([...this.work.values()]);
  }
}
