// The run grid. A monitor runs every `intervalMinutes` on a fixed grid: run times are
// `phase + k * interval` on the epoch, where each monitor's phase is a stable offset inside its
// interval derived from its id. Runs therefore never drift (the next run follows from the grid,
// not from when the previous one finished), and many monitors with the same interval spread
// over it instead of all starting on the minute. `secondDelay` shifts the run after the end of
// its query window. A run missed while the server was down runs once, for the latest grid
// point, rather than once per missed point.
//
// Every function takes the instants it works from: what "now" is comes from the monitors'
// clock (clock.ts).
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

export const MINUTE_MS = 60_000;

export const minutesMs = (minutes: number) => minutes * MINUTE_MS;
export const secondsMs = (seconds: number) => seconds * 1000;
export const daysMs = (days: number) => minutesMs(days * 1440);

/** The monitor's offset inside its interval, stable for its id. */
export function phase(monitorId: string, intervalMs: number): number {
  const digest = createHash('sha256').update(monitorId).digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(Math.max(1, Math.floor(intervalMs))));
}

/** The latest grid point at or before `at`. */
function gridPointAtOrBefore(monitorId: string, timing: MonitorTiming, at: number): number {
  const interval = minutesMs(timing.intervalMinutes);
  const offset = phase(monitorId, interval);
  return offset + Math.floor((at - offset) / interval) * interval;
}

/** The window of the first run strictly after `after` (a window end on the grid). */
export function nextRun(monitorId: string, timing: MonitorTiming, after: number): RunWindow {
  const delay = secondsMs(timing.secondDelay);
  const interval = minutesMs(timing.intervalMinutes);
  let end = gridPointAtOrBefore(monitorId, timing, after - delay);
  while (end + delay <= after) end += interval;
  return windowEndingAt(timing, end);
}

/**
 * The run to do now for a monitor that was due at `dueAt`: that run if it is still the latest
 * one due, otherwise the latest grid point due by `now` (missed runs collapse into one).
 */
export function runToDo(monitorId: string, timing: MonitorTiming, dueAt: number, now: number): RunWindow {
  const delay = secondsMs(timing.secondDelay);
  const latestEnd = gridPointAtOrBefore(monitorId, timing, now - delay);
  const scheduledEnd = dueAt - delay;
  return windowEndingAt(timing, Math.max(scheduledEnd, latestEnd));
}

export function windowEndingAt(timing: MonitorTiming, endMs: number): RunWindow {
  return { dueAt: endMs + secondsMs(timing.secondDelay), startMs: endMs - minutesMs(timing.rangeMinutes), endMs };
}
