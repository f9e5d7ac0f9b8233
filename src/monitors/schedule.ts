// Monitor time. A monitor runs every `intervalMinutes` on a fixed grid: run times are
// `phase + k * interval` on the epoch, where each monitor's phase is a stable offset inside its
// interval derived from its id. Runs therefore never drift (the next run follows from the grid,
// not from when the previous one finished), and many monitors with the same interval spread
// over it instead of all starting on the minute. `secondDelay` shifts the run after the end of
// its query window. A run missed while the server was down runs once, for the latest grid
// point, rather than once per missed point.
//
// How long a minute lasts is configuration (`MONITOR_MINUTE_MS`, 60000): tests shorten it so
// that monitors run every second on the real clock.
import { createHash } from 'node:crypto';

export interface MonitorTiming {
  intervalMinutes: number;
  rangeMinutes: number;
  secondDelay: number;
}

export interface RunWindow {
  /** When the run is due: the window's end plus the delay. */
  dueAt: number;
  /** The query window, epoch milliseconds, both ends inclusive. */
  startMs: number;
  endMs: number;
}

export class MonitorClock {
  constructor(readonly minuteMs: number) {}

  /** Milliseconds of `minutes` monitor minutes. */
  minutes(minutes: number): number {
    return minutes * this.minuteMs;
  }

  /** Milliseconds of `seconds` monitor seconds. */
  seconds(seconds: number): number {
    return (seconds * this.minuteMs) / 60;
  }

  days(days: number): number {
    return this.minutes(days * 1440);
  }

  /** The monitor's offset inside its interval, stable for its id. */
  phase(monitorId: string, intervalMs: number): number {
    const digest = createHash('sha256').update(monitorId).digest();
    return Number(digest.readBigUInt64BE(0) % BigInt(Math.max(1, Math.floor(intervalMs))));
  }

  /** The latest grid point at or before `at`. */
  private gridPointAtOrBefore(monitorId: string, timing: MonitorTiming, at: number): number {
    const interval = this.minutes(timing.intervalMinutes);
    const phase = this.phase(monitorId, interval);
    return phase + Math.floor((at - phase) / interval) * interval;
  }

  /** The window of the first run strictly after `after` (a window end on the grid). */
  nextRun(monitorId: string, timing: MonitorTiming, after: number): RunWindow {
    const delay = this.seconds(timing.secondDelay);
    const interval = this.minutes(timing.intervalMinutes);
    let end = this.gridPointAtOrBefore(monitorId, timing, after - delay);
    while (end + delay <= after) end += interval;
    return this.windowEndingAt(timing, end);
  }

  /**
   * The run to do now for a monitor that was due at `dueAt`: that run if it is still the latest
   * one due, otherwise the latest grid point due by `now` (missed runs collapse into one).
   */
  runToDo(monitorId: string, timing: MonitorTiming, dueAt: number, now: number): RunWindow {
    const delay = this.seconds(timing.secondDelay);
    const latestEnd = this.gridPointAtOrBefore(monitorId, timing, now - delay);
    const scheduledEnd = dueAt - delay;
    return this.windowEndingAt(timing, Math.max(scheduledEnd, latestEnd));
  }

  windowEndingAt(timing: MonitorTiming, endMs: number): RunWindow {
    return { dueAt: endMs + this.seconds(timing.secondDelay), startMs: endMs - this.minutes(timing.rangeMinutes), endMs };
  }
}
