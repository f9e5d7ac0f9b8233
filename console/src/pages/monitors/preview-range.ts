// The preview's period as the server needs it: the Query page's bounds (`now-2h`, RFC 3339)
// turned into absolute RFC 3339 times at the moment the preview runs.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** An absolute time for a bound, or undefined when it is neither relative nor a time. */
export function absoluteBound(bound: string, now: number): string | undefined {
  const text = bound.trim();
  if (text === 'now') return new Date(now).toISOString();
  const relative = /^now\s*-\s*(\d+)\s*(ms|s|m|h|d|w)$/.exec(text);
  if (relative) return new Date(now - Number(relative[1]) * UNIT_MS[relative[2]!]!).toISOString();
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
