// Times as agents write them (`now-30m`, `now`, RFC 3339) turned into what the services take.
import { parseRequestTime } from '../apl';
import { invalidInput } from '../errors';

/** The instant `text` names, as a Date; relative times count from `nowMs`. */
export function instantOf(text: string, what: string, nowMs = Date.now()): Date {
  const nanos = parseRequestTime(text, BigInt(nowMs) * 1_000_000n);
  if (nanos === undefined) throw invalidInput(`${what} must be an RFC 3339 time (2025-01-31T12:00:00Z) or relative to now (now-1h), got "${text}"`);
  const ms = Number(nanos / 1_000_000n);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw invalidInput(`${what} "${text}" is out of range`);
  return new Date(ms);
}

/** Both ends of a window, start not after end. */
export function windowOf(start: string, end: string, nowMs = Date.now()): { start: Date; end: Date } {
  const window = { start: instantOf(start, 'startTime', nowMs), end: instantOf(end, 'endTime', nowMs) };
  if (window.start > window.end) throw invalidInput('startTime must not be after endTime');
  return window;
}
