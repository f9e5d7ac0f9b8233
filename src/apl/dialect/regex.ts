// Regular expression text both dialects write the same way (DuckDB and ClickHouse both read RE2):
// escaping a literal, Kusto's term boundaries, counting capture groups, rewrites.

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

/**
 * A rewrite in RE2's form: `$1` and `\1` refer to groups, a backslash before anything else is
 * a literal backslash (so `*` or `\.` in a rewrite stay text).
 */
export function rewriteOf(rewrite: string): string {
  let out = '';
  for (let i = 0; i < rewrite.length; i++) {
    const c = rewrite[i]!;
    const next = rewrite[i + 1];
    if ((c === '$' || c === '\\') && next !== undefined && /\d/.test(next)) {
      out += `\\${next}`;
      i++;
    } else if (c === '\\') {
      out += '\\\\';
      if (next === '\\') i++;
    } else out += c;
  }
  return out;
}

/** Whether two occurrences of the term can overlap: some proper prefix is also a suffix. */
export function overlapsItself(term: string): boolean {
  const chars = [...term];
  for (let k = 1; k < chars.length; k++) if (chars.slice(0, k).join('') === chars.slice(chars.length - k).join('')) return true;
  return false;
}
