// A series' identity as text (metric, point class and typed tags, sorted by tag name), written
// once per new series, and the NUL-free text SQL needs.
import type { PointClass, Tags, TagValue } from '../model';

/** Tag entries sorted by name (code unit order, as DuckDB compares strings). */
export function sortedTags(tags: Tags): [string, TagValue][] {
  return [...tags.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const TYPE_MARK = { string: 's', int: 'i', float: 'f', bool: 'b' } as const;

/** JSON text, so no name or value can make two identities spell alike. */
export function seriesKey(metric: string, pointClass: PointClass, tags: Tags): string {
  const entries = sortedTags(tags).map(([name, tag]) => {
    const value = tag.type === 'float' ? String(Object.is(tag.value, -0) ? 0 : tag.value) : String(tag.value);
    return [name, TYPE_MARK[tag.type], value];
  });
  return JSON.stringify([metric, pointClass === 'scalar' ? 'v' : 'd', entries]);
}

/** SQL text cannot hold NUL characters; ingest replaces them, and so does every literal here. */
export const withoutNul = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text);
