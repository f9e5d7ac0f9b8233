// A background loop of rounds: each round returns how long to sleep before the next; `wake()`
// runs the next round at once (or right after the current one). The timer never keeps the
// process alive, and `stop()` waits for the round in progress.
export class RoundLoop {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;

  constructor(
    private readonly round: () => Promise<number>,
    private readonly onError: (error: unknown) => void,
    private readonly maxSleepMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.current) this.wakeRequested = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.current = this.runRound().finally(() => (this.current = undefined));
    }, delayMs);
    this.timer.unref();
  }

  private async runRound(): Promise<void> {
    if (this.stopped) return;
    let sleep = this.maxSleepMs;
    try {
      sleep = Math.max(0, Math.min(this.maxSleepMs, await this.round()));
    } catch (error) {
      this.onError(error);
    }
    if (this.stopped) return;
    if (this.wakeRequested) {
      this.wakeRequested = false;
      sleep = 0;
    }
    this.schedule(sleep);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }
}
