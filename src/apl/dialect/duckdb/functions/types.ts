// Type tests that look inside values: valid UTF-8 text, and numbers with a Luhn checksum
// (card numbers of the known networks, IMEIs).
import { CARD_NETWORKS } from '../../functions/card-networks';
import type { RuleTable } from './rule';

/** The Luhn checksum over a string of digits: every second digit from the right doubled. */
function luhnSql(digits: string): string {
  const doubled = `CASE WHEN i % 2 = 0 THEN CAST(c AS INTEGER) * 2 - CASE WHEN CAST(c AS INTEGER) * 2 > 9 THEN 9 ELSE 0 END ELSE CAST(c AS INTEGER) END`;
  return `(list_sum(list_transform(list_reverse(regexp_split_to_array(${digits}, '')), lambda c, i: ${doubled})) % 10 = 0)`;
}

export const TYPE_RULES: RuleTable = {
  // Text holds valid UTF-8 once stored; bytes that were not valid became U+FFFD at ingest.
  isutf8: (_w, _e, a) => `coalesce(NOT contains(${a(0)}, chr(65533)), false)`,
  luhn_number: (_w, e, a) => {
    if (e.options?.kind === 'imei') return `coalesce(regexp_full_match(${a(0)}, '[0-9]{15}') AND ${luhnSql(a(0))}, false)`;
    const digits = `regexp_replace(${a(0)}, '[ -]', '', 'g')`;
    return `coalesce(regexp_matches(${digits}, '${CARD_NETWORKS}') AND ${luhnSql(digits)}, false)`;
  },
};
