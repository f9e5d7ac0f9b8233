// "Did you mean ...?" for unknown names: the closest candidates by edit distance.

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/**
 * Up to `limit` candidates close to `name`: case-insensitive matches first, then those
 * within an edit distance that grows with the name's length, nearest first.
 */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const wanted = name.toLowerCase();
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase();
    let score: number;
    if (lower === wanted) score = 0;
    else {
      const distance = editDistance(wanted, lower);
      const allowed = Math.max(2, Math.floor(Math.max(wanted.length, lower.length) / 3));
      const contains = lower.includes(wanted) || wanted.includes(lower);
      if (distance > allowed && !contains) continue;
      score = contains ? Math.min(distance, 1.5) : distance;
    }
    scored.push({ candidate, score });
  }
  scored.sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate));
  return scored.slice(0, limit).map((entry) => entry.candidate);
}

/** ` (did you mean "a" or "b"?)`, or nothing when there is no close candidate. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestNames(name, candidates);
  return close.length ? ` (did you mean ${close.map((c) => `"${c}"`).join(' or ')}?)` : '';
}
