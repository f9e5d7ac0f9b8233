// Conditionals and the null and emptiness tests.
import type { AplType } from '../../../semantic/plan';
import { jsonType } from './json';
import type { RuleTable } from './rule';

function emptiness(type: AplType, x: string): string {
  if (type === 'string') return `(${x} IS NULL OR ${x} = '')`;
  if (type === 'dynamic') return `(${x} IS NULL OR ${jsonType(x)} = 'Null' OR ${x} IN ('""', '[]', '{}'))`;
  return `(${x} IS NULL)`;
}

export const CONDITIONAL_RULES: RuleTable = {
  isnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NULL OR ${jsonType(a(0))} = 'Null')` : `(${a(0)} IS NULL)`),
  isnotnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NOT NULL AND ${jsonType(a(0))} != 'Null')` : `(${a(0)} IS NOT NULL)`),
  isempty: (_w, e, a) => emptiness(e.args[0]!.type, a(0)),
  isnotempty: (_w, e, a) => `(NOT ${emptiness(e.args[0]!.type, a(0))})`,

  // ---- conditionals ----
  iff: (_w, _e, a) => `if(${a(0)}, ${a(1)}, ${a(2)})`,
  case: (_w, e, a) => {
    const parts: string[] = [];
    for (let i = 0; i + 1 < e.args.length; i += 2) parts.push(`${a(i)}, ${a(i + 1)}`);
    return `multiIf(${parts.join(', ')}, ${a(e.args.length - 1)})`;
  },
  coalesce: (_w, e, a) => {
    const values = e.args.map((_, i) => (e.type === 'string' && i < e.args.length - 1 ? `nullIf(${a(i)}, '')` : a(i)));
    return `coalesce(${values.join(', ')})`;
  },
  // Nulls are left out, as DuckDB's least and greatest do: each argument stands in for a null one.
};
