// Arrays, property bags, sets, ranges and pairs over dynamic (JSON text) values. An array is
// turned into a list of its elements' JSON texts (`JSONExtractArrayRaw`), worked on with array
// functions and lambdas, and joined back into JSON text. ClickHouse arrays cannot be null, so
// "not an array" is tested beside the list rather than carried in it.
import { literalString } from '../values';
import { goDurationSql, rfc3339Sql } from '../formatting';
import { jsonArrayOf, jsonText, jsonType } from './json';
import { bindSql, type RuleTable } from './rule';

const isArray = (x: string) => `(${jsonType(x)} = 'Array')`;
/** The elements of a JSON array as JSON texts ([] when the value is not an array). */
const elements = (x: string) => `JSONExtractArrayRaw(ifNull(${x}, '[]'))`;

const NUMERIC = `('Int64', 'UInt64', 'Double')`;

/** A text key under which equal JSON values meet: numbers by value (1 and 1.0), the rest by text. */
const jsonKey = (e: string) => `if(${jsonType(e)} IN ${NUMERIC}, toString(toFloat64OrNull(${e})), ${e})`;

/** The distinct elements of a list of JSON texts, in order of first appearance. */
const distinctOf = (list: string) => `arrayFilter((e, i) -> indexOf(arrayMap(x -> ${jsonKey('x')}, ${list}), ${jsonKey('e')}) = i, ${list}, arrayEnumerate(${list}))`;

const containsJson = (list: string, element: string) => `has(arrayMap(x -> ${jsonKey('x')}, ${list}), ${jsonKey(element)})`;

/** A dynamic value as an element of a JSON array (SQL null as JSON null). */
const element = (x: string) => `ifNull(${x}, 'null')`;

/** A wildcard pattern (`*` for any text) as an anchored regex. */
function wildcardRegex(pattern: string | undefined, sql: string): string {
  if (pattern !== undefined) return `'${('^' + pattern.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('.*') + '$').replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return `concat('^', replaceAll(regexpQuoteMeta(${sql}), '\\\\*', '.*'), '$')`;
}

const pairObject = (key: string, value: string, separator: string) => `concat('{"key":', toJSONString(${key}), ',"value":', toJSONString(${value}), ',"separator":', toJSONString(${separator}), '}')`;

/** An index into a list of length `n`: negative counts from the end, clamped to 0..n. */
const clamped = (x: string, n: string) => `least(greatest(if(${x} < 0, ${x} + ${n}, ${x}), 0), ${n})`;

export const ARRAY_RULES: RuleTable = {
  dyn_len: (_w, _e, a) => `multiIf(${isArray(a(0))}, toInt64(JSONLength(${a(0)})), ${jsonType(a(0))} = 'String', toInt64(lengthUTF8(JSONExtractString(${a(0)}))), NULL)`,
  pack_array: (_w, e, a) => `concat('[', ${e.args.map((_, i) => element(a(i))).join(", ',', ")}, ']')`,
  bag_pack: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `'{}'`;
    const entries = keys.map((key, i) => `${w.constant(JSON.stringify(key) + ':')}, ${element(a(i))}`);
    return `concat('{', ${entries.join(", ',', ")}, '}')`;
  },
  // A null key makes the whole bag null.
  bag_pack_computed: (_w, e, a) => {
    const entries: string[] = [];
    for (let i = 0; i + 1 < e.args.length; i += 2) entries.push(`toJSONString(${a(i)}), ':', ${element(a(i + 1))}`);
    return `concat('{', ${entries.join(", ',', ")}, '}')`;
  },
  array_concat: (_w, e, a) => {
    const all = `arrayConcat(${e.args.map((_, i) => elements(a(i))).join(', ')})`;
    // Any operand that is not an array makes the result null.
    return `if(${e.args.map((_, i) => isArray(a(i))).join(' AND ')}, ${jsonArrayOf(all)}, NULL)`;
  },
  array_reverse: (_w, _e, a) => `if(${isArray(a(0))}, ${jsonArrayOf(`arrayReverse(${elements(a(0))})`)}, NULL)`,
  array_rotate: (_w, _e, a) =>
    `if(${isArray(a(0))}, ${bindSql(elements(a(0)), 'l', bindSql(`if(length(l) = 0, 0, ((${a(1)} % toInt64(length(l))) + toInt64(length(l))) % toInt64(length(l)))`, 'k', jsonArrayOf('arrayConcat(arraySlice(l, k + 1), arraySlice(l, 1, k))')))}, NULL)`,
  array_shift: (_w, _e, a) =>
    `if(${isArray(a(0))}, ${bindSql(elements(a(0)), 'l', jsonArrayOf(`arrayMap(i -> if(i + ${a(1)} >= 0 AND i + ${a(1)} < length(l), l[i + ${a(1)} + 1], ${element(a(2))}), range(length(l)))`))}, NULL)`,
  array_slice: (_w, _e, a) => {
    // The end index is exclusive, as Axiom documents.
    const body = bindSql(clamped(a(1), 'toInt64(length(l))'), 's', bindSql(clamped(a(2), 'toInt64(length(l))'), 'f', jsonArrayOf('arraySlice(l, s + 1, greatest(f - s, 0))')));
    return `if(${isArray(a(0))}, ${bindSql(elements(a(0)), 'l', body)}, NULL)`;
  },
  array_split: (_w, _e, a) => {
    const points = `arraySort(arrayMap(p -> ${clamped('p', 'toInt64(length(l))')}, arrayFilter(p -> p IS NOT NULL, JSONExtract(ifNull(${a(1)}, '[]'), 'Array(Nullable(Int64))'))))`;
    const bounds = `arrayConcat([toInt64(0)], ${points}, [toInt64(length(l))])`;
    const parts = `arrayMap(i -> ${jsonArrayOf('arraySlice(l, b[i] + 1, greatest(b[i + 1] - b[i], 0))')}, range(1, length(b)))`;
    return `if(${isArray(a(0))}, ${bindSql(elements(a(0)), 'l', bindSql(bounds, 'b', jsonArrayOf(parts)))}, NULL)`;
  },
  array_sort: (_w, e, a) => {
    const descending = Boolean(e.options?.descending);
    const nullsLast = e.options?.nullsLast !== false;
    const numeric = `arrayAll(x -> ${jsonType('x')} IN ${NUMERIC} OR ${jsonType('x')} = 'Null', l)`;
    const sort = descending ? 'arrayReverseSort' : 'arraySort';
    const present = `arrayFilter(x -> ${jsonType('x')} != 'Null', l)`;
    const nulls = `arrayFilter(x -> ${jsonType('x')} = 'Null', l)`;
    const sorted = `if(${numeric}, ${sort}(x -> toFloat64OrNull(x), ${present}), ${sort}(x -> ${jsonText('x')}, ${present}))`;
    const all = nullsLast ? `arrayConcat(${sorted}, ${nulls})` : `arrayConcat(${nulls}, ${sorted})`;
    return bindSql(elements(a(0)), 'l', jsonArrayOf(all));
  },
  array_sum: (_w, _e, a) =>
    bindSql(`arrayMap(x -> toFloat64OrNull(x), arrayFilter(x -> ${jsonType('x')} IN ${NUMERIC}, ${elements(a(0))}))`, 'n', `if(empty(n), NULL, arraySum(v -> ifNull(v, 0), n))`),
  array_index_of: (_w, _e, a) => {
    const from = `if(${a(2)} < 0, greatest(toInt64(length(l)) + ${a(2)}, 0), ${a(2)})`;
    const upto = `if(${a(3)} = -1, toInt64(length(l)), least(${from} + ${a(3)}, toInt64(length(l))))`;
    const hits = `arrayFilter(i -> ${jsonKey('l[i + 1]')} = ${jsonKey(a(1))}, range(toUInt64(${from}), toUInt64(greatest(${upto}, ${from}))))`;
    const body = `if(${a(3)} < -1 OR ${a(4)} < 1, NULL, toInt64(ifNull(arrayElementOrNull(${hits}, ${a(4)}), -1)))`;
    return `if(${isArray(a(0))}, ${bindSql(elements(a(0)), 'l', body)}, NULL)`;
  },
  array_iff: (_w, _e, a) => {
    const pick = (x: string) => `if(${isArray(x)}, ifNull(arrayElementOrNull(${elements(x)}, i + 1), 'null'), ${element(x)})`;
    return `if(${isArray(a(0))}, ${bindSql(elements(a(0)), 'c', jsonArrayOf(`arrayMap(i -> multiIf(c[i + 1] = 'true', ${pick(a(1))}, c[i + 1] = 'false', ${pick(a(2))}, 'null'), range(length(c)))`))}, NULL)`;
  },
  array_select_dict: (w, e, a) => {
    const key = literalString(e.args[1]!);
    const value = (x: string) => `JSONExtractRaw(${x}, ${key !== undefined ? w.constant(key) : a(1)})`;
    const found = `arrayFilter(x -> ${jsonType('x')} = 'Object' AND JSONHas(x, ${key !== undefined ? w.constant(key) : a(1)}) AND ${jsonKey(value('x'))} = ${jsonKey(a(2))}, ${elements(a(0))})`;
    return `arrayElementOrNull(${found}, 1)`;
  },
  array_extract: (w, e, a) => {
    // JSON_QUERY gives the matches as one JSON array ('' for none); matches come back as text,
    // as Axiom documents ("true", "1").
    const matches = `JSONExtractArrayRaw(ifNull(nullIf(JSON_QUERY(${a(0)}, ${w.constant(String(e.options?.path))}), ''), '[]'))`;
    return `if(${a(0)} IS NULL, NULL, toJSONString(arrayMap(x -> ${jsonText('x')}, arrayFilter(x -> ${jsonType('x')} != 'Null', ${matches}))))`;
  },
  strcat_array: (_w, _e, a) => `if(${isArray(a(0))}, arrayStringConcat(arrayMap(x -> ifNull(${jsonText('x')}, ''), ${elements(a(0))}), ${a(1)}), NULL)`,
  bag_has_key: (w, e, a) => {
    const key = literalString(e.args[1]!);
    if (key !== undefined && key.startsWith('$')) {
      // A simple JSON path ($.a.b) names the keys one level at a time.
      const path = key.replace(/^\$\.?/, '').split('.').filter((part) => part !== '');
      return `ifNull(${jsonType(a(0))} = 'Object' AND JSONHas(${a(0)}${path.map((part) => `, ${w.constant(part)}`).join('')}), false)`;
    }
    return `ifNull(${jsonType(a(0))} = 'Object' AND JSONHas(${a(0)}, ${a(1)}), false)`;
  },
  bag_keys: (_w, _e, a) => `if(${jsonType(a(0))} = 'Object', toJSONString(JSONExtractKeys(ifNull(${a(0)}, '{}'))), NULL)`,
  bag_zip: (_w, _e, a) => {
    const keys = elements(a(0));
    const values = elements(a(1));
    // Keys that are not strings are skipped; a repeated key keeps its first value.
    const pairs = `arrayMap(i -> tuple(JSONExtractString(k[i]), v[i], ${jsonType('k[i]')} = 'String'), range(1, least(length(k), length(v)) + 1))`;
    const kept = `arrayFilter((p, i) -> p.3 AND indexOf(arrayMap(q -> if(q.3, q.1, NULL), ps), p.1) = i, ps, arrayEnumerate(ps))`;
    const object = `concat('{', arrayStringConcat(arrayMap(p -> concat(toJSONString(p.1), ':', p.2), ${kept}), ','), '}')`;
    return `if(${isArray(a(0))} AND ${isArray(a(1))}, ${bindSql(keys, 'k', bindSql(values, 'v', bindSql(pairs, 'ps', object)))}, NULL)`;
  },
  set_union: (_w, e, a) => bindSql(`arrayConcat(${e.args.map((_, i) => elements(a(i))).join(', ')})`, 'l', jsonArrayOf(distinctOf('l'))),
  set_intersect: (_w, e, a) => {
    const others = e.args.slice(1).map((_, i) => containsJson(elements(a(i + 1)), 'x'));
    return bindSql(elements(a(0)), 'l', jsonArrayOf(`arrayFilter(x -> ${others.join(' AND ')}, ${distinctOf('l')})`));
  },
  set_difference: (_w, e, a) => {
    const others = e.args.slice(1).map((_, i) => `NOT ${containsJson(elements(a(i + 1)), 'x')}`);
    return bindSql(elements(a(0)), 'l', jsonArrayOf(`arrayFilter(x -> ${others.join(' AND ')}, ${distinctOf('l')})`));
  },
  set_has_element: (_w, _e, a) => `if(${isArray(a(0))}, ${containsJson(elements(a(0)), element(a(1)))}, NULL)`,
  range_of: (_w, e, a) => {
    const type = e.args[0]!.type;
    const count = type === 'real' ? `floor((${a(1)} - ${a(0)}) / ${a(2)})` : `intDiv(${a(1)} - ${a(0)}, ${a(2)})`;
    // At most 1,048,576 values, as Axiom documents.
    const n = `if(${a(2)} = 0 OR (${a(1)} - ${a(0)}) * sign(${a(2)}) < 0, 0, toUInt64(least(${count} + 1, 1048576)))`;
    const value = (i: string) => {
      if (type === 'datetime') return `toJSONString(${rfc3339Sql(`(${a(0)} + ${i} * ${a(2)})`)})`;
      if (type === 'timespan') return `toJSONString(${goDurationSql(`(${a(0)} + ${i} * ${a(2)})`)})`;
      if (type === 'real') return `toString(${a(0)} + ${i} * ${a(2)})`;
      return `toString(${a(0)} + ${i} * ${a(2)})`;
    };
    return `if(${a(0)} IS NULL OR ${a(1)} IS NULL OR ${a(2)} IS NULL, NULL, ${jsonArrayOf(`arrayMap(i -> ${value('toInt64(i)')}, range(${n}))`)})`;
  },
  pair: (_w, _e, a) => `if(${a(0)} IS NOT NULL AND ${a(1)} IS NOT NULL, ${pairObject(a(0), a(1), a(2))}, NULL)`,
  parse_pair: (_w, _e, a) => {
    const at = `position(${a(0)}, ${a(1)})`;
    // Text without the separator is all value, with an empty key.
    return `multiIf(${a(0)} IS NULL, NULL, ${a(1)} = '' OR ${at} = 0, ${pairObject(`''`, a(0), a(1))}, ${pairObject(`substring(${a(0)}, 1, ${at} - 1)`, `substring(${a(0)}, ${at} + length(${a(1)}))`, a(1))})`;
  },
  find_pair: (_w, e, a) => {
    const keyRegex = wildcardRegex(literalString(e.args[1]!), a(1));
    const valueRegex = wildcardRegex(literalString(e.args[2]!), a(2));
    const texts = `arrayMap(x -> JSONExtractString(x), arrayFilter(x -> ${jsonType('x')} = 'String', ${elements(a(0))}))`;
    const split = `arrayMap(t -> tuple(substring(t, 1, position(t, ${a(3)}) - 1), substring(t, position(t, ${a(3)}) + length(${a(3)}))), arrayFilter(t -> position(t, ${a(3)}) > 0, ${texts}))`;
    const match = `arrayFilter(p -> match(p.1, ${keyRegex}) AND match(p.2, ${valueRegex}), ${split})`;
    return `arrayElementOrNull(arrayMap(p -> ${pairObject('p.1', 'p.2', a(3))}, ${match}), 1)`;
  },
};
