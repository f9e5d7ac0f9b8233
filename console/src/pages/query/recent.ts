// The last queries run in this browser, per organization, kept in localStorage.
const LIMIT = 20;
const keyOf = (org: string) => `eventdeck.recentQueries.${org}`;

export interface RecentQuery {
  apl: string;
  start: string;
  end: string;
  /** When it last ran, ms since the epoch. */
  at: number;
}

export function loadRecent(org: string): RecentQuery[] {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(org)) ?? '[]') as unknown;
    return Array.isArray(stored) ? (stored as RecentQuery[]).filter((entry) => typeof entry?.apl === 'string').slice(0, LIMIT) : [];
  } catch {
    return [];
  }
}

/** Puts the query first (once) and keeps the last 20; returns the new list. */
export function rememberQuery(org: string, entry: RecentQuery): RecentQuery[] {
  const next = [entry, ...loadRecent(org).filter((other) => other.apl !== entry.apl)].slice(0, LIMIT);
  try {
    localStorage.setItem(keyOf(org), JSON.stringify(next));
  } catch {
    // Storage full or refused: the list lives for this page only.
  }
  return next;
}
