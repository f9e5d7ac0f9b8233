// Recursive-descent parser from MPL tokens to the syntax tree. It follows the grammar Axiom
// publishes (directives, params, a simple or compute query; source, sample, filters, then
// pipes) plus the documented additions (`align using` over the whole range, `extend`,
// `bucket` without `to`). Errors say where, what was found and what was expected.
import { type Position, syntaxError } from '../../../apl/syntax/position';
import { closestNames } from '../../../apl/semantic/suggest';
import type {
  BucketArg,
  Comparison,
  ComputeQuery,
  Directive,
  DurationExpr,
  DurationLiteral,
  DurationUnit,
  FilterExpr,
  FilterRule,
  FunctionPath,
  Literal,
  MplQuery,
  Name,
  ParamDecl,
  ParamRef,
  ParamTypeName,
  Pipe,
  QueryExpr,
  SimpleQuery,
  Source,
  TagTypeName,
  TimePoint,
  TimeRange,
  ValueExpr,
} from './ast';
import { describeToken, type Token, tokenize } from './lexer';

const DURATION_UNITS = new Set<string>(['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y']);
const TAG_TYPES = new Set<string>(['string', 'int', 'float', 'bool']);
const PIPE_KEYWORDS = ['where', 'filter', 'map', 'align', 'group', 'bucket', 'as', 'replace', 'join', 'extend', 'compute', 'sample'];
const COMPARISONS = new Set<string>(['==', '!=', '<', '<=', '>', '>=']);
/** How deep parentheses, `not` and nested computes may go (deeper input is refused, not recursed into). */
export const MAX_NESTING = 64;

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private get current(): Token {
    return this.tokens[this.index]!;
  }

  private peek(ahead = 1): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.current;
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private fail(expected: string, token = this.current): never {
    throw syntaxError(token.pos, describeToken(token), expected);
  }

  private isSymbol(text: string, token = this.current): boolean {
    return token.kind === 'symbol' && token.text === text;
  }

  /** An unquoted identifier spelled `word` (keywords are contextual). */
  private isWord(word: string, token = this.current): boolean {
    return token.kind === 'identifier' && !token.quoted && token.text === word;
  }

  private expectSymbol(text: string): Token {
    if (!this.isSymbol(text)) this.fail(`"${text}"`);
    return this.next();
  }

  private expectWord(word: string): Token {
    if (!this.isWord(word)) this.fail(`"${word}"`);
    return this.next();
  }

  private name(what: string): Name {
    const token = this.current;
    if (token.kind !== 'identifier') this.fail(what);
    this.next();
    return { text: token.text, pos: token.pos };
  }

  parseFile(): MplQuery {
    const directives: Directive[] = [];
    while (this.isWord('set')) directives.push(this.directive());
    const params: ParamDecl[] = [];
    while (this.isWord('param')) params.push(this.paramDecl());
    const body = this.query();
    if (this.current.kind !== 'end') {
      if (this.current.kind === 'identifier' && PIPE_KEYWORDS.includes(this.current.text)) this.fail('"|" before the operator');
      this.fail('"|" or end of query');
    }
    return { directives, params, body };
  }

  private directive(): Directive {
    const start = this.expectWord('set');
    const name = this.name('a directive name');
    let value: Directive['value'] = null;
    if (this.isSymbol('=')) {
      this.next();
      const token = this.current;
      if (token.kind === 'identifier' && !(this.isWord('true') || this.isWord('false'))) {
        this.next();
        value = { kind: 'ident', value: token.text, pos: token.pos };
      } else {
        const literal = this.value();
        if (literal.kind === 'param') this.fail('a literal value', token);
        value = literal;
      }
    }
    this.expectSymbol(';');
    return { name, value, pos: start.pos };
  }

  private paramDecl(): ParamDecl {
    const start = this.expectWord('param');
    const token = this.current;
    if (token.kind !== 'param') this.fail('a parameter such as $name');
    this.next();
    this.expectSymbol(':');
    const typeToken = this.current;
    if (typeToken.kind !== 'identifier') this.fail('a parameter type (Dataset, Duration, Regex, string, int, float, bool)');
    this.next();
    const native: Record<string, ParamTypeName> = { dataset: 'Dataset', duration: 'Duration', regex: 'Regex' };
    const type = native[typeToken.text.toLowerCase()] ?? (TAG_TYPES.has(typeToken.text) ? (typeToken.text as TagTypeName) : undefined);
    if (!type) this.fail('a parameter type (Dataset, Duration, Regex, string, int, float, bool)', typeToken);
    this.expectSymbol(';');
    return { name: { text: token.text, pos: token.pos }, type, pos: start.pos };
  }

  /** Runs a nested rule, refusing input nested deeper than MAX_NESTING. */
  private nested<T>(rule: () => T): T {
    if (++this.depth > MAX_NESTING) this.fail(`at most ${MAX_NESTING} levels of nesting`);
    try {
      return rule();
    } finally {
      this.depth--;
    }
  }

  private query(): QueryExpr {
    return this.isSymbol('(') ? this.nested(() => this.computeQuery()) : this.simpleQuery();
  }

  private computeQuery(): ComputeQuery {
    const open = this.expectSymbol('(');
    const left = this.query();
    this.expectSymbol(',');
    const right = this.query();
    if (this.isSymbol(',')) this.next();
    if (!this.isSymbol(')')) this.fail('")" closing the pair of queries (a compute combines exactly two)');
    this.next();
    if (!this.isSymbol('|')) this.fail('"| compute <name> using <operator>" after the pair of queries');
    this.next();
    this.expectWord('compute');
    const name = this.name('a name for the computed metric');
    this.expectWord('using');
    let fn: FunctionPath;
    const token = this.current;
    if (token.kind === 'symbol' && ['+', '-', '*', '/'].includes(token.text)) {
      this.next();
      fn = { path: [token.text], pos: token.pos };
    } else {
      fn = this.functionPath('an operator (+ - * /) or a function (min, max, avg)');
    }
    const pipes = this.pipes();
    return { kind: 'compute', left, right, name, fn, pipes, pos: open.pos };
  }

  private simpleQuery(): SimpleQuery {
    const source = this.source();
    let sample: SimpleQuery['sample'] = null;
    if (this.isSymbol('|') && this.isWord('sample', this.peek())) {
      this.next();
      const keyword = this.next();
      const token = this.current;
      if (token.kind !== 'number') this.fail('the fraction of series to keep, e.g. 0.5');
      this.next();
      sample = { value: Number(token.text), pos: keyword.pos };
    }
    const filters: FilterRule[] = [];
    while (this.isSymbol('|') && (this.isWord('where', this.peek()) || this.isWord('filter', this.peek()))) {
      this.next();
      const keyword = this.next();
      filters.push({ expr: this.filterOr(), deprecated: keyword.text === 'filter', pos: keyword.pos });
    }
    const pipes = this.pipes();
    return { kind: 'simple', source, sample, filters, pipes, pos: source.pos };
  }

  private source(): Source {
    const start = this.current;
    let dataset: Name | ParamRef;
    if (start.kind === 'param') {
      this.next();
      dataset = { kind: 'param', name: start.text, pos: start.pos };
    } else if (start.kind === 'identifier') {
      this.next();
      dataset = { text: start.text, pos: start.pos };
    } else {
      this.fail('a source: <dataset>:<metric> (quote names with other characters in backquotes)');
    }
    if (!this.isSymbol(':')) this.fail('":" between the dataset and the metric');
    this.next();
    const metric = this.name('a metric name (quote names with other characters in backquotes)');
    const range = this.isSymbol('[') ? this.timeRange() : null;
    let alias: Name | null = null;
    if (this.isWord('as')) {
      this.next();
      alias = this.name('an alias for the metric');
    }
    return { dataset, metric, range, alias, pos: start.pos };
  }

  private timeRange(): TimeRange {
    const open = this.expectSymbol('[');
    const start = this.timePoint();
    if (!this.isSymbol('..')) this.fail('".." between the start and the end of the range');
    this.next();
    const end = this.isSymbol(']') ? null : this.timePoint();
    this.expectSymbol(']');
    return { start, end, pos: open.pos };
  }

  private timePoint(): TimePoint {
    const token = this.current;
    if (this.isSymbol('+') || this.isSymbol('-')) {
      this.next();
      return { kind: 'modifier', sign: token.text === '+' ? 1 : -1, duration: this.durationLiteral(), pos: token.pos };
    }
    if (token.kind === 'duration') return { kind: 'relative', duration: this.durationLiteral(), pos: token.pos };
    if (token.kind === 'timestamp') {
      this.next();
      return { kind: 'rfc3339', text: token.text, pos: token.pos };
    }
    if (token.kind === 'number' && token.integer) {
      this.next();
      return { kind: 'epoch', seconds: Number(token.text), pos: token.pos };
    }
    return this.fail('a time: a duration ago (1h), a Unix timestamp in seconds, an RFC 3339 time, or +/- a duration');
  }

  private durationLiteral(): DurationLiteral {
    const token = this.current;
    if (token.kind === 'number') this.fail('a duration with a unit (ms, s, m, h, d, w, M, y), e.g. 5m');
    if (token.kind !== 'duration') this.fail('a duration such as 5m');
    if (!DURATION_UNITS.has(token.unit!)) {
      throw syntaxError(token.pos, `time unit "${token.unit}"`, 'one of ms, s, m, h, d, w, M, y');
    }
    this.next();
    return { kind: 'duration', amount: Number(token.text), unit: token.unit as DurationUnit, pos: token.pos };
  }

  private durationExpr(): DurationExpr {
    const token = this.current;
    if (token.kind === 'param') {
      this.next();
      return { kind: 'param', name: token.text, pos: token.pos };
    }
    return this.durationLiteral();
  }

  private filterOr(): FilterExpr {
    const first = this.filterAnd();
    const items = [first];
    while (this.isWord('or')) {
      this.next();
      items.push(this.filterAnd());
    }
    return items.length === 1 ? first : { kind: 'or', items, pos: first.pos };
  }

  private filterAnd(): FilterExpr {
    const first = this.filterNot();
    const items = [first];
    while (this.isWord('and')) {
      this.next();
      items.push(this.filterNot());
    }
    return items.length === 1 ? first : { kind: 'and', items, pos: first.pos };
  }

  private filterNot(): FilterExpr {
    const token = this.current;
    // `not` is a keyword unless it is a tag being compared (`not == 1`).
    if (this.isWord('not') && !(this.peek().kind === 'symbol' && COMPARISONS.has(this.peek().text)) && !this.isWord('is', this.peek())) {
      this.next();
      return { kind: 'not', item: this.nested(() => this.filterNot()), pos: token.pos };
    }
    if (this.isSymbol('(')) {
      this.next();
      const inner = this.nested(() => this.filterOr());
      this.expectSymbol(')');
      return inner;
    }
    return this.filterAtom();
  }

  private filterAtom(): FilterExpr {
    const tag = this.name('a tag name, "not" or "(" (quote tag names with other characters in backquotes)');
    const token = this.current;
    if (this.isWord('is')) {
      this.next();
      const type = this.current;
      if (type.kind !== 'identifier' || !TAG_TYPES.has(type.text)) this.fail('a tag type: string, int, float or bool');
      this.next();
      return { kind: 'is', tag, type: type.text as TagTypeName, pos: tag.pos };
    }
    if (token.kind !== 'symbol' || !COMPARISONS.has(token.text)) {
      if (token.kind === 'symbol' && ['=', '~', '=~', '!~'].includes(token.text)) this.fail('a comparison (==, !=, <, <=, >, >=); match regular expressions with == #/.../');
      this.fail('a comparison (==, !=, <, <=, >, >=) or "is"');
    }
    this.next();
    const op = token.text as Comparison;
    const operand = this.current;
    if (operand.kind === 'regex') {
      if (op !== '==' && op !== '!=') this.fail('a value: regular expressions match with == or != only', operand);
      this.next();
      return { kind: 'regex', tag, op, pattern: { text: operand.text, pos: operand.pos }, pos: tag.pos };
    }
    const value = this.value();
    return { kind: 'compare', tag, op, value, pos: tag.pos };
  }

  /** A literal (string, number, bool, inf) or a parameter. */
  private value(): ValueExpr {
    const token = this.current;
    if (token.kind === 'param') {
      this.next();
      return { kind: 'param', name: token.text, pos: token.pos };
    }
    if (token.kind === 'string') {
      this.next();
      return { kind: 'string', value: token.text, pos: token.pos };
    }
    if (this.isWord('true') || this.isWord('false')) {
      this.next();
      return { kind: 'bool', value: token.text === 'true', pos: token.pos };
    }
    const number = this.signedNumber();
    if (number) return number;
    return this.fail('a value: a string in double quotes, a number, true or false, or a $parameter');
  }

  /** A number with an optional sign, `inf`, `+inf` or `-inf`; undefined when none is here. */
  private signedNumber(): Literal | undefined {
    const token = this.current;
    let sign = 1;
    let ahead = 0;
    if (this.isSymbol('+') || this.isSymbol('-')) {
      sign = token.text === '-' ? -1 : 1;
      ahead = 1;
    }
    const body = this.peek(ahead);
    if (this.isWord('inf', body)) {
      this.index += ahead + 1;
      return { kind: 'float', value: sign * Infinity, pos: token.pos };
    }
    if (body.kind === 'number') {
      this.index += ahead + 1;
      if (body.integer) return { kind: 'int', value: BigInt(body.text) * BigInt(sign), pos: token.pos };
      return { kind: 'float', value: sign * Number(body.text), pos: token.pos };
    }
    if (body.kind === 'duration') this.fail('a number', body);
    return undefined;
  }

  private numberArg(what: string): { value: number; pos: Position } {
    const token = this.current;
    const number = this.signedNumber();
    if (!number || (number.kind !== 'int' && number.kind !== 'float')) this.fail(what, token);
    return { value: Number(number.value), pos: token.pos };
  }

  private functionPath(what: string): FunctionPath {
    const first = this.name(what);
    const path = [first.text];
    while (this.isSymbol('::')) {
      this.next();
      path.push(this.name('a function name after "::"').text);
    }
    return { path, pos: first.pos };
  }

  private tagList(): Name[] {
    const tags = [this.name('a tag name')];
    while (this.isSymbol(',')) {
      this.next();
      tags.push(this.name('a tag name'));
    }
    return tags;
  }

  private pipes(): Pipe[] {
    const pipes: Pipe[] = [];
    while (this.isSymbol('|')) {
      this.next();
      pipes.push(this.pipe());
    }
    return pipes;
  }

  private pipe(): Pipe {
    const keyword = this.current;
    const word = keyword.kind === 'identifier' && !keyword.quoted ? keyword.text : '';
    switch (word) {
      case 'map':
        return this.mapPipe();
      case 'align':
        return this.alignPipe();
      case 'group':
        return this.groupPipe();
      case 'bucket':
        return this.bucketPipe();
      case 'as': {
        this.next();
        return { kind: 'as', name: this.name('a new metric name'), pos: keyword.pos };
      }
      case 'replace':
        return this.replacePipe();
      case 'join':
        return this.joinPipe();
      case 'extend':
        return this.extendPipe();
      case 'where':
      case 'filter':
        return this.fail('a transformation: where filters must come right after the source (before map, align, group, bucket)');
      case 'sample':
        return this.fail('a transformation: sample must come right after the source');
      case 'compute':
        return this.fail('a transformation: compute follows a pair of queries in parentheses, ( <query>, <query> ) | compute <name> using <op>');
      default: {
        const operators = PIPE_KEYWORDS.filter((name) => name !== 'compute' && name !== 'sample');
        const guess = keyword.kind === 'identifier' ? closestNames(keyword.text, operators, 1)[0] : undefined;
        return this.fail(`an operator (${operators.join(', ')})${guess ? ` (did you mean "${guess}"?)` : ''}`);
      }
    }
  }

  private mapPipe(): Pipe {
    const keyword = this.next();
    const token = this.current;
    if (token.kind === 'symbol' && ['+', '-', '*', '/'].includes(token.text)) {
      this.next();
      const value = this.numberArg(`a number after "map ${token.text}"`);
      return { kind: 'map-eval', op: token.text as '+' | '-' | '*' | '/', value: value.value, pos: keyword.pos };
    }
    const fn = this.functionPath('a map function (rate, increase, abs, min(n), max(n), fill::prev, fill::const(n), interpolate::linear, filter::lt(n), is::lt(n), ...) or + - * / and a number');
    let arg: { value: number; pos: Position } | null = null;
    if (this.isSymbol('(')) {
      this.next();
      arg = this.numberArg('a number');
      this.expectSymbol(')');
    }
    return { kind: 'map', fn, arg, pos: keyword.pos };
  }

  private alignPipe(): Pipe {
    const keyword = this.next();
    let window: DurationExpr | null = null;
    let over: DurationExpr | null = null;
    if (this.isWord('to')) {
      this.next();
      window = this.durationExpr();
      if (this.isWord('over')) {
        this.next();
        over = this.durationExpr();
      }
    }
    if (!this.isWord('using')) this.fail(window ? '"over" or "using"' : '"to <duration>" or "using"');
    this.next();
    const fn = this.functionPath('an align function (avg, sum, min, max, count, last, prom::rate)');
    return { kind: 'align', window, over, fn, pos: keyword.pos };
  }

  private groupPipe(): Pipe {
    const keyword = this.next();
    let tags: Name[] | null = null;
    if (this.isWord('by')) {
      this.next();
      tags = this.tagList();
    }
    if (!this.isWord('using')) this.fail(tags ? '"," or "using"' : '"by <tags>" or "using"');
    this.next();
    const fn = this.functionPath('a group function (avg, sum, min, max, count)');
    return { kind: 'group', tags, fn, pos: keyword.pos };
  }

  private bucketPipe(): Pipe {
    const keyword = this.next();
    let tags: Name[] | null = null;
    if (this.isWord('by')) {
      this.next();
      tags = this.tagList();
    }
    let window: DurationExpr | null = null;
    if (this.isWord('to')) {
      this.next();
      window = this.durationExpr();
    }
    if (!this.isWord('using')) this.fail(window ? '"using"' : '"to <duration>" or "using"');
    this.next();
    const fn = this.functionPath('a bucket function (histogram, interpolate_delta_histogram, interpolate_cumulative_histogram)');
    this.expectSymbol('(');
    const args: BucketArg[] = [];
    if (!this.isSymbol(')')) {
      for (;;) {
        const token = this.current;
        if (token.kind === 'identifier' && token.text !== 'inf') {
          this.next();
          args.push({ kind: 'name', text: token.text, pos: token.pos });
        } else {
          const number = this.numberArg('a bucket spec: a quantile between 0 and 1, or count, avg, sum, min, max');
          args.push({ kind: 'number', value: number.value, pos: number.pos });
        }
        if (!this.isSymbol(',')) break;
        this.next();
      }
    }
    this.expectSymbol(')');
    return { kind: 'bucket', tags, window, fn, args, pos: keyword.pos };
  }

  private replacePipe(): Pipe {
    const keyword = this.next();
    const target = this.name('a tag name');
    const regexReplace = () => {
      const token = this.current;
      if (token.kind !== 'replace') this.fail('a regex replacement such as #s/(.+)-.+/$1/');
      this.next();
      return { pattern: token.text, replacement: token.replacement!, pos: token.pos };
    };
    if (this.isSymbol('~')) {
      this.next();
      return { kind: 'replace', target, from: null, replace: regexReplace(), pos: keyword.pos };
    }
    if (!this.isSymbol('=')) this.fail('"~ #s/<regex>/<replacement>/" or "= <tag>"');
    this.next();
    const from = this.name('the tag to take the value from');
    let replace = null;
    if (this.isSymbol('~')) {
      this.next();
      replace = regexReplace();
    }
    return { kind: 'replace', target, from, replace, pos: keyword.pos };
  }

  private joinPipe(): Pipe {
    const keyword = this.next();
    const tags = this.tagList();
    this.expectWord('from');
    const start = this.current;
    let dataset: Name | ParamRef;
    if (start.kind === 'param') {
      this.next();
      dataset = { kind: 'param', name: start.text, pos: start.pos };
    } else {
      dataset = this.name('<dataset>:<metric> to take the tags from');
    }
    this.expectSymbol(':');
    const metric = this.name('a metric name');
    this.expectWord('by');
    const by = this.tagList();
    return { kind: 'join', tags, dataset, metric, by, pos: keyword.pos };
  }

  private extendPipe(): Pipe {
    const keyword = this.next();
    const assignments: { tag: Name; value: Literal | ParamRef }[] = [];
    for (;;) {
      const tag = this.name('a new tag name');
      this.expectSymbol('=');
      assignments.push({ tag, value: this.value() });
      if (!this.isSymbol(',')) break;
      this.next();
    }
    return { kind: 'extend', assignments, pos: keyword.pos };
  }
}

export function parseMpl(text: string): MplQuery {
  return new Parser(tokenize(text)).parseFile();
}

/** Parses a parameter value, given as an MPL literal (`"text"`, `5m`, `#/re/`, `42`, `dataset`). */
export function parseParamValue(text: string): Token {
  const tokens = tokenize(text.trim());
  // A negative number is two tokens; everything else is one.
  if (tokens.length === 3 && tokens[0]!.kind === 'symbol' && tokens[0]!.text === '-' && tokens[1]!.kind === 'number') {
    const number = tokens[1]!;
    return { ...number, text: `-${number.text}`, raw: `-${number.raw}` };
  }
  if (tokens.length !== 2) throw syntaxError(tokens[Math.min(1, tokens.length - 1)]!.pos, `"${text}"`, 'one MPL literal');
  return tokens[0]!;
}
