// At most `slots` holders at once; the others wait in arrival order.
export class Semaphore {
  private readonly waiting: (() => void)[] = [];

  constructor(private slots: number) {}

  async acquire(): Promise<void> {
    if (this.slots > 0) {
      this.slots--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.slots++;
  }

  /** Runs `task` once a slot is free, and frees it after. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
