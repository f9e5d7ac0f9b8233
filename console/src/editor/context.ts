// Decides what may be typed at the cursor, from the tokens before it: a dataset (at the start of
// a statement, inside `['…`, after join/union/lookup), a tabular operator (after `|`), an
// aggregation (in summarize before `by`), a scalar operator (after an operand) or a field or
// function (in an expression). Pipes inside parentheses start pipelines of their own.
import { type ScannedToken, scanTokens } from './tokens';

export type CursorContext =
  | { kind: 'none' }
  /** Inside `[` or `['` where a dataset is read; `quote` is the quote typed, if any. */
  | { kind: 'dataset-bracket'; from: number; quote: string }
  /** The start of a statement: a dataset, a statement or a source. */
  | { kind: 'source'; from: number }
  /** The table of join, lookup or union. */
  | { kind: 'table'; from: number }
  /** Right after `|`. */
  | { kind: 'tabular'; from: number }
  /** Where summarize and make-series take an aggregation. */
  | { kind: 'aggregation'; from: number }
  /** After an operand: a scalar operator, or a clause word of the operator (`by`, `asc`...). */
  | { kind: 'after-operand'; from: number; operator: string | undefined }
  /** A field, a function or a name the query defines. */
  | { kind: 'expression'; from: number; operator: string | undefined };

type Position = 'source' | 'table' | 'tabular' | 'aggregation' | 'after-operand' | 'expression';

const TABLE_OPERATORS = new Set(['join', 'lookup', 'union']);
const AGGREGATING_OPERATORS: Record<string, string> = { summarize: 'by', 'make-series': 'on' };
const CLAUSE_AFTER_OPERAND = new Set(['by', 'on', 'and', 'or', 'not', 'asc', 'desc', 'with', 'of', 'to', 'from', 'step', 'in', 'between']);

const isOp = (token: ScannedToken | undefined, ...texts: string[]) => token?.kind === 'operator' && texts.includes(token.text);
const word = (token: ScannedToken | undefined) => (token?.kind === 'identifier' ? token.text.toLowerCase() : undefined);

/** True when a token ends an operand, so that what follows is an operator. */
function endsOperand(token: ScannedToken | undefined): boolean {
  if (!token) return false;
  if (token.kind === 'string' || token.kind === 'number' || token.kind === 'timespan') return true;
  if (token.kind === 'identifier') return !CLAUSE_AFTER_OPERAND.has(token.text.toLowerCase());
  return isOp(token, ')', ']');
}

/** Skips `name = value` options (kind=inner, withsource=T) backwards from `end`; returns the new end. */
function skipOptionsBackwards(tokens: ScannedToken[], end: number): number {
  while (end >= 3 && isOp(tokens[end - 2], '=') && tokens[end - 3]?.kind === 'identifier' && tokens[end - 1]?.kind !== 'operator') end -= 3;
  return end;
}

/** What the grammar expects after `tokens` (comments excluded), in query or predicate text. */
function positionAfter(tokens: ScannedToken[], mode: 'query' | 'predicate'): { position: Position; operator: string | undefined } {
  const last = tokens[tokens.length - 1];
  if (mode === 'predicate') {
    return { position: endsOperand(last) ? 'after-operand' : 'expression', operator: undefined };
  }
  // The token that opened the current pipeline segment, per nesting level (-1: the statement's start).
  const openers: number[] = [-1];
  tokens.forEach((token, index) => {
    if (isOp(token, '(', '[', '{')) openers.push(index);
    else if (isOp(token, ')', ']', '}')) {
      if (openers.length > 1) openers.pop();
    } else if (isOp(token, '|')) openers[openers.length - 1] = index;
    else if (isOp(token, ';') && openers.length === 1) openers[0] = index;
  });
  const openerIndex = openers[openers.length - 1]!;
  const opener = tokens[openerIndex];
  const segment = tokens.slice(openerIndex + 1);
  const nested = openers.length > 1;

  if (segment.length === 0) {
    if (!opener || isOp(opener, ';')) return { position: 'source', operator: undefined };
    if (isOp(opener, '|')) return { position: 'tabular', operator: undefined };
    if (isOp(opener, '(')) {
      const before = skipOptionsBackwards(tokens, openerIndex);
      if (TABLE_OPERATORS.has(word(tokens[before - 1]) ?? '')) return { position: 'table', operator: undefined };
    }
  }

  // Inside a parenthesized expression, the operator whose segment holds the parentheses decides.
  const operator = nested && !isOp(opener, '|') ? enclosingOperator(tokens, openers) : word(segment[0]);
  const afterOperand = endsOperand(last) && !(last === segment[0] && !nested && !isOp(opener, '(', '['));

  if (!nested || isOp(opener, '|')) {
    if (operator && TABLE_OPERATORS.has(operator)) {
      const end = skipOptionsBackwards(tokens, tokens.length);
      if (end === openerIndex + 2 || (operator === 'union' && isOp(tokens[end - 1], ','))) return { position: 'table', operator };
    }
    const clause = operator ? AGGREGATING_OPERATORS[operator] : undefined;
    if (clause && !segment.some((token) => word(token) === clause)) {
      if (segment.length === 1 || isOp(last, ',', '=')) return { position: 'aggregation', operator };
    }
  }
  return { position: afterOperand ? 'after-operand' : 'expression', operator };
}

/** The operator of the nearest enclosing pipeline segment, for tokens inside parentheses. */
function enclosingOperator(tokens: ScannedToken[], openers: number[]): string | undefined {
  for (let level = openers.length - 2; level >= 0; level--) {
    const start = openers[level]!;
    const first = tokens[start + 1];
    if (isOp(tokens[start], '|') || start === -1 || isOp(tokens[start], ';')) return word(first);
  }
  return undefined;
}

const DATASET_POSITIONS = new Set<Position>(['source', 'table']);

export function cursorContext(text: string, cursor: number, mode: 'query' | 'predicate'): CursorContext {
  const before = text.slice(0, cursor);
  const meaningful = (upTo: number) => scanTokens(before.slice(0, upTo)).filter((token) => token.kind !== 'comment');

  const bracket = mode === 'query' ? /\[\s*(['"]?)([^'"[\]\n]*)$/.exec(before) : null;
  if (bracket && DATASET_POSITIONS.has(positionAfter(meaningful(bracket.index), mode).position)) {
    return { kind: 'dataset-bracket', from: cursor - bracket[2]!.length, quote: bracket[1]! };
  }

  // Nothing to offer inside a comment, a string or a number.
  const all = scanTokens(before);
  const lastToken = all[all.length - 1];
  if (lastToken && lastToken.to >= cursor && lastToken.kind !== 'identifier' && lastToken.kind !== 'operator') return { kind: 'none' };

  // After `|`, operator names may hold a hyphen (project-away).
  const operatorWord = /[A-Za-z][\w]*(?:-[A-Za-z]*)?$/.exec(before);
  if (operatorWord) {
    const prior = meaningful(operatorWord.index);
    if (isOp(prior[prior.length - 1], '|')) return { kind: 'tabular', from: operatorWord.index };
  }
  const typed = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$]?[\w$]*)*$|\.$/.exec(before);
  const from = typed && !typed[0].startsWith('.') ? typed.index : cursor;
  const { position, operator } = positionAfter(meaningful(from), mode);
  switch (position) {
    case 'source':
    case 'table':
    case 'tabular':
    case 'aggregation':
      return { kind: position, from };
    case 'after-operand':
      return { kind: 'after-operand', from, operator };
    case 'expression':
      return { kind: 'expression', from, operator };
  }
}
