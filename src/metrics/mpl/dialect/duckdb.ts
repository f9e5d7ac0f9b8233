// MPL in DuckDB: the engine hooks of the one compiler. Tags are a MAP(VARCHAR, UNION(s, i, f, b))
// (see the store's layout), so a missing tag reads as NULL and a tag keeps its type; absent
// lists of distribution points are NULL. The answer's tags leave as {k, t, v} entries and its
// times and values as lists.
import { quoteLiteral } from '../../../engines/duckdb/layout';
import { quoteIdentifier, TAG_MEMBER, TAG_VALUE_TYPE, TAGS_TYPE, tagEntriesSql } from '../../store/layout';
import { metricsDialectOf } from './compiler';
import type { MplEngine } from './engine';

const EMPTY_TAGS = `CAST(MAP {} AS ${TAGS_TYPE})`;
const asTagValue = (expr: string) => `CAST(${expr} AS ${TAG_VALUE_TYPE})`;

const double = (value: number) => {
  if (Number.isNaN(value)) return `'nan'::DOUBLE`;
  if (value === Infinity) return `'inf'::DOUBLE`;
  if (value === -Infinity) return `'-inf'::DOUBLE`;
  return `(${value.toString()})::DOUBLE`;
};
const int = (value: number | bigint) => `(${BigInt(value).toString()})::BIGINT`;

/** A map holding only the named tags a series has (names already sorted). */
function keepTags(tags: string, keys: string[]): string {
  if (keys.length === 0) return EMPTY_TAGS;
  const entries = keys.map((key) => `{'key': ${key}, 'value': ${tags}[${key}]}`);
  return `map_from_entries(list_filter([${entries.join(', ')}], lambda e: e.value IS NOT NULL))`;
}

export const duckdbMplEngine: MplEngine = {
  name: 'duckdb',
  identifier: quoteIdentifier,
  text: (value) => `${quoteLiteral(value)}::VARCHAR`,
  double,
  int,
  toDouble: (expr) => `CAST(${expr} AS DOUBLE)`,
  textToDouble: (expr) => `TRY_CAST(${expr} AS DOUBLE)`,
  nullDouble: 'NULL::DOUBLE',
  nullable: (expr) => expr,
  notNull: (expr) => expr,
  intDiv: (expr, divisor) => `(${expr} // ${divisor})`,
  hash: (expr) => `hash(${expr})`,

  seriesId: (expr) => `CAST(${expr} AS BIGINT)`,
  storedSeriesId: (expr) => expr,
  seriesTable: (name, alias) => (alias ? `${name} AS ${alias}` : name),
  groupIds(builder, sidTags, idColumn, keys) {
    // A CTE read more than once is materialized, so every reader sees the same numbering.
    const mapped = builder.cte(`SELECT ${idColumn} AS sid, ${keepTags('tags', keys)} AS gtags FROM ${sidTags}`);
    const groups = builder.cte(`SELECT gtags, row_number() OVER () AS gid FROM (SELECT DISTINCT gtags FROM ${mapped})`);
    const members = builder.cte(`SELECT m.sid, g.gid FROM ${mapped} AS m JOIN ${groups} AS g ON g.gtags = m.gtags`);
    return { members, groups };
  },

  emptyTags: EMPTY_TAGS,
  tagOf: (tags, name) => `${tags}[${name}]`,
  member: (value, type) => `union_extract(${value}, '${TAG_MEMBER[type]}')`,
  tagIs: (value, type) => `union_tag(${value}) = '${TAG_MEMBER[type]}'`,
  tagText: (value) => `CAST(${value} AS VARCHAR)`,
  tagValue(builder, value) {
    switch (value.type) {
      case 'string':
        return asTagValue(builder.param(value.value));
      case 'int':
        return asTagValue(int(value.value));
      case 'float':
        return asTagValue(double(value.value));
      case 'bool':
        return asTagValue(String(value.value));
    }
  },
  stringTag: asTagValue,
  floatTag: asTagValue,
  setTags(tags, entries) {
    if (entries.length === 0) return tags;
    const keys = `[${entries.map((entry) => entry.key).join(', ')}]`;
    const added = `[${entries.map((entry) => `{'key': ${entry.key}, 'value': ${entry.value}}`).join(', ')}]`;
    return (
      `map_from_entries(list_sort(list_concat(list_filter(map_entries(${tags}), lambda e: NOT list_contains(${keys}, e.key)), ` +
      `list_filter(${added}, lambda e: e.value IS NOT NULL))))`
    );
  },
  keepTags,

  regexMatches: (text, pattern) => `regexp_full_match(${text}, ${pattern})`,
  regexReplace: (text, pattern, replacement) => `regexp_replace(${text}, ${pattern}, ${replacement})`,
  unnestRange: (from, to, step) => `unnest(range(${from}, ${to}, ${step}))`,
  lag: (expr) => `lag(${expr})`,
  lastValue: (expr) => `last_value(${expr} IGNORE NULLS)`,
  firstValue: (expr) => `first_value(${expr} IGNORE NULLS)`,
  failIf: (condition, message, value) => `CASE WHEN ${condition} THEN error(${message}) ELSE ${value} END`,
  listPresent: (list) => `${list} IS NOT NULL`,
  absentList: 'NULL::DOUBLE[]',
  firstIndexAtLeast: (list, target) => `coalesce(list_position(list_transform(${list}, lambda x: x >= ${target}), true), 0)`,
  listMinus: (left, right) => `list_transform(range(1, len(${left}) + 1), lambda i: ${left}[i] - ${right}[i])`,
  sortedLists: (key, value, keysAlias, valuesAlias) => `list(${key} ORDER BY ${key}) AS ${keysAlias}, list(${value} ORDER BY ${key}) AS ${valuesAlias}`,
  exactQuantiles: (expr, qs) => `quantile_cont(${expr}, [${qs.map(double).join(', ')}])`,
  bucketCells: (points) => `SELECT gid, bt, unnest(list_concat(dbounds, ['inf'::DOUBLE])) AS bound, unnest(dcounts) AS cnt FROM ${points}`,

  answer(builder, root, where, limit) {
    const series = builder.cte(
      `SELECT sid, list(t ORDER BY t) AS ts, list(CASE WHEN isfinite(v) THEN v END ORDER BY t) AS vs FROM ${root.pts} WHERE ${where} GROUP BY sid`,
    );
    return builder.statement(
      `SELECT ${tagEntriesSql('g.tags')} AS tags, s.ts, s.vs FROM ${series} AS s JOIN ${root.tags} AS g ON g.sid = s.sid ORDER BY g.tags LIMIT ${limit}`,
    );
  },
};

export const duckdbMetricsDialect = metricsDialectOf(duckdbMplEngine);
