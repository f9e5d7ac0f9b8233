// Dynamic values (JSON text): paths and indexes, runtime types, and the struct and parse
// helpers of summarize and parse. Canonical JSON (dynamic_to_json) and the SQL grammar of
// parse_sql/format_sql are answered by the server (../server-calls.ts).
import { answeredByServer } from '../server-calls';
import { jsonMember, jsonType } from './json';
import type { RuleTable } from './rule';

export const DYNAMIC_RULES: RuleTable = {
  gettype_dynamic: (_w, _e, a) =>
    `multiIf(${jsonType(a(0))} = 'String', 'string', ${jsonType(a(0))} IN ('Int64', 'UInt64'), 'long', ${jsonType(a(0))} = 'Double', 'real', ${jsonType(a(0))} = 'Bool', 'bool', ${jsonType(a(0))} = 'Array', 'array', ${jsonType(a(0))} = 'Object', 'dictionary', 'null')`,

  dyn_get: (w, e, a) => {
    const path = (e.options?.path as (string | number)[]).map((s) => (typeof s === 'number' ? String(s + 1) : w.constant(String(s))));
    return `nullIf(JSONExtractRaw(${a(0)}, ${path.join(', ')}), '')`;
  },
  dyn_index: (_w, e, a) => {
    if (e.args[1]!.type === 'string') return jsonMember(a(0), a(1));
    return `if(${a(1)} < 0, NULL, ${jsonMember(a(0), `${a(1)} + 1`)})`;
  },
  struct_field: (_w, e, a) => `tupleElement(${a(0)}, ${Number(String(e.options?.field).slice(1)) + 1})`,
  parse_group: (w, e, a) => {
    const regex = w.constant(String(e.options?.regex));
    return `if(match(${a(0)}, ${regex}), regexpExtract(${a(0)}, ${regex}, ${Number(e.options?.group)}), NULL)`;
  },
  json_canonical: answeredByServer,
  parse_sql: answeredByServer,
  format_sql: answeredByServer,
};
