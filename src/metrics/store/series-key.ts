// A series' identity as text (metric, point class and typed tags, sorted by tag name), and its
// tags as a SQL literal of the series table's map type. Both are written once per new series.
import { quoteLiteral } from '../../events/layout';
import { type PointClass, type Tags, type TagValue } from '../model';
import { TAG_VALUE_TYPE, TAGS_TYPE } from './layout';

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

function doubleLiteral(value: number): string {
  if (Number.isNaN(value)) return `'nan'::DOUBLE`;
  if (value === Infinity) return `'inf'::DOUBLE`;
  if (value === -Infinity) return `'-inf'::DOUBLE`;
  return `${value.toString()}::DOUBLE`;
}

function tagValueLiteral(tag: TagValue): string {
  switch (tag.type) {
    case 'string':
      return `CAST(${quoteLiteral(withoutNul(tag.value))}::VARCHAR AS ${TAG_VALUE_TYPE})`;
    case 'int':
      return `CAST(${tag.value.toString()}::BIGINT AS ${TAG_VALUE_TYPE})`;
    case 'float':
      return `CAST(${doubleLiteral(tag.value)} AS ${TAG_VALUE_TYPE})`;
    case 'bool':
      return `CAST(${tag.value ? 'true' : 'false'} AS ${TAG_VALUE_TYPE})`;
  }
}

/** The tags as a literal of the series table's `tags` column, entries sorted by name. */
export function tagsLiteral(tags: Tags): string {
  const entries = sortedTags(tags).map(([name, tag]) => `${quoteLiteral(withoutNul(name))}: ${tagValueLiteral(tag)}`);
  return `CAST(MAP {${entries.join(', ')}} AS ${TAGS_TYPE})`;
}
