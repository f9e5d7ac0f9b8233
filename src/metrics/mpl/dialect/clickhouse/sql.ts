// Small pieces of ClickHouse SQL the MPL dialect composes: a statement builder with common table
// expressions, literals, and the expressions over a series' tag map. Tags are a
// Map(String, String) whose values are a type letter and the value's text (see the store's
// layout), so a missing tag reads as ''. ClickHouse lets a SELECT's aliases stand for their
// expressions everywhere in that SELECT (aggregates and WHERE included), so each relation is
// computed under private names (_s, _t, _v, _g) and renamed once outside (`points`, `tagged`).
import { quoteLiteral } from '../../../../events/clickhouse/layout';
import type { TagValue } from '../../../model';
import { floatText, storedTag, TAG_LETTER } from '../../../store/clickhouse/layout';
import { withoutNul } from '../../../store/series-key';

/** A pair of relations describing a series set: points (sid, t, v) and tags (sid, tags). */
export interface Relation {
  pts: string;
  tags: string;
}

export class StatementBuilder {
  private readonly ctes: string[] = [];

  /** Adds a common table expression; returns its name. */
  cte(body: string): string {
    const name = `q${this.ctes.length}`;
    this.ctes.push(`${name} AS (${body})`);
    return name;
  }

  /** Points computed as (_s, _t, _v) by `body`, as a relation (sid, t, v). */
  points(body: string): string {
    return this.cte(`SELECT _s AS sid, _t AS t, _v AS v FROM (${body})`);
  }

  /** Tags computed as (_s, _g) by `body`, as a relation (sid, tags). */
  tagged(body: string): string {
    return this.cte(`SELECT _s AS sid, _g AS tags FROM (${body})`);
  }

  /** A String literal holding `value` (query text is written into the statement, quoted). */
  param(value: string): string {
    return quoteLiteral(withoutNul(value));
  }

  statement(select: string): string {
    return this.ctes.length === 0 ? select : `WITH ${this.ctes.join(',\n')}\n${select}`;
  }
}

/** A Float64 literal (the values come from the query, already checked to be numbers). */
export function double(value: number): string {
  return `toFloat64(${Number.isFinite(value) ? `'${value.toString()}'` : `'${floatText(value)}'`})`;
}

/** An Int64 literal of a whole number. */
export function int(value: number | bigint): string {
  return `toInt64(${BigInt(value).toString()})`;
}

export const EMPTY_TAGS = `CAST(map(), 'Map(String, String)')`;

/** A series id as every relation carries it. */
export const sid = (value: string) => `toUInt128(${value})`;

/** The stored value of tag `name` in `tags`, NULL when the series has no such tag. */
export function tagOf(tags: string, name: string): string {
  return `nullIf(${tags}[${name}], '')`;
}

/** The value of a stored tag value as its type, NULL when it is of another type. */
export function member(value: string, type: keyof typeof TAG_LETTER): string {
  const text = `substring(${value}, 2)`;
  const test = `startsWith(${value}, '${TAG_LETTER[type]}')`;
  switch (type) {
    case 'string':
      return `if(${test}, ${text}, NULL)`;
    case 'int':
      return `if(${test}, toInt64OrNull(${text}), NULL)`;
    case 'float':
      return `if(${test}, toFloat64OrNull(${text}), NULL)`;
    case 'bool':
      return `if(${test}, ${text} = 'true', NULL)`;
  }
}

/** The text of a stored tag value of any type (what regular expressions match). */
export function tagText(value: string): string {
  return `substring(${value}, 2)`;
}

export function tagValueLiteral(builder: StatementBuilder, value: TagValue): string {
  return builder.param(storedTag(value));
}

/** A string tag value holding the text `text` (NULL stays NULL). */
export function stringTag(text: string): string {
  return `concat('s', ${text})`;
}

/**
 * `tags` with the named entries replaced by new values (an entry whose value is NULL is removed)
 * and kept sorted by name, so equal tag sets are equal maps.
 */
export function setTags(tags: string, entries: { key: string; value: string }[]): string {
  if (entries.length === 0) return tags;
  const keys = `[${entries.map((entry) => entry.key).join(', ')}]`;
  const added = `map(${entries.map((entry) => `${entry.key}, ifNull(${entry.value}, '')`).join(', ')})`;
  return `mapSort(mapUpdate(mapFilter((k, v) -> NOT has(${keys}, k), ${tags}), mapFilter((k, v) -> v != '', ${added})))`;
}

/** A map holding only the named tags a series has. */
export function keepTags(tags: string, keys: string[]): string {
  if (keys.length === 0) return EMPTY_TAGS;
  return `mapFilter((k, v) -> has([${keys.join(', ')}], k), ${tags})`;
}

/** A table of (code, name) pairs, e.g. the histogram views. */
export function pairsTable(pairs: [number, string][]): string {
  return `(SELECT tupleElement(c, 1) AS code, tupleElement(c, 2) AS name FROM (SELECT arrayJoin([${pairs.map(([code, name]) => `(${code}, ${name})`).join(', ')}]) AS c))`;
}
