// Dynamic values (JSON): paths, indexes, arrays and property bags, runtime types, and the
// struct and parse helpers of summarize and parse.
import type { RuleTable } from './rule';

export const DYNAMIC_RULES: RuleTable = {
  dyn_get: (w, e, a) => {
    const path = (e.options?.path as (string | number)[]).map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1'));
    return `json_extract(${a(0)}, ${w.constant('/' + path.join('/'))})`;
  },
  dyn_index: (_w, e, a) => {
    if (e.args[1]!.type === 'string') return `json_extract(${a(0)}, concat('/', replace(replace(${a(1)}, '~', '~0'), '/', '~1')))`;
    return `json_extract(${a(0)}, concat('$[', CAST(${a(1)} AS VARCHAR), ']'))`;
  },
  array_length: (_w, _e, a) => `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN CAST(json_array_length(${a(0)}) AS BIGINT) END`,
  pack_array: (_w, e, a) => `json_array(${e.args.map((_, i) => a(i)).join(', ')})`,
  bag_pack: (w, e, a) => {
    const keys = e.options?.keys as string[];
    return `json_object(${keys.map((key, i) => `${w.constant(key)}, ${a(i)}`).join(', ')})`;
  },
  struct_field: (w, e, a) => `struct_extract(${a(0)}, ${w.constant(String(e.options?.field))})`,
  parse_group: (w, e, a) => {
    const regex = w.constant(String(e.options?.regex));
    return `CASE WHEN regexp_matches(${a(0)}, ${regex}) THEN regexp_extract(${a(0)}, ${regex}, ${Number(e.options?.group)}) END`;
  },
  gettype_dynamic: (_w, _e, a) =>
    `CASE json_type(${a(0)}) WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'long' WHEN 'UBIGINT' THEN 'long' WHEN 'DOUBLE' THEN 'real' WHEN 'BOOLEAN' THEN 'bool' WHEN 'ARRAY' THEN 'array' WHEN 'OBJECT' THEN 'dictionary' WHEN 'NULL' THEN 'null' ELSE 'null' END`,
};
