// Arrays, property bags, sets, ranges and pairs over dynamic (JSON) values. An array is
// turned into a list of JSON elements, worked on with list functions and lambdas, and turned
// back into JSON.
import { goDurationSql, rfc3339Sql } from '../formatting';
import { literalString } from '../values';
import { bindSql, type RuleTable } from './rule';

/** The elements of a JSON array as a list, or null when the value is not an array. */
export const jsonList = (x: string) => `CASE WHEN json_type(${x}) = 'ARRAY' THEN CAST(${x} AS JSON[]) END`;

const NUMERIC_JSON = `('BIGINT', 'UBIGINT', 'DOUBLE')`;

/** A text key under which equal JSON values meet: numbers by value (1 and 1.0), the rest by text. */
export const jsonKey = (e: string) => `CASE WHEN json_type(${e}) IN ${NUMERIC_JSON} THEN CAST(CAST(${e} AS DOUBLE) AS VARCHAR) ELSE CAST(${e} AS VARCHAR) END`;

/** The distinct elements of a list of JSON values, in order of first appearance. */
const distinctOf = (list: string) => `list_filter(${list}, lambda e, i: list_position(list_transform(${list}, lambda x: ${jsonKey('x')}), ${jsonKey('e')}) = i)`;

const containsJson = (list: string, element: string) => `list_contains(list_transform(${list}, lambda x: ${jsonKey('x')}), ${jsonKey(element)})`;

/** A JSON path selecting one key of an object (`$."service.name"`). */
const keyPath = (key: string) => `concat('$.', to_json(${key}))`;

/** A wildcard pattern (`*` for any text) as an anchored regex. */
function wildcardRegex(pattern: string | undefined, sql: string): string {
  if (pattern !== undefined) return `'${('^' + pattern.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('.*') + '$').replaceAll("'", "''")}'`;
  return `concat('^', replace(regexp_escape(${sql}), '\\*', '.*'), '$')`;
}

const pairObject = (key: string, value: string, separator: string) => `json_object('key', ${key}, 'value', ${value}, 'separator', ${separator})`;

const EMPTY = `CAST('[]' AS JSON)`;

export const ARRAY_RULES: RuleTable = {
  dyn_len: (_w, _e, a) =>
    `CAST(CASE json_type(${a(0)}) WHEN 'ARRAY' THEN json_array_length(${a(0)}) WHEN 'VARCHAR' THEN length(json_extract_string(${a(0)}, '$')) END AS BIGINT)`,
  pack_array: (_w, e, a) => `json_array(${e.args.map((_, i) => a(i)).join(', ')})`,
  bag_pack: (w, e, a) => {
    const keys = e.options?.keys as string[];
    return `json_object(${keys.map((key, i) => `${w.constant(key)}, ${a(i)}`).join(', ')})`;
  },
  bag_pack_computed: (_w, e, a) => `try(json_object(${e.args.map((_, i) => a(i)).join(', ')}))`,
  array_concat: (_w, e, a) => {
    const lists = e.args.map((_, i) => jsonList(a(i)));
    // Any operand that is not an array makes the result null.
    return `CASE WHEN ${e.args.map((_, i) => `json_type(${a(i)}) = 'ARRAY'`).join(' AND ')} THEN to_json(${lists.reduce((acc, list) => `list_concat(${acc}, ${list})`)}) END`;
  },
  array_reverse: (_w, _e, a) => `to_json(list_reverse(${jsonList(a(0))}))`,
  array_rotate: (_w, _e, a) => {
    const l = jsonList(a(0));
    const n = `len(${l})`;
    const k = `CASE WHEN ${n} = 0 THEN 0 ELSE ((${a(1)} % ${n}) + ${n}) % ${n} END`;
    return `to_json(list_concat(list_slice(${l}, ${k} + 1, ${n}), list_slice(${l}, 1, ${k})))`;
  },
  array_shift: (_w, _e, a) =>
    bindSql(jsonList(a(0)), 'al', `to_json(list_transform(range(len(al)), lambda i: CASE WHEN i + ${a(1)} >= 0 AND i + ${a(1)} < len(al) THEN al[i + ${a(1)} + 1] ELSE ${a(2)} END))`),
  array_slice: (_w, _e, a) => {
    const l = jsonList(a(0));
    const at = (x: string) => `least(greatest(CASE WHEN ${x} < 0 THEN ${x} + len(${l}) ELSE ${x} END, 0), len(${l}))`;
    // The end index is exclusive, as Axiom documents.
    return `to_json(list_slice(${l}, ${at(a(1))} + 1, ${at(a(2))}))`;
  },
  array_split: (_w, _e, a) => {
    const l = 'al';
    const points = `list_sort(list_transform(list_filter(TRY_CAST(${a(1)} AS BIGINT[]), lambda p: p IS NOT NULL), lambda p: least(greatest(CASE WHEN p < 0 THEN p + len(${l}) ELSE p END, 0), len(${l}))))`;
    const bounds = `list_concat([0], ${points}, [len(${l})])`;
    const body = bindSql(bounds, 'ab', `to_json(list_transform(range(len(ab) - 1), lambda i: list_slice(${l}, ab[i + 1] + 1, ab[i + 2])))`);
    return `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN ${bindSql(jsonList(a(0)), 'al', body)} END`;
  },
  array_sort: (_w, e, a) => {
    const l = jsonList(a(0));
    const order = `'${e.options?.descending ? 'DESC' : 'ASC'}', 'NULLS ${e.options?.nullsLast === false ? 'FIRST' : 'LAST'}'`;
    const numeric = `list_bool_and(list_transform(${l}, lambda x: json_type(x) IN ${NUMERIC_JSON} OR json_type(x) = 'NULL'))`;
    const by = (key: string) => `list_transform(list_grade_up(list_transform(${l}, lambda x: ${key}), ${order}), lambda i: ${l}[i])`;
    return `coalesce(to_json(CASE WHEN len(${l}) = 0 THEN ${l} WHEN ${numeric} THEN ${by('TRY_CAST(x AS DOUBLE)')} ELSE ${by(`json_extract_string(x, '$')`)} END), ${EMPTY})`;
  },
  array_sum: (_w, _e, a) => `list_sum(list_transform(list_filter(${jsonList(a(0))}, lambda x: json_type(x) IN ${NUMERIC_JSON}), lambda x: CAST(x AS DOUBLE)))`,
  array_index_of: (_w, _e, a) => {
    const l = 'al';
    const from = `(CASE WHEN ${a(2)} < 0 THEN greatest(len(${l}) + ${a(2)}, 0) ELSE ${a(2)} END)`;
    const upto = `(CASE WHEN ${a(3)} = -1 THEN len(${l}) ELSE least(${from} + ${a(3)}, len(${l})) END)`;
    const hits = `list_filter(range(${from}, greatest(${upto}, ${from})), lambda i: ${jsonKey(`${l}[i + 1]`)} = ${jsonKey(a(1))})`;
    return bindSql(jsonList(a(0)), 'al', `CASE WHEN ${l} IS NULL OR ${a(3)} < -1 OR ${a(4)} < 1 THEN NULL ELSE CAST(coalesce(${hits}[${a(4)}], -1) AS BIGINT) END`);
  },
  array_iff: (_w, _e, a) => {
    const conditions = 'ac';
    const pick = (x: string) => `CASE WHEN json_type(${x}) = 'ARRAY' THEN json_extract(${x}, concat('$[', CAST(i AS VARCHAR), ']')) ELSE ${x} END`;
    return bindSql(jsonList(a(0)), 'ac', `to_json(list_transform(range(len(${conditions})), lambda i: CASE CAST(${conditions}[i + 1] AS VARCHAR) WHEN 'true' THEN ${pick(a(1))} WHEN 'false' THEN ${pick(a(2))} END))`);
  },
  array_select_dict: (w, e, a) => {
    const key = literalString(e.args[1]!);
    const path = key !== undefined ? w.constant(`$.${JSON.stringify(key)}`) : keyPath(a(1));
    return `list_filter(${jsonList(a(0))}, lambda x: json_type(x) = 'OBJECT' AND ${jsonKey(`json_extract(x, ${path})`)} = ${jsonKey(a(2))})[1]`;
  },
  array_extract: (w, e, a) => {
    const path = String(e.options?.path);
    const found = path.includes('*') ? `json_extract(${a(0)}, ${w.constant(path)})` : `[json_extract(${a(0)}, ${w.constant(path)})]`;
    // Matches come back as text, as Axiom documents ("true", "1").
    return `CASE WHEN ${a(0)} IS NOT NULL THEN coalesce(to_json(list_transform(list_filter(${found}, lambda x: x IS NOT NULL), lambda x: json_extract_string(x, '$'))), ${EMPTY}) END`;
  },
  strcat_array: (_w, _e, a) => `array_to_string(list_transform(${jsonList(a(0))}, lambda x: coalesce(json_extract_string(x, '$'), '')), ${a(1)})`,
  bag_has_key: (w, e, a) => {
    const key = literalString(e.args[1]!);
    const path = key !== undefined ? w.constant(key.startsWith('$') ? key : `$.${JSON.stringify(key)}`) : `CASE WHEN starts_with(${a(1)}, '$') THEN ${a(1)} ELSE ${keyPath(a(1))} END`;
    return `coalesce(json_type(${a(0)}) = 'OBJECT' AND try(json_exists(${a(0)}, ${path})), false)`;
  },
  bag_keys: (_w, _e, a) => `CASE WHEN json_type(${a(0)}) = 'OBJECT' THEN to_json(json_keys(${a(0)})) END`,
  bag_zip: (_w, _e, a) => {
    const keys = jsonList(a(0));
    const values = jsonList(a(1));
    const entries = `list_transform(range(least(len(${keys}), len(${values}))), lambda i: {'k': json_extract_string(${keys}[i + 1], '$'), 'v': ${values}[i + 1], 'ok': json_type(${keys}[i + 1]) = 'VARCHAR'})`;
    // Keys that are not strings are skipped; a repeated key keeps its first value.
    const kept = `list_filter(${entries}, lambda x, i: x.ok AND list_position(list_transform(${entries}, lambda y: y.k), x.k) = i)`;
    return `CASE WHEN ${keys} IS NOT NULL AND ${values} IS NOT NULL THEN CAST(to_json(map_from_entries(list_transform(${kept}, lambda x: {'k': x.k, 'v': x.v}))) AS JSON) END`;
  },
  set_union: (_w, e, a) => {
    const all = e.args.map((_, i) => jsonList(a(i))).reduce((acc, list) => `list_concat(${acc}, ${list})`);
    return `to_json(${distinctOf(all)})`;
  },
  set_intersect: (_w, e, a) => {
    const others = e.args.slice(1).map((_, i) => containsJson(jsonList(a(i + 1)), 'x'));
    return `to_json(list_filter(${distinctOf(jsonList(a(0)))}, lambda x: ${others.join(' AND ')}))`;
  },
  set_difference: (_w, e, a) => {
    const others = e.args.slice(1).map((_, i) => `NOT coalesce(${containsJson(jsonList(a(i + 1)), 'x')}, false)`);
    return `to_json(list_filter(${distinctOf(jsonList(a(0)))}, lambda x: ${others.join(' AND ')}))`;
  },
  set_has_element: (_w, _e, a) => containsJson(jsonList(a(0)), a(1)),
  range_of: (_w, e, a) => {
    const type = e.args[0]!.type;
    const span = (x: string) => (type === 'datetime' ? `epoch_ns(${x})` : x);
    const count = type === 'real' ? `floor((${a(1)} - ${a(0)}) / ${a(2)})` : `((${span(a(1))} - ${span(a(0))}) // ${a(2)})`;
    // At most 1,048,576 values, as Axiom documents.
    const n = `CASE WHEN ${a(2)} = 0 OR (${span(a(1))} - ${span(a(0))}) * sign(${a(2)}) < 0 THEN 0 ELSE CAST(least(${count} + 1, 1048576) AS BIGINT) END`;
    const value = (i: string) => {
      if (type === 'datetime') return rfc3339Sql(`make_timestamp_ns(epoch_ns(${a(0)}) + ${i} * ${a(2)})`);
      if (type === 'timespan') return goDurationSql(`(${a(0)} + ${i} * ${a(2)})`);
      return `(${a(0)} + ${i} * ${a(2)})`;
    };
    return `to_json(list_transform(range(${n}), lambda i: ${value('i')}))`;
  },
  pair: (_w, _e, a) => `CASE WHEN ${a(0)} IS NOT NULL AND ${a(1)} IS NOT NULL THEN ${pairObject(a(0), a(1), a(2))} END`,
  parse_pair: (_w, _e, a) => {
    const at = `strpos(${a(0)}, ${a(1)})`;
    // Text without the separator is all value, with an empty key.
    return `CASE WHEN ${a(0)} IS NULL THEN NULL WHEN ${a(1)} = '' OR ${at} = 0 THEN ${pairObject(`''`, a(0), a(1))} ELSE ${pairObject(`left(${a(0)}, ${at} - 1)`, `substring(${a(0)}, ${at} + length(${a(1)}))`, a(1))} END`;
  },
  find_pair: (_w, e, a) => {
    const keyRegex = wildcardRegex(literalString(e.args[1]!), a(1));
    const valueRegex = wildcardRegex(literalString(e.args[2]!), a(2));
    const split = `list_transform(list_filter(${jsonList(a(0))}, lambda x: json_type(x) = 'VARCHAR' AND strpos(json_extract_string(x, '$'), ${a(3)}) > 0), lambda x: {'k': split_part(json_extract_string(x, '$'), ${a(3)}, 1), 'v': substring(json_extract_string(x, '$'), strpos(json_extract_string(x, '$'), ${a(3)}) + length(${a(3)}))})`;
    const match = `list_filter(${split}, lambda p: regexp_full_match(p.k, ${keyRegex}) AND regexp_full_match(p.v, ${valueRegex}))`;
    return `list_transform(${match}, lambda p: ${pairObject('p.k', 'p.v', a(3))})[1]`;
  },
};
