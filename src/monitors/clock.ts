// The time monitor work acts on. The scheduler, the runner and the delivery worker read the time
// and wait for it through a Clock rather than through Date.now() and setTimeout, so the whole of
// monitor time can be replaced at once: the server uses the system clock (system-clock.ts); a
// clock that moves only when told lets a run, a retry or a day of schedule happen without waiting.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Calls `fire` once the clock reaches `instant` (epoch milliseconds), at once if it already
   * has; returns a function that cancels the call. A wait never keeps the process alive.
   */
  at(instant: number, fire: () => void): () => void;
}
