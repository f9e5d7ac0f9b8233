// Small pieces of DuckDB SQL the MPL dialect composes: a statement builder with common table
// expressions and parameters, number literals, and the expressions over a series' tag map.
import { quoteLiteral } from '../../../../events/layout';
import { TAG_MEMBER, TAG_VALUE_TYPE, TAGS_TYPE } from '../../../store/layout';
import { withoutNul } from '../../../store/series-key';
import type { TagValue } from '../../../model';

export type SqlParam = string | number | bigint | boolean;

/** A pair of relations describing a series set: points (sid, t, v) and tags (sid, tags). */
export interface Relation {
  pts: string;
  tags: string;
}

export class StatementBuilder {
  private readonly ctes: string[] = [];
  readonly params: SqlParam[] = [];

  /** Adds a common table expression; returns its name. */
  cte(body: string): string {
    const name = `q${this.ctes.length}`;
    this.ctes.push(`${name} AS (${body})`);
    return name;
  }

  /**
   * A VARCHAR literal holding `value`, for every text that comes from the query. Quoted rather
   * than bound: the engine plans constant tag names and values better (map lookups, filter
   * pushdown), and quoting doubles every quote. SQL text holds no NUL, which the store also
   * replaces in what it stores, so such text still finds what it names.
   */
  param(value: string): string {
    return `${quoteLiteral(withoutNul(value))}::VARCHAR`;
  }

  statement(select: string): string {
    return this.ctes.length === 0 ? select : `WITH ${this.ctes.join(',\n')}\n${select}`;
  }
}

/** A DOUBLE literal (the values come from the query, already checked to be numbers). */
export function double(value: number): string {
  if (Number.isNaN(value)) return `'nan'::DOUBLE`;
  if (value === Infinity) return `'inf'::DOUBLE`;
  if (value === -Infinity) return `'-inf'::DOUBLE`;
  return `(${value.toString()})::DOUBLE`;
}

/** A BIGINT literal of a whole number of seconds. */
export function int(value: number | bigint): string {
  return `(${BigInt(value).toString()})::BIGINT`;
}

export const EMPTY_TAGS = `CAST(MAP {} AS ${TAGS_TYPE})`;

/** The typed value of tag `name` in `tags` (NULL when the series has no such tag). */
export function tagOf(tags: string, name: string): string {
  return `${tags}[${name}]`;
}

export function member(value: string, type: keyof typeof TAG_MEMBER): string {
  return `union_extract(${value}, '${TAG_MEMBER[type]}')`;
}

/** The text of a tag value of any type (what regular expressions match). */
export function tagText(value: string): string {
  return `CAST(${value} AS VARCHAR)`;
}

export function tagValueLiteral(builder: StatementBuilder, value: TagValue): string {
  switch (value.type) {
    case 'string':
      return `CAST(${builder.param(value.value)} AS ${TAG_VALUE_TYPE})`;
    case 'int':
      return `CAST(${int(value.value)} AS ${TAG_VALUE_TYPE})`;
    case 'float':
      return `CAST(${double(value.value)} AS ${TAG_VALUE_TYPE})`;
    case 'bool':
      return `CAST(${value.value} AS ${TAG_VALUE_TYPE})`;
  }
}

export function stringTag(text: string): string {
  return `CAST(${text} AS ${TAG_VALUE_TYPE})`;
}

/**
 * `tags` with the named entries replaced by new values (an entry whose value is NULL is removed)
 * and kept sorted by name, so equal tag sets are equal maps.
 */
export function setTags(tags: string, entries: { key: string; value: string }[]): string {
  if (entries.length === 0) return tags;
  const keys = `[${entries.map((entry) => entry.key).join(', ')}]`;
  const added = `[${entries.map((entry) => `{'key': ${entry.key}, 'value': ${entry.value}}`).join(', ')}]`;
  return (
    `map_from_entries(list_sort(list_concat(list_filter(map_entries(${tags}), lambda e: NOT list_contains(${keys}, e.key)), ` +
    `list_filter(${added}, lambda e: e.value IS NOT NULL))))`
  );
}

/** A map holding only the named tags a series has (names already sorted). */
export function keepTags(tags: string, keys: string[]): string {
  if (keys.length === 0) return EMPTY_TAGS;
  const entries = keys.map((key) => `{'key': ${key}, 'value': ${tags}[${key}]}`);
  return `map_from_entries(list_filter([${entries.join(', ')}], lambda e: e.value IS NOT NULL))`;
}
