// The dashboard's time window as stored (`qr-now-1h`, `qr-now`, or RFC 3339 times) and as queries
// and the time range control take it (`now-1h`), and the shift of an `against` comparison.

const QUICK_PREFIX = 'qr-';

/** A stored bound as the query API and the time range control take it. */
export function requestBound(stored: string): string {
  return stored.startsWith(QUICK_PREFIX) ? stored.slice(QUICK_PREFIX.length) : stored;
}

/** A bound from the time range control as the document stores it. */
export function storedBound(bound: string): string {
  return bound.startsWith('now') ? `${QUICK_PREFIX}${bound}` : bound;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds since the epoch of a bound (`now`, `now-2h`, RFC 3339), or undefined. */
export function boundMillis(bound: string, now = Date.now()): number | undefined {
  const relative = /^now(?:-(\d+)(ms|s|m|h|d|w))?$/.exec(requestBound(bound).replace(/\s+/g, ''));
  if (relative) return relative[1] ? now - Number(relative[1]) * UNIT_MS[relative[2]!]! : now;
  const millis = Date.parse(bound);
  return Number.isNaN(millis) ? undefined : millis;
}

/** The comparison periods the document accepts, with what people read. */
export const AGAINST_CHOICES = [
  { value: '', label: 'No comparison' },
  { value: '-1h', label: '1 hour before' },
  { value: '-3h', label: '3 hours before' },
  { value: '-6h', label: '6 hours before' },
  { value: '-12h', label: '12 hours before' },
  { value: '-1d', label: '1 day before' },
  { value: '-3d', label: '3 days before' },
  { value: '-7d', label: '7 days before' },
  { value: '-1w', label: '1 week before' },
  { value: '-2w', label: '2 weeks before' },
  { value: '-3w', label: '3 weeks before' },
  { value: '-30d', label: '30 days before' },
  { value: '-60d', label: '60 days before' },
  { value: '-90d', label: '90 days before' },
] as const;

/** How far back `against` looks, in milliseconds (0 for none). */
export function againstMillis(against: string | undefined): number {
  const match = /^-(\d+)(h|d|w)$/.exec(against ?? '');
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : 0;
}

/** The window of the comparison: the same span moved back, as RFC 3339 times. */
export function shiftedWindow(start: string, end: string, shiftMs: number, now = Date.now()): { startTime: string; endTime: string } | undefined {
  const from = boundMillis(start, now);
  const to = boundMillis(end, now);
  if (from === undefined || to === undefined || shiftMs <= 0) return undefined;
  return { startTime: new Date(from - shiftMs).toISOString(), endTime: new Date(to - shiftMs).toISOString() };
}
