// `set Name [= Value];` statements: the query options this engine knows. An unknown option is
// refused rather than silently ignored, so a query never runs with a setting it did not get.
import type { SetOption } from '../../syntax/ast';
import { semanticError } from '../../syntax/position';
import type { Analyzer } from '../analyzer';

const OPTIONS: Record<string, (analyzer: Analyzer, value: boolean) => void> = {
  stricttypes: (analyzer, value) => {
    analyzer.strictTypes = value;
  },
};

export function applyQueryOption(analyzer: Analyzer, option: SetOption): void {
  const apply = OPTIONS[option.name.toLowerCase()];
  if (!apply) throw semanticError(option.pos, `unknown query option "${option.name}"; this server supports: ${Object.keys(OPTIONS).join(', ')}`, { option: option.name });
  let value = true;
  if (option.value) {
    const given = option.value;
    if (given.kind !== 'literal' || given.value.type !== 'bool') throw semanticError(given.pos, `the option ${option.name} takes true or false`);
    value = given.value.value;
  }
  apply(analyzer, value);
}
