// Conditionals and the null and emptiness tests.
import type { AplType } from '../../semantic/plan';
import type { RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

export function conditionalRules(sql: SqlSpelling): RuleTable {
  const isJsonNull = (x: string) => `${sql.jsonType(x)} = '${sql.jsonKind('NULL')}'`;
  const emptiness = (type: AplType, x: string) => {
    if (type === 'string') return `(${x} IS NULL OR ${x} = '')`;
    if (type === 'dynamic') return `(${x} IS NULL OR ${isJsonNull(x)} OR ${sql.asText(x)} IN ('""', '[]', '{}'))`;
    return `(${x} IS NULL)`;
  };
  return {
    isnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NULL OR ${isJsonNull(a(0))})` : `(${a(0)} IS NULL)`),
    isnotnull: (_w, e, a) =>
      e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NOT NULL AND ${sql.jsonType(a(0))} ${sql.notEqual} '${sql.jsonKind('NULL')}')` : `(${a(0)} IS NOT NULL)`,
    isempty: (_w, e, a) => emptiness(e.args[0]!.type, a(0)),
    isnotempty: (_w, e, a) => `(NOT ${emptiness(e.args[0]!.type, a(0))})`,

    iff: (_w, _e, a) => sql.iff(a(0), a(1), a(2)),
    case: (_w, e, a) => {
      const branches: [string, string][] = [];
      for (let i = 0; i + 1 < e.args.length; i += 2) branches.push([a(i), a(i + 1)]);
      return sql.caseWhen(branches, a(e.args.length - 1));
    },
    coalesce: (_w, e, a) => {
      // A string argument that is empty counts as missing, but for the last.
      const values = e.args.map((_, i) => (e.type === 'string' && i < e.args.length - 1 ? sql.call('nullif', a(i), `''`) : a(i)));
      return `coalesce(${values.join(', ')})`;
    },
  };
}
