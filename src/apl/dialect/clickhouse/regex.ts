// Regular expression text both ClickHouse and DuckDB read the same way (RE2): escaping a literal,
// Kusto's term boundaries, counting capture groups.

/** Escapes a literal for use inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** A character escaped for use inside a character class. */
export function escapeClass(text: string): string {
  return text.replace(/[\\\]^\-[]/g, '\\$&');
}

export const WORD = '\\pL\\pN';

/** The regex of Kusto's term operators for a constant term: word boundaries around the term. */
export function termRegex(term: string, kind: 'has' | 'hasprefix' | 'hassuffix', caseSensitive: boolean): string {
  const boundaryBefore = kind !== 'hassuffix' && /^[\p{L}\p{N}]/u.test(term) ? `(?:^|[^${WORD}])` : '';
  const boundaryAfter = kind !== 'hasprefix' && /[\p{L}\p{N}]$/u.test(term) ? `(?:$|[^${WORD}])` : '';
  return `${caseSensitive ? '' : '(?i)'}${boundaryBefore}${escapeRegex(term)}${boundaryAfter}`;
}

/** How many capture groups a regex has. */
export function captureGroups(regex: string): number {
  let count = 0;
  for (let i = 0; i < regex.length; i++) {
    if (regex[i] === '\\') {
      i++;
      continue;
    }
    if (regex[i] === '(' && (regex[i + 1] !== '?' || regex[i + 2] === 'P' || regex[i + 2] === '<')) count++;
  }
  return count;
}
