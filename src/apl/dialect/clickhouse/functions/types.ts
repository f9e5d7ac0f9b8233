// Type tests that look inside values: valid UTF-8 text, and numbers with a Luhn checksum
// (card numbers of the known networks, IMEIs).
import { CARD_NETWORKS } from '../../functions/card-networks';
import type { RuleTable } from './rule';

/** The Luhn checksum over a string of digits: every second digit from the right doubled. */
function luhnSql(digits: string): string {
  const doubled = `if(i % 2 = 0, toInt64(c) * 2 - if(toInt64(c) * 2 > 9, 9, 0), toInt64(c))`;
  return `(arraySum(arrayMap((c, i) -> ${doubled}, arrayReverse(splitByString('', ${digits})), arrayEnumerate(splitByString('', ${digits})))) % 10 = 0)`;
}

export const TYPE_RULES: RuleTable = {
  // Text holds valid UTF-8 once stored; bytes that were not valid became U+FFFD at ingest.
  isutf8: (w, _e, a) => `ifNull(position(${a(0)}, ${w.constant('\uFFFD')}) = 0, false)`,
  luhn_number: (w, e, a) => {
    if (e.options?.kind === 'imei') return `ifNull(match(${a(0)}, '^[0-9]{15}$') AND ${luhnSql(a(0))}, false)`;
    const digits = `replaceRegexpAll(${a(0)}, '[ -]', '')`;
    return `ifNull(match(${digits}, ${w.constant(CARD_NETWORKS)}) AND ${luhnSql(digits)}, false)`;
  },
};
