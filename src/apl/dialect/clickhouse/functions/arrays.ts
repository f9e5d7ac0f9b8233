// Arrays, property bags, sets, ranges and pairs over dynamic (JSON text) values.
import { jsonType } from './json';
import type { RuleTable } from './rule';

export const ARRAY_RULES: RuleTable = {
  array_length: (_w, _e, a) => `if(${jsonType(a(0))} = 'Array', toInt64(JSONLength(${a(0)})), NULL)`,
  pack_array: (_w, e, a) => `concat('[', ${e.args.map((_, i) => `ifNull(${a(i)}, 'null')`).join(", ',', ")}, ']')`,
  bag_pack: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `'{}'`;
    const entries = keys.map((key, i) => `${w.constant(JSON.stringify(key) + ':')}, ifNull(${a(i)}, 'null')`);
    return `concat('{', ${entries.join(", ',', ")}, '}')`;
  },
};
