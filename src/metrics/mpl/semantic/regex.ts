// Regular expressions in MPL are RE2-style (as the engine runs them). This checks a pattern
// before it reaches the engine, so a mistake is a positioned 400 rather than a failed query.
import { type Position, semanticError } from '../../../apl/syntax/position';

const UNSUPPORTED: [RegExp, string][] = [
  [/\(\?[=!]/, 'lookahead (?= / (?!'],
  [/\(\?<[=!]/, 'lookbehind (?<= / (?<!'],
  [/\\[1-9]/, 'backreferences (\\1)'],
];

export function checkRegex(pattern: string, at: Position): void {
  for (const [shape, what] of UNSUPPORTED) {
    if (shape.test(pattern)) throw semanticError(at, `regular expression #/${pattern}/ uses ${what}, which MPL regular expressions do not support`);
  }
  try {
    // Named groups are written (?P<name>...) in RE2; JavaScript spells them (?<name>...).
    new RegExp(pattern.replaceAll('(?P<', '(?<'), 'u');
  } catch (error) {
    throw semanticError(at, `invalid regular expression #/${pattern}/: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

/** A replacement template in the engine's spelling: `$1` and `${1}` become `\1`. */
export function replacementTemplate(replacement: string): string {
  return replacement.replace(/\\/g, '\\\\').replace(/\$\{(\d)\}|\$(\d)/g, (_, braced: string | undefined, bare: string | undefined) => `\\${braced ?? bare}`);
}
