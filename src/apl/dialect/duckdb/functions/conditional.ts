// Conditionals and the null and emptiness tests.
import type { AplType } from '../../../semantic/plan';
import type { RuleTable } from './rule';

function emptiness(type: AplType, x: string): string {
  if (type === 'string') return `(${x} IS NULL OR ${x} = '')`;
  if (type === 'dynamic') return `(${x} IS NULL OR json_type(${x}) = 'NULL' OR CAST(${x} AS VARCHAR) IN ('""', '[]', '{}'))`;
  return `(${x} IS NULL)`;
}


export const CONDITIONAL_RULES: RuleTable = {
  isnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NULL OR json_type(${a(0)}) = 'NULL')` : `(${a(0)} IS NULL)`),
  isnotnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NOT NULL AND json_type(${a(0)}) <> 'NULL')` : `(${a(0)} IS NOT NULL)`),
  isempty: (_w, e, a) => emptiness(e.args[0]!.type, a(0)),
  isnotempty: (_w, e, a) => `(NOT ${emptiness(e.args[0]!.type, a(0))})`,

  // ---- conditionals ----
  iff: (_w, _e, a) => `CASE WHEN ${a(0)} THEN ${a(1)} ELSE ${a(2)} END`,
  case: (_w, e, a) => {
    const parts: string[] = [];
    for (let i = 0; i + 1 < e.args.length; i += 2) parts.push(`WHEN ${a(i)} THEN ${a(i + 1)}`);
    return `CASE ${parts.join(' ')} ELSE ${a(e.args.length - 1)} END`;
  },
  coalesce: (_w, e, a) => {
    const values = e.args.map((_, i) => (e.type === 'string' && i < e.args.length - 1 ? `NULLIF(${a(i)}, '')` : a(i)));
    return `coalesce(${values.join(', ')})`;
  },
};
