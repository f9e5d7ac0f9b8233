// The regular expression a `parse` or `parse-where` pattern compiles to, shared by both
// operators: text, `*` and typed columns in simple, relaxed or regex mode.
import type { ParsePart } from '../syntax/ast';
import type { AplType } from './plan';
import { PARSE_TYPES } from './type-names';

const GROUP_PATTERNS: Partial<Record<AplType, string>> = {
  int: '(-?\\d+)',
  real: '(-?\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?)',
  bool: '(true|false|True|False|TRUE|FALSE|1|0)',
};

/**
 * The regular expression of a parse pattern. Simple mode anchors at the start, escapes the
 * text, and lets typed columns match only values of their type; relaxed mode captures
 * anything and leaves values that do not convert null; regex mode takes the text as regex.
 */
export function parsePattern(parts: ParsePart[], mode: 'simple' | 'regex' | 'relaxed'): { regex: string; columns: Extract<ParsePart, { kind: 'column' }>[] } {
  const columns: Extract<ParsePart, { kind: 'column' }>[] = [];
  let regex = mode === 'regex' ? '' : '^';
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part.kind === 'star') regex += last ? '.*' : '.*?';
    else if (part.kind === 'text') regex += mode === 'regex' ? part.value : part.value.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
    else {
      columns.push(part);
      const type = part.type ? PARSE_TYPES[part.type] : 'string';
      const typed = mode === 'relaxed' ? undefined : type && GROUP_PATTERNS[type];
      regex += typed ?? (last ? '(.*)' : '(.*?)');
    }
  });
  return { regex, columns };
}
