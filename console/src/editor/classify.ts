// Gives each scanned token its role for highlighting. The words come from the engine's own
// tables: operator names and the clause words of their syntax (`by`, `on`, `kind`, `asc`...) from
// the operator catalog, the word operators (`contains`, `has`, `between`...) from the parser's
// scalar operator groups. A name followed by `(` is a function; `['name']` at a source is a dataset.
import { SCALAR_OPERATOR_GROUPS } from '@server/apl/syntax/parser';
import { OPERATOR_CATALOG } from '@server/apl/syntax/operators';
import type { ScannedToken } from './tokens';

export type TokenRole = 'keyword' | 'operator' | 'string' | 'number' | 'comment' | 'dataset' | 'function' | 'literal' | 'invalid';

const lower = (word: string) => word.toLowerCase();

/** Operator names that may follow a pipe. */
const TABULAR_WORDS = new Set(OPERATOR_CATALOG.filter((entry) => entry.category === 'tabular').flatMap((entry) => [entry.name, ...(entry.aliases ?? [])]).map(lower));

/** Statements and sources that begin a statement. */
const LEADING_WORDS = new Set(OPERATOR_CATALOG.filter((entry) => entry.category !== 'tabular' && entry.name !== 'dataset').map((entry) => lower(entry.name)));

/** Lowercase words of the operators' syntax (placeholders there are capitalized). */
const CLAUSE_WORDS = new Set(OPERATOR_CATALOG.flatMap((entry) => entry.syntax.match(/(?<![\w$.])[a-z][a-z_]*(?:-[a-z]+)?(?![\w(])/g) ?? []));

/** Word operators between scalars (`matches regex` counts as two words). */
const WORD_OPERATORS = new Set(
  SCALAR_OPERATOR_GROUPS.flatMap((group) => group.operators)
    .flatMap((op) => op.split(' '))
    .filter((op) => /^!?[a-z]/.test(op)),
);

const LITERALS = new Set(['true', 'false', 'null']);

/** True when `[` at `index` opens a dataset reference rather than an index or a literal list. */
function opensDataset(tokens: ScannedToken[], index: number): boolean {
  const before = tokens[index - 1];
  const inside = tokens[index + 1];
  const after = tokens[index + 2];
  if (inside?.kind !== 'string' || after?.kind !== 'operator' || after.text !== ']') return false;
  if (!before) return true;
  if (before.kind === 'identifier') return ['union', 'join', 'lookup', 'in'].includes(lower(before.text)) || TABULAR_WORDS.has(lower(before.text));
  return before.kind === 'operator' && ['|', '(', ',', ';', '='].includes(before.text);
}

function identifierRole(tokens: ScannedToken[], index: number): TokenRole | undefined {
  const token = tokens[index]!;
  const word = lower(token.text);
  const before = tokens[index - 1];
  const next = tokens[index + 1];
  const afterPipe = before?.kind === 'operator' && before.text === '|';
  if (afterPipe && TABULAR_WORDS.has(word)) return 'keyword';
  const statementStart = !before || (before.kind === 'operator' && before.text === ';');
  if (statementStart && LEADING_WORDS.has(word)) return 'keyword';
  if (next?.kind === 'operator' && next.text === '(' && !(before?.kind === 'operator' && before.text === '.')) return 'function';
  if (WORD_OPERATORS.has(word)) return 'operator';
  if (LITERALS.has(word)) return 'literal';
  if (CLAUSE_WORDS.has(word) && !(before?.kind === 'operator' && before.text === '.')) return 'keyword';
  return undefined;
}

/** The role of every token worth coloring, as document ranges in order. */
export function classify(tokens: ScannedToken[]): { from: number; to: number; role: TokenRole }[] {
  const ranges: { from: number; to: number; role: TokenRole }[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    let role: TokenRole | undefined;
    switch (token.kind) {
      case 'string':
        role = 'string';
        break;
      case 'number':
      case 'timespan':
        role = 'number';
        break;
      case 'comment':
        role = 'comment';
        break;
      case 'invalid':
        role = 'invalid';
        break;
      case 'identifier':
        role = identifierRole(tokens, index);
        break;
      case 'operator':
        if (token.text === '[' && opensDataset(tokens, index)) {
          ranges.push({ from: token.from, to: tokens[index + 2]!.to, role: 'dataset' });
          index += 2;
          continue;
        }
        if (token.text === '|') role = 'keyword';
        else if (/^!?[a-z]/i.test(token.text) || token.text === 'in~') role = 'operator';
        break;
    }
    if (role && token.to > token.from) ranges.push({ from: token.from, to: token.to, role });
  }
  return ranges;
}
