// Turns MPL text into tokens. MPL's lexical forms: identifiers (plain or in backquotes),
// `$params`, double-quoted strings, numbers, durations glued to their unit (`5m`, `42s`),
// RFC 3339 timestamps (`2025-03-01T13:00:00Z`, only meaningful in time ranges), regular
// expressions (`#/.../`), regex replacements (`#s/from/to/`), `//` comments and punctuation.
import { type Position, syntaxError } from '../../../apl/syntax/position';

export type TokenKind =
  | 'identifier' // names and keywords; the parser decides which
  | 'param' // `$name`; `text` is the name without `$`
  | 'string'
  | 'number'
  | 'duration' // digits and a unit; `text` is the digits, `unit` the letters
  | 'timestamp' // RFC 3339
  | 'regex' // `#/.../`; `text` is the pattern
  | 'replace' // `#s/from/to/`; `text` is the pattern, `replacement` the template
  | 'symbol'
  | 'end';

export interface Token {
  kind: TokenKind;
  text: string;
  /** True for identifiers written in backquotes (never keywords). */
  quoted?: boolean;
  unit?: string;
  replacement?: string;
  /** Numbers: true when written without a dot or exponent. */
  integer?: boolean;
  raw: string;
  pos: Position;
}

const SYMBOLS = ['::', '..', '==', '!=', '<=', '>=', '|', ':', ',', '(', ')', '[', ']', '<', '>', '=', '~', ';', '+', '-', '*', '/'];

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?/;

const isIdentStart = (c: string) => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/** How a token is shown in error messages. */
export function describeToken(token: Token): string {
  if (token.kind === 'end') return 'end of query';
  if (token.kind === 'string') return `string ${JSON.stringify(token.text)}`;
  if (token.kind === 'identifier') return `"${token.raw}"`;
  return `"${token.raw}"`;
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  let line = 1;
  let column = 1;

  const position = (): Position => ({ offset, line, column });
  const advance = (count: number) => {
    for (let i = 0; i < count; i++) {
      if (source[offset] === '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
      offset++;
    }
  };

  /** Reads an escaped sequence up to `close`, unescaping JSON-style escapes. */
  const readQuoted = (close: string, what: string): string => {
    const start = position();
    advance(1);
    let text = '';
    for (;;) {
      const c = source[offset];
      if (c === undefined || c === '\n') throw syntaxError(start, `unterminated ${what}`, `a closing ${close}`);
      if (c === close) {
        advance(1);
        return text;
      }
      if (c === '\\') {
        const next = source[offset + 1];
        const simple: Record<string, string> = { '"': '"', '`': '`', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (next !== undefined && next in simple) {
          text += simple[next];
          advance(2);
          continue;
        }
        if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(source.slice(offset + 2, offset + 6))) {
          text += String.fromCharCode(Number.parseInt(source.slice(offset + 2, offset + 6), 16));
          advance(6);
          continue;
        }
        throw syntaxError(position(), `escape "\\${next ?? ''}"`, `one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`);
      }
      text += c;
      advance(1);
    }
  };

  /** Reads a regex body up to an unescaped `/`; `\/` becomes `/`, other escapes stay as written. */
  const readRegexBody = (start: Position): string => {
    let text = '';
    for (;;) {
      const c = source[offset];
      if (c === undefined || c === '\n') throw syntaxError(start, 'unterminated regular expression', 'a closing /');
      if (c === '/') {
        advance(1);
        return text;
      }
      if (c === '\\' && source[offset + 1] !== undefined) {
        text += source[offset + 1] === '/' ? '/' : source.slice(offset, offset + 2);
        advance(2);
        continue;
      }
      text += c;
      advance(1);
    }
  };

  while (offset < source.length) {
    const c = source[offset]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      advance(1);
      continue;
    }
    if (c === '/' && source[offset + 1] === '/') {
      while (offset < source.length && source[offset] !== '\n') advance(1);
      continue;
    }
    const pos = position();
    const startOffset = offset;
    const push = (token: Omit<Token, 'raw' | 'pos'>) => tokens.push({ ...token, raw: source.slice(startOffset, offset), pos });

    if (c === '#' && source[offset + 1] === '/') {
      advance(2);
      push({ kind: 'regex', text: readRegexBody(pos) });
      continue;
    }
    if (c === '#' && source[offset + 1] === 's' && source[offset + 2] === '/') {
      advance(3);
      const pattern = readRegexBody(pos);
      const replacement = readRegexBody(pos);
      push({ kind: 'replace', text: pattern, replacement });
      continue;
    }
    if (c === '"') {
      push({ kind: 'string', text: readQuoted('"', 'string') });
      continue;
    }
    if (c === '`') {
      push({ kind: 'identifier', text: readQuoted('`', 'quoted identifier'), quoted: true });
      continue;
    }
    if (c === '$') {
      advance(1);
      let name: string;
      if (source[offset] === '`') {
        name = readQuoted('`', 'quoted identifier');
      } else {
        const begin = offset;
        while (offset < source.length && isIdentPart(source[offset]!)) advance(1);
        name = source.slice(begin, offset);
        if (name === '' || !isIdentStart(name[0]!)) throw syntaxError(pos, '"$"', 'a parameter name after $');
      }
      push({ kind: 'param', text: name });
      continue;
    }
    if (isDigit(c)) {
      const stamp = TIMESTAMP.exec(source.slice(offset, offset + 40));
      if (stamp) {
        advance(stamp[0].length);
        push({ kind: 'timestamp', text: stamp[0] });
        continue;
      }
      const begin = offset;
      while (isDigit(source[offset] ?? '')) advance(1);
      const digits = source.slice(begin, offset);
      // Letters glued to digits are a duration (`5m`); the parser checks the unit.
      if (isIdentStart(source[offset] ?? '')) {
        const unitStart = offset;
        while (isIdentPart(source[offset] ?? '')) advance(1);
        push({ kind: 'duration', text: digits, unit: source.slice(unitStart, offset) });
        continue;
      }
      let integer = true;
      // A dot starts a fraction unless it is the `..` of a time range.
      if (source[offset] === '.' && source[offset + 1] !== '.') {
        integer = false;
        advance(1);
        while (isDigit(source[offset] ?? '')) advance(1);
        if (/[eE]/.test(source[offset] ?? '') && /[+-]?\d/.test(source.slice(offset + 1, offset + 3))) {
          advance(source[offset + 1] === '+' || source[offset + 1] === '-' ? 2 : 1);
          while (isDigit(source[offset] ?? '')) advance(1);
        }
      }
      push({ kind: 'number', text: source.slice(begin, offset), integer });
      continue;
    }
    if (isIdentStart(c)) {
      const begin = offset;
      while (isIdentPart(source[offset] ?? '')) advance(1);
      push({ kind: 'identifier', text: source.slice(begin, offset) });
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => source.startsWith(candidate, offset));
    if (symbol) {
      advance(symbol.length);
      push({ kind: 'symbol', text: symbol });
      continue;
    }
    throw syntaxError(pos, `"${c}"`, 'an MPL token');
  }
  tokens.push({ kind: 'end', text: '', raw: '', pos: position() });
  return tokens;
}
