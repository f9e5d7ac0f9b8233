// Dynamic values (JSON): paths and indexes, runtime types, and the
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
  struct_field: (w, e, a) => `struct_extract(${a(0)}, ${w.constant(String(e.options?.field))})`,
  parse_group: (w, e, a) => {
    const regex = w.constant(String(e.options?.regex));
    return `CASE WHEN regexp_matches(${a(0)}, ${regex}) THEN regexp_extract(${a(0)}, ${regex}, ${Number(e.options?.group)}) END`;
  },
  gettype_dynamic: (_w, _e, a) =>
    `CASE json_type(${a(0)}) WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'long' WHEN 'UBIGINT' THEN 'long' WHEN 'DOUBLE' THEN 'real' WHEN 'BOOLEAN' THEN 'bool' WHEN 'ARRAY' THEN 'array' WHEN 'OBJECT' THEN 'dictionary' WHEN 'NULL' THEN 'null' ELSE 'null' END`,
};
