// Time ranges as the user sees and types them: quick ranges, relative expressions the server
// understands (`now-2h`), and absolute times shown and read in the chosen time zone.
import type { TimeZoneChoice } from './url-state';

export const QUICK_RANGES = [
  { label: 'Last 15 minutes', start: 'now-15m' },
  { label: 'Last hour', start: 'now-1h' },
  { label: 'Last 6 hours', start: 'now-6h' },
  { label: 'Last 24 hours', start: 'now-24h' },
  { label: 'Last 7 days', start: 'now-7d' },
  { label: 'Last 30 days', start: 'now-30d' },
] as const;

const RELATIVE = /^now(\s*-\s*\d+\s*(ms|s|m|h|d|w))?$/;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

export function isRelative(value: string): boolean {
  return RELATIVE.test(value.trim());
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `2026-11-27 14:05:09` (with `.123` when there are milliseconds) in the time zone. */
export function formatWallTime(date: Date, zone: TimeZoneChoice, withMillis = false): string {
  const utc = zone === 'UTC';
  const parts = utc
    ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()]
    : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()];
  const [y, mo, d, h, mi, s, ms] = parts as [number, number, number, number, number, number, number];
  const text = `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
  return withMillis || ms !== 0 ? `${text}.${pad(ms, 3)}` : text;
}

/** What an input shows for a range bound: relative forms as they are, absolute ones in the zone. */
export function displayBound(value: string, zone: TimeZoneChoice): string {
  if (isRelative(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatWallTime(date, zone);
}

/**
 * Reads what the user typed: a relative form (kept), or a wall time `YYYY-MM-DD[ HH:mm[:ss]]`
 * in the zone, or any RFC 3339 time, as RFC 3339. Undefined when it is neither.
 */
export function parseBound(text: string, zone: TimeZoneChoice): string | undefined {
  const value = text.trim();
  if (isRelative(value)) return value.replace(/\s+/g, '');
  const wall = WALL_TIME.exec(value);
  if (wall) {
    const [y, mo, d, h, mi, s] = wall.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
    const millis = Number((wall[7] ?? '0').padEnd(3, '0'));
    const date = zone === 'UTC' ? new Date(Date.UTC(y, mo - 1, d, h, mi, s, millis)) : new Date(y, mo - 1, d, h, mi, s, millis);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : value;
  }
  return undefined;
}

/** The label of a quick range the bounds match, if any. */
export function quickRangeOf(start: string, end: string): string | undefined {
  if (end !== 'now') return undefined;
  return QUICK_RANGES.find((range) => range.start === start)?.start;
}
