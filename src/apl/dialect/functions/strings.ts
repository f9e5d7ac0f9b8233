// The string functions that read the same on every engine, once the engine's names (UTF-8
// aware ones on ClickHouse) and regex functions are spelled; the rest of the family is each
// engine's own.
import { literalString, type RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

export function stringRules(sql: SqlSpelling): RuleTable {
  return {
    strlen: (_w, _e, a) => sql.toBigint(sql.call('length', a(0))),
    tolower: (_w, _e, a) => sql.call('lower', a(0)),
    toupper: (_w, _e, a) => sql.call('upper', a(0)),
    reverse: (_w, _e, a) => sql.call('reverse', a(0)),
    isascii: (w, _e, a) => `NOT ${sql.regexMatches(a(0), w.constant('[^\\x00-\\x7f]'))}`,
    substring: (_w, e, a) => {
      const start = `greatest(${a(1)}, 0) + 1`;
      return e.args.length > 2 ? sql.call('substring', a(0), start, `greatest(${a(2)}, 0)`) : sql.call('substring', a(0), start);
    },
    strcmp: (_w, _e, a) =>
      sql.caseWhen(
        [
          [`${a(0)} < ${a(1)}`, '-1'],
          [`${a(0)} > ${a(1)}`, '1'],
          [`${a(0)} = ${a(1)}`, '0'],
        ],
        undefined,
      ),
    replace_string: (_w, _e, a) => sql.iff(`${a(1)} = ''`, a(0), sql.call('replace', a(0), a(1), a(2))),
    trim_regex: (w, e, a) => {
      const text = literalString(e.args[1]!);
      const side = e.options?.side;
      const leading = text !== undefined ? w.constant(`^(?:${text})+`) : `concat('^(?:', ${a(1)}, ')+')`;
      const trailing = text !== undefined ? w.constant(`(?:${text})+$`) : `concat('(?:', ${a(1)}, ')+$')`;
      let trimmed = a(0);
      if (side !== 'end') trimmed = sql.regexReplaceFirst(trimmed, leading, `''`);
      if (side !== 'start') trimmed = sql.regexReplaceFirst(trimmed, trailing, `''`);
      return text !== undefined ? trimmed : sql.perRowRegex(trimmed);
    },
  };
}
