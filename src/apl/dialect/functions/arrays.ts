// The array and bag rules that read the same on every engine: tests of a dynamic value's kind.
// Walking arrays is each engine's own (lists of JSON values, or of JSON texts).
import type { RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

export function arrayRules(sql: SqlSpelling): RuleTable {
  const isArray = (x: string) => `${sql.jsonType(x)} = '${sql.jsonKind('ARRAY')}'`;
  return {
    array_length: (_w, _e, a) => sql.nullUnless(isArray(a(0)), sql.toBigint(sql.call('json_array_length', a(0)))),
    is_json_kind: (_w, e, a) => {
      const kinds = (e.options?.kinds as string[]).map((kind) => `'${sql.jsonKind(kind)}'`);
      return sql.ifNull(`${sql.jsonType(a(0))} IN (${kinds.join(', ')})`, 'false');
    },
  };
}
