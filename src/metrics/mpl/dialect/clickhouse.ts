// MPL in ClickHouse (EVENT_STORE=clickhouse|chdb): the engine hooks of the one compiler. Tags are
// a Map(String, String) whose values are a type letter and the value's text (see the store's
// layout), so a missing tag reads as ''; absent lists of distribution points are empty arrays.
// Series are read as their latest rows (FINAL); series ids are UInt128 throughout, so the views
// of a 64-bit series id (id * 64 + view) and group ids fit beside them. The answer's tags, times
// and values leave as JSON text.
import { quoteIdentifier, quoteLiteral } from '../../../engines/clickhouse/layout';
import { TAG_MEMBER } from '../../store/layout';
import { floatText, storedTag } from '../../store/clickhouse/layout';
import { metricsDialectOf } from './compiler';
import type { MetricsDialect } from './dialect';
import type { MplEngine } from './engine';

const EMPTY_TAGS = `CAST(map(), 'Map(String, String)')`;
const seriesId = (expr: string) => `toUInt128(${expr})`;
const keepTags = (tags: string, keys: string[]) => (keys.length === 0 ? EMPTY_TAGS : `mapFilter((k, v) -> has([${keys.join(', ')}], k), ${tags})`);

/**
 * The order of answers' series, DuckDB's order of its tag maps: entry by entry, by name, then by
 * the value's type (string, int, float, bool), then by the value as that type.
 */
const TAGS_ORDER = `arrayMap((k, v) -> (k, position('sifb', substring(v, 1, 1)), if(startsWith(v, 's'), substring(v, 2), ''),
  if(startsWith(v, 'i'), toInt64OrZero(substring(v, 2)), 0), if(startsWith(v, 'f'), toFloat64OrZero(substring(v, 2)), 0), v), mapKeys(g.tags), mapValues(g.tags))`;

export const clickhouseMplEngine: MplEngine = {
  name: 'clickhouse',
  identifier: quoteIdentifier,
  text: quoteLiteral,
  double: (value) => `toFloat64(${Number.isFinite(value) ? `'${value.toString()}'` : `'${floatText(value)}'`})`,
  int: (value) => `toInt64(${BigInt(value).toString()})`,
  toDouble: (expr) => `toFloat64(${expr})`,
  textToDouble: (expr) => `toFloat64OrNull(${expr})`,
  nullDouble: 'CAST(NULL AS Nullable(Float64))',
  nullable: (expr) => `toNullable(${expr})`,
  notNull: (expr) => `assumeNotNull(${expr})`,
  intDiv: (expr, divisor) => `intDiv(${expr}, ${divisor})`,
  hash: (expr) => `sipHash64(${expr})`,

  seriesId,
  storedSeriesId: seriesId,
  seriesTable: (name, alias) => `${name}${alias ? ` AS ${alias}` : ''} FINAL`,
  groupIds(builder, sidTags, idColumn, keys) {
    // CTEs are inlined where they are read, so numbering the groups could differ between reads:
    // a group's id is a hash of its tags instead.
    const mapped = builder.cte(`SELECT ${idColumn} AS msid, ${keepTags('tags', keys)} AS gtags, ${seriesId('sipHash64(gtags)')} AS gid FROM ${sidTags}`);
    const groups = builder.cte(`SELECT DISTINCT gtags, gid FROM ${mapped}`);
    const members = builder.cte(`SELECT msid AS sid, gid FROM ${mapped}`);
    return { members, groups };
  },

  emptyTags: EMPTY_TAGS,
  tagOf: (tags, name) => `nullIf(${tags}[${name}], '')`,
  member(value, type) {
    const text = `substring(${value}, 2)`;
    const test = `startsWith(${value}, '${TAG_MEMBER[type]}')`;
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
  },
  tagIs: (value, type) => `startsWith(${value}, '${TAG_MEMBER[type]}')`,
  tagText: (value) => `substring(${value}, 2)`,
  tagValue: (builder, value) => builder.param(storedTag(value)),
  stringTag: (text) => `concat('s', ${text})`,
  floatTag: (expr) => `concat('f', toString(${expr}))`,
  setTags(tags, entries) {
    if (entries.length === 0) return tags;
    const keys = `[${entries.map((entry) => entry.key).join(', ')}]`;
    const added = `map(${entries.map((entry) => `${entry.key}, ifNull(${entry.value}, '')`).join(', ')})`;
    return `mapSort(mapUpdate(mapFilter((k, v) -> NOT has(${keys}, k), ${tags}), mapFilter((k, v) -> v != '', ${added})))`;
  },
  keepTags,

  regexMatches: (text, pattern) => `match(${text}, ${pattern})`,
  regexReplace: (text, pattern, replacement) => `replaceRegexpOne(${text}, ${pattern}, ${replacement})`,
  unnestRange: (from, to, step) => `arrayJoin(range(${from}, ${to}, ${step}))`,
  lag: (expr, kind = 'value') => (kind === 'list' ? `lagInFrame(${expr})` : `lagInFrame(toNullable(${expr}))`),
  lastValue: (expr) => `last_value(${expr})`,
  firstValue: (expr) => `first_value(${expr})`,
  failIf: (condition, message, value) => `if(throwIf(${condition}, ${message}) = 0, ${value}, NULL)`,
  listPresent: (list) => `notEmpty(${list})`,
  absentList: 'CAST([] AS Array(Float64))',
  firstIndexAtLeast: (list, target) => `arrayFirstIndex(x -> x >= ${target}, ${list})`,
  listMinus: (left, right) => `arrayMap(i -> ${left}[i] - ${right}[i], arrayEnumerate(${left}))`,
  sortedLists: (key, value, keysAlias, valuesAlias) =>
    `arrayMap(x -> tupleElement(x, 1), arraySort(groupArray((${key}, ${value})))) AS ${keysAlias}, ` +
    `arrayMap(x -> tupleElement(x, 2), arraySort(groupArray((${key}, ${value})))) AS ${valuesAlias}`,
  exactQuantiles: (expr, qs) => `quantilesExactInclusive(${qs.map(String).join(', ')})(${expr})`,
  bucketCells: (points) =>
    `SELECT gid, bt, tupleElement(bc, 1) AS bound, tupleElement(bc, 2) AS cnt FROM (
       SELECT gid, bt, arrayJoin(arrayMap(i -> (if(i <= length(dbounds), dbounds[i], inf), dcounts[i]), arrayEnumerate(dcounts))) AS bc FROM ${points})`,

  answer(builder, root, where, limit) {
    const series = builder.cte(`SELECT sid, arraySort(groupArray((t, v))) AS tvs FROM ${root.pts} WHERE ${where} GROUP BY sid`);
    return builder.statement(
      `SELECT toJSONString(g.tags) AS tags, toJSONString(arrayMap(x -> tupleElement(x, 1), s.tvs)) AS ts,
         toJSONString(arrayMap(x -> if(isFinite(tupleElement(x, 2)), toNullable(tupleElement(x, 2)), NULL), s.tvs)) AS vs
       FROM ${series} AS s JOIN ${root.tags} AS g ON g.sid = s.sid ORDER BY ${TAGS_ORDER} LIMIT ${limit}`,
    );
  },
};

export const clickhouseMetricsDialect: MetricsDialect & { settings: Record<string, number> } = {
  ...metricsDialectOf(clickhouseMplEngine),
  // An outer join's missing side is NULL (as in SQL), not the type's default value.
  settings: { join_use_nulls: 1 },
};
