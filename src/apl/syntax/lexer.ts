// Turns APL text into tokens. Kusto's lexical quirks live here so the parser can stay
// grammatical: hyphenated operator names (`project-away`), negated word operators
// (`!contains`, `!in~`), timespan literals (`5m`, `1.5h`) and verbatim strings (`@'...'`).
import { type Position, syntaxError } from './position';

export type TokenKind =
  | 'identifier' // names and keywords; the parser decides which
  | 'string'
  | 'number' // integers and reals; `text` keeps the spelling
  | 'timespan' // number with a time unit; `value` is nanoseconds
  | 'operator' // punctuation and symbolic operators
  | 'end';

export interface Token {
  kind: TokenKind;
  /** The token's text as the parser should see it (unescaped for strings, lowercase-insensitive never). */
  text: string;
  /** Nanoseconds for timespans; the numeric value for numbers. */
  value?: bigint | number;
  /** True for integer literals (no dot or exponent). */
  integer?: boolean;
  /** The raw source slice, for error messages. */
  raw: string;
  pos: Position;
  /** True when whitespace or a comment precedes the token. */
  spaced: boolean;
}

const RAW_LITERAL_FUNCTIONS = new Set(['datetime', 'timespan', 'time']);

const HYPHENATED = new Set([
  'project-away',
  'project-keep',
  'project-rename',
  'project-reorder',
  'project-smart',
  'mv-expand',
  'parse-where',
  'parse-kv',
  'make-series',
  'extend-valid',
  'top-nested',
  'top-hitters',
  'sample-distinct',
]);

const SYMBOLS = ['==', '!=', '<>', '<=', '>=', '=~', '!~', '..', '=>', '|', '(', ')', '[', ']', '{', '}', ',', ';', ':', '.', '=', '<', '>', '+', '-', '*', '/', '%', '!', '?'];

/** Nanoseconds per timespan unit, keyed by every spelling Kusto accepts. */
const NANOS_PER_UNIT: Record<string, bigint> = (() => {
  const units: [string[], bigint][] = [
    [['d', 'day', 'days'], 86_400_000_000_000n],
    [['h', 'hr', 'hrs', 'hour', 'hours'], 3_600_000_000_000n],
    [['m', 'min', 'mins', 'minute', 'minutes'], 60_000_000_000n],
    [['s', 'sec', 'secs', 'second', 'seconds'], 1_000_000_000n],
    [['ms', 'milli', 'millis', 'millisecond', 'milliseconds'], 1_000_000n],
    [['us', 'µs', 'micro', 'micros', 'microsecond', 'microseconds'], 1_000n],
    [['tick', 'ticks'], 100n],
    [['ns', 'nano', 'nanos', 'nanosecond', 'nanoseconds'], 1n],
  ];
  const table: Record<string, bigint> = {};
  for (const [names, nanos] of units) for (const name of names) table[name] = nanos;
  return table;
})();

export function nanosPerTimespanUnit(unit: string): bigint | undefined {
  return NANOS_PER_UNIT[unit.toLowerCase()];
}

/** Exact nanoseconds of `digits` (e.g. "1.5") times a unit, without floating point error. */
export function timespanNanos(digits: string, unitNanos: bigint): bigint {
  const [whole, fraction = ''] = digits.split('.');
  const scale = 10n ** BigInt(fraction.length);
  return (BigInt((whole || '0') + fraction) * unitNanos) / scale;
}

const isIdentStart = (c: string) => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  let line = 1;
  let column = 1;
  let spaced = false;

  const here = (): Position => ({ offset, line, column });
  const advance = (count: number) => {
    for (let i = 0; i < count; i++) {
      if (text[offset] === '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
      offset++;
    }
  };
  const push = (kind: TokenKind, value: string, start: Position, extra: Partial<Token> = {}) => {
    tokens.push({ kind, text: value, raw: text.slice(start.offset, offset), pos: start, spaced, ...extra });
    spaced = false;
  };

  while (offset < text.length) {
    const c = text[offset]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      advance(1);
      spaced = true;
      continue;
    }
    if (c === '/' && text[offset + 1] === '/') {
      while (offset < text.length && text[offset] !== '\n') advance(1);
      spaced = true;
      continue;
    }
    const start = here();

    // Verbatim strings: @"..." and @'...', where a doubled quote stands for itself.
    if (c === '@' && (text[offset + 1] === '"' || text[offset + 1] === "'")) {
      const quote = text[offset + 1]!;
      advance(2);
      let value = '';
      for (;;) {
        if (offset >= text.length) throw syntaxError(start, 'the end of the query', `a closing ${quote} for the string`);
        const ch = text[offset]!;
        if (ch === quote) {
          if (text[offset + 1] === quote) {
            value += quote;
            advance(2);
            continue;
          }
          advance(1);
          break;
        }
        value += ch;
        advance(1);
      }
      push('string', value, start);
      continue;
    }

    if (c === '"' || c === "'") {
      advance(1);
      let value = '';
      for (;;) {
        if (offset >= text.length || text[offset] === '\n') {
          throw syntaxError(start, offset >= text.length ? 'the end of the query' : 'a line break', `a closing ${c} for the string`);
        }
        const ch = text[offset]!;
        if (ch === c) {
          advance(1);
          break;
        }
        if (ch === '\\') {
          const next = text[offset + 1];
          const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '0': '\0' };
          if (next !== undefined && next in escapes) {
            value += escapes[next];
            advance(2);
            continue;
          }
          if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(offset + 2, offset + 6))) {
            value += String.fromCharCode(parseInt(text.slice(offset + 2, offset + 6), 16));
            advance(6);
            continue;
          }
          // Unknown escapes keep the backslash, which is what regexes written in plain strings expect.
          value += '\\';
          advance(1);
          continue;
        }
        value += ch;
        advance(1);
      }
      push('string', value, start);
      continue;
    }

    if (isDigit(c) || (c === '.' && isDigit(text[offset + 1] ?? ''))) {
      const hex = /^0[xX][0-9a-fA-F]+/.exec(text.slice(offset));
      if (hex) {
        advance(hex[0].length);
        push('number', hex[0], start, { value: Number(BigInt(hex[0])), integer: true });
        continue;
      }
      const match = /^(\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.(?!\.))/.exec(text.slice(offset))!;
      const digits = match[0];
      advance(digits.length);
      // A unit glued to the number makes a timespan literal (`5m`, `1.5h`, `100ms`).
      const unit = /^[A-Za-zµ]+/.exec(text.slice(offset))?.[0];
      if (unit !== undefined) {
        const nanos = nanosPerTimespanUnit(unit);
        if (nanos === undefined || /[eE]/.test(digits)) {
          throw syntaxError(start, `"${digits}${unit}"`, 'a number or a timespan such as 100ms, 5m, 1h or 2d');
        }
        advance(unit.length);
        push('timespan', digits + unit, start, { value: timespanNanos(digits, nanos) });
        continue;
      }
      const integer = /^\d+$/.test(digits);
      push('number', digits, start, { value: Number(digits), integer });
      continue;
    }

    if (isIdentStart(c)) {
      let end = offset + 1;
      while (end < text.length && isIdentPart(text[end]!)) end++;
      let word = text.slice(offset, end);
      // `project-away` and friends are single words in Kusto.
      const hyphenated = /^-[A-Za-z]+/.exec(text.slice(end))?.[0];
      if (hyphenated && HYPHENATED.has((word + hyphenated).toLowerCase())) word += hyphenated;
      advance(word.length);
      // `in~` is one operator.
      if (word === 'in' && text[offset] === '~') {
        advance(1);
        push('operator', 'in~', start);
        continue;
      }
      push('identifier', word, start);
      // datetime(2024-01-31T12:00:00Z) and timespan(1.02:00:00) hold raw text, not tokens.
      if (RAW_LITERAL_FUNCTIONS.has(word)) {
        const raw = /^(\s*)\(([^()'"]*)\)/.exec(text.slice(offset));
        if (raw && raw[2]!.trim()) {
          advance(raw[1]!.length);
          const open = here();
          advance(1);
          push('operator', '(', open);
          while (text[offset] === ' ' || text[offset] === '\t') advance(1);
          const contentStart = here();
          const content = raw[2]!.trim();
          advance(content.length);
          push('string', content, contentStart);
          while (text[offset] !== ')') advance(1);
          const close = here();
          advance(1);
          push('operator', ')', close);
        }
      }
      continue;
    }

    // Negated word operators: `!contains`, `!has_cs`, `!in`, `!in~`, `!between`, ...
    if (c === '!' && isIdentStart(text[offset + 1] ?? '')) {
      let end = offset + 2;
      while (end < text.length && isIdentPart(text[end]!)) end++;
      let word = text.slice(offset, end);
      if (word === '!in' && text[end] === '~') word += '~';
      advance(word.length);
      push('operator', word, start);
      continue;
    }

    const symbol = SYMBOLS.find((s) => text.startsWith(s, offset));
    if (symbol) {
      advance(symbol.length);
      push('operator', symbol === '<>' ? '!=' : symbol, start);
      continue;
    }
    throw syntaxError(start, `the character "${c}"`, 'a name, a literal, an operator or "|"');
  }
  push('end', '', here());
  return tokens;
}
