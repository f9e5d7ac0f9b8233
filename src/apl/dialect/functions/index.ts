// The function families written once for every engine, and how an engine's registry is laid
// over them: an engine's table for a family adds the rules only it has and replaces the shared
// ones whose meaning differs there.
import { arrayRules } from './arrays';
import { conditionalRules } from './conditional';
import { datetimeRules } from './datetime';
import { mathRules } from './math';
import { operatorRules } from './operators';
import { roundingRules } from './rounding';
import type { ConstantWriter, RuleTable } from './rule';
import type { SqlSpelling } from './spelling';
import { stringRules } from './strings';

/** The shared families by family name, in an engine's spelling. */
export function sharedFamilies(sql: SqlSpelling): Record<string, RuleTable> {
  return {
    operators: operatorRules(sql),
    conditional: conditionalRules(sql),
    math: mathRules(sql),
    rounding: roundingRules(sql),
    datetime: datetimeRules(sql),
    arrays: arrayRules(sql),
    strings: stringRules(sql),
  };
}

/** Every family of an engine: the shared ones in its spelling, with its own tables laid over. */
export function engineFamilies<W extends ConstantWriter>(sql: SqlSpelling, own: Readonly<Record<string, RuleTable<W>>>): Record<string, RuleTable<W>> {
  const families: Record<string, RuleTable<W>> = sharedFamilies(sql);
  for (const [family, table] of Object.entries(own)) families[family] = { ...families[family], ...table };
  return families;
}
