// The editor reads APL with the server's own lexer, so highlighting and completion see the
// same words the engine sees. Text being typed is often not a whole query (an open string, a
// stray character), where the lexer stops with an error: this scanner keeps the tokens before
// the error, marks the troublesome piece, and lexes on from after it. Comments, which the lexer
// skips, are found in the gaps between tokens.
import { type Token, tokenize } from '@server/apl/syntax/lexer';

export type ScannedKind = Token['kind'] | 'comment' | 'invalid';

export interface ScannedToken {
  kind: Exclude<ScannedKind, 'end'>;
  /** Document offsets. */
  from: number;
  to: number;
  /** As the lexer reads it (strings unquoted); the source slice for comments and invalid pieces. */
  text: string;
}

/** The 0-based offset of a 1-based line and column (the lexer counts lines at "\n" only). */
export function offsetOf(text: string, line: number, column: number): number {
  let lineStart = 0;
  for (let current = 1; current < line; current++) {
    const newline = text.indexOf('\n', lineStart);
    if (newline < 0) return text.length;
    lineStart = newline + 1;
  }
  return Math.min(text.length, lineStart + Math.max(0, column - 1));
}

/** Where a lexer or parser error points, when it says so. */
export function errorOffset(text: string, error: unknown): number | undefined {
  const details = (error as { details?: { line?: unknown; column?: unknown } } | null)?.details;
  if (typeof details?.line !== 'number' || typeof details.column !== 'number') return undefined;
  return offsetOf(text, details.line, details.column);
}

function commentsBetween(text: string, from: number, to: number, base: number, out: ScannedToken[]): void {
  let at = text.indexOf('//', from);
  while (at >= 0 && at < to) {
    const lineEnd = text.indexOf('\n', at);
    const end = lineEnd < 0 || lineEnd > to ? to : lineEnd;
    out.push({ kind: 'comment', from: base + at, to: base + end, text: text.slice(at, end) });
    at = text.indexOf('//', end);
  }
}

/** Lexes `text` whole; an error ends the piece, which the caller resumes after. */
function lexPiece(text: string): { tokens: Token[]; stoppedAt?: number } {
  try {
    return { tokens: tokenize(text) };
  } catch (error) {
    const stoppedAt = errorOffset(text, error) ?? 0;
    try {
      return { tokens: stoppedAt > 0 ? tokenize(text.slice(0, stoppedAt)) : [], stoppedAt };
    } catch {
      return { tokens: [], stoppedAt };
    }
  }
}

/** The length of the piece the lexer refused at the start of `rest`. */
function refusedLength(rest: string): { kind: 'string' | 'invalid'; length: number } {
  const quote = rest[0] === '@' ? rest[1] : rest[0];
  if (quote === '"' || quote === "'") {
    // An unterminated string runs to the end of its line.
    const lineEnd = rest.indexOf('\n');
    return { kind: 'string', length: lineEnd < 0 ? rest.length : lineEnd };
  }
  const word = /^[0-9.][\w.µ]*/.exec(rest)?.[0];
  return { kind: 'invalid', length: Math.max(1, word?.length ?? 1) };
}

export function scanTokens(text: string): ScannedToken[] {
  const out: ScannedToken[] = [];
  let base = 0;
  while (base < text.length) {
    const rest = text.slice(base);
    const { tokens, stoppedAt } = lexPiece(rest);
    const lexedEnd = stoppedAt ?? rest.length;
    let gapStart = 0;
    for (const token of tokens) {
      if (token.kind === 'end') break;
      const from = token.pos.offset;
      const to = from + token.raw.length;
      commentsBetween(rest, gapStart, from, base, out);
      out.push({ kind: token.kind, from: base + from, to: base + to, text: token.text });
      gapStart = Math.max(gapStart, to);
    }
    commentsBetween(rest, gapStart, lexedEnd, base, out);
    if (stoppedAt === undefined) break;
    const refused = refusedLength(rest.slice(stoppedAt));
    out.push({ kind: refused.kind, from: base + stoppedAt, to: base + stoppedAt + refused.length, text: rest.slice(stoppedAt, stoppedAt + refused.length) });
    base += stoppedAt + refused.length;
  }
  return out;
}
