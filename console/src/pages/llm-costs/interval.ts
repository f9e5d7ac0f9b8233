// The bin width of the page's series: about forty bins over the chosen range, rounded to a
// width people read easily.
const WIDTHS: [string, number][] = [
  ['1m', 60_000],
  ['5m', 300_000],
  ['10m', 600_000],
  ['30m', 1_800_000],
  ['1h', 3_600_000],
  ['3h', 10_800_000],
  ['6h', 21_600_000],
  ['12h', 43_200_000],
  ['1d', 86_400_000],
  ['7d', 604_800_000],
];

const UNIT: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Epoch milliseconds of a range bound (`now`, `now-2h`, RFC 3339) at `now`. */
export function boundMillis(bound: string, now = Date.now()): number {
  const relative = /^now(?:-(\d+)(ms|s|m|h|d|w))?$/.exec(bound.trim());
  if (relative) return relative[1] ? now - Number(relative[1]) * UNIT[relative[2]!]! : now;
  const parsed = Date.parse(bound);
  return Number.isNaN(parsed) ? now : parsed;
}

export function intervalFor(start: string, end: string, now = Date.now()): string {
  const span = Math.max(60_000, boundMillis(end, now) - boundMillis(start, now));
  const wanted = span / 40;
  return (WIDTHS.find(([, width]) => width >= wanted) ?? WIDTHS[WIDTHS.length - 1]!)[0];
}
