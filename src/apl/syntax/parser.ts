// Recursive-descent parser from tokens to the syntax tree. Expressions follow Kusto's
// precedence: or < and < comparisons and string operators < + - < * / % < unary < postfix.
import type { Arg, Assignment, Expr, JoinCondition, LetStatement, LiteralValue, NamePattern, Operator, ParsePart, Query, SortKey, Source, Tabular } from './ast';
import { type Token, tokenize } from './lexer';
import { type Position, syntaxError } from './position';
import { closestNames } from '../semantic/suggest';
import { checkQueryText, DEFAULT_QUERY_LIMITS, type QueryLimits, tooDeep } from '../limits';
import { parseDateTime, parseDuration } from '../time';

export const TABULAR_OPERATORS = [
  'where',
  'filter',
  'project',
  'project-away',
  'project-keep',
  'project-rename',
  'project-reorder',
  'extend',
  'summarize',
  'sort',
  'order',
  'take',
  'limit',
  'top',
  'count',
  'distinct',
  'search',
  'parse',
  'sample',
  'getschema',
  'join',
  'union',
];

/** Word operators between two scalars; each also exists negated with a leading `!`. */
const STRING_OPERATORS = new Set([
  'contains',
  'contains_cs',
  'startswith',
  'startswith_cs',
  'endswith',
  'endswith_cs',
  'has',
  'has_cs',
  'hasprefix',
  'hasprefix_cs',
  'hassuffix',
  'hassuffix_cs',
]);
const COMPARISON_SYMBOLS = new Set(['==', '!=', '<', '<=', '>', '>=', '=~', '!~']);
const LIST_OPERATORS = new Set(['in', '!in', 'in~', '!in~', 'has_any', 'has_any_cs', 'has_all', 'has_all_cs']);

export function parseQuery(text: string, limits: QueryLimits = DEFAULT_QUERY_LIMITS): Query {
  return new Parser(text, limits).query();
}

/** Parses a lone scalar expression (virtual fields, legacy filters). */
export function parseExpression(text: string, limits: QueryLimits = DEFAULT_QUERY_LIMITS): Expr {
  const parser = new Parser(text, limits);
  const expr = parser.expression();
  parser.expectEnd();
  return expr;
}

class Parser {
  private readonly tokens: Token[];
  private index = 0;
  /** Inside `search`, `field:"term"` is legal. */
  private searchMode = false;
  /** How deeply the recursive rules nest right now; bounded so no query exhausts the stack. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly limits: QueryLimits,
  ) {
    checkQueryText(text, limits);
    this.tokens = tokenize(text);
  }

  /** Runs a rule one nesting level deeper (every recursive cycle of the grammar passes here). */
  private nested<T>(rule: () => T): T {
    if (++this.depth > this.limits.maxNesting) throw tooDeep(this.peek().pos, this.limits);
    try {
      return rule();
    } finally {
      this.depth--;
    }
  }

  // ---- token helpers -------------------------------------------------------------------

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private isOp(text: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'operator' && token.text === text;
  }

  private isWord(text: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'identifier' && token.text === text;
  }

  private describe(token: Token): string {
    switch (token.kind) {
      case 'end':
        return 'the end of the query';
      case 'string':
        return `the string ${JSON.stringify(token.text)}`;
      case 'number':
      case 'timespan':
        return `the number ${token.raw}`;
      default:
        return `"${token.raw}"`;
    }
  }

  private fail(expected: string, token = this.peek()): never {
    throw syntaxError(token.pos, this.describe(token), expected);
  }

  private expectOp(text: string, expected = `"${text}"`): Token {
    if (!this.isOp(text)) this.fail(expected);
    return this.next();
  }

  private expectWord(text: string): Token {
    if (!this.isWord(text)) this.fail(`"${text}"`);
    return this.next();
  }

  private acceptOp(text: string): boolean {
    if (!this.isOp(text)) return false;
    this.next();
    return true;
  }

  private acceptWord(text: string): boolean {
    if (!this.isWord(text)) return false;
    this.next();
    return true;
  }

  expectEnd(): void {
    if (this.peek().kind !== 'end') this.fail('the end of the query or "|"');
  }

  /** `['name']` or `["name"]`: a name that may hold any character. */
  private isBracketedName(ahead = 0): boolean {
    return this.isOp('[', ahead) && this.peek(ahead + 1).kind === 'string' && this.isOp(']', ahead + 2);
  }

  private bracketedName(): string {
    this.expectOp('[');
    const name = this.next().text;
    this.expectOp(']');
    return name;
  }

  /** An identifier or a bracketed name. */
  private name(expected: string): { name: string; pos: Position } {
    const token = this.peek();
    if (token.kind === 'identifier') {
      this.next();
      return { name: token.text, pos: token.pos };
    }
    if (this.isBracketedName()) return { name: this.bracketedName(), pos: token.pos };
    this.fail(expected);
  }

  /** A field name that may be dotted (`geo.city`), bracketed (`['geo.city']`) or both. */
  private dottedName(expected: string): { name: string; pos: Position } {
    const first = this.name(expected);
    let name = first.name;
    while (this.isOp('.') && !this.peek().spaced && (this.peek(1).kind === 'identifier' || this.isBracketedName(1))) {
      this.next();
      name += '.' + this.name('a field name').name;
    }
    return { name, pos: first.pos };
  }

  // ---- statements ----------------------------------------------------------------------

  query(): Query {
    const lets: LetStatement[] = [];
    for (;;) {
      if (this.isWord('let')) {
        lets.push(this.letStatement());
        this.expectOp(';');
        continue;
      }
      if (this.isWord('set')) {
        // Query options (`set x = y;`) have no effect here; skip them.
        while (!this.isOp(';') && this.peek().kind !== 'end') this.next();
        this.expectOp(';');
        continue;
      }
      break;
    }
    if (this.peek().kind === 'end') this.fail('a query such as [\'my-dataset\'] | take 10');
    const body = this.tabular();
    this.acceptOp(';');
    this.expectEnd();
    return { lets, body };
  }

  private letStatement(): LetStatement {
    const pos = this.next().pos;
    const { name } = this.name('a name after "let"');
    this.expectOp('=', '"=" after the name of the let statement');
    if (this.startsTabular()) return { pos, name, value: { kind: 'tabular', tabular: this.tabular() } };
    const mark = this.index;
    const expr = this.expression();
    if (this.isOp('|')) {
      this.index = mark;
      return { pos, name, value: { kind: 'tabular', tabular: this.tabular() } };
    }
    return { pos, name, value: { kind: 'scalar', expr } };
  }

  private startsTabular(): boolean {
    if (this.isBracketedName() || this.isWord('union')) return true;
    if (this.isOp('(')) {
      // A parenthesised pipeline: look for a `|` before the matching parenthesis.
      let depth = 0;
      for (let i = this.index; i < this.tokens.length; i++) {
        const token = this.tokens[i]!;
        if (token.kind !== 'operator') continue;
        if (token.text === '(') depth++;
        else if (token.text === ')') {
          depth--;
          if (depth === 0) return false;
        } else if (token.text === '|' && depth === 1) return true;
      }
    }
    return false;
  }

  // ---- tabular expressions -------------------------------------------------------------

  private tabular(): Tabular {
    return this.nested(() => this.pipeline());
  }

  private pipeline(): Tabular {
    const pos = this.peek().pos;
    const source = this.source();
    const operators: Operator[] = [];
    while (this.acceptOp('|')) operators.push(this.operator());
    return { pos, source, operators };
  }

  private source(): Source {
    const token = this.peek();
    if (this.isBracketedName()) return { kind: 'named', pos: token.pos, name: this.bracketedName(), bracketed: true };
    if (this.isWord('union')) {
      this.next();
      return { kind: 'union', pos: token.pos, tables: this.unionTables() };
    }
    if (this.isOp('(')) {
      this.next();
      const tabular = this.tabular();
      this.expectOp(')');
      return { kind: 'subquery', pos: token.pos, tabular };
    }
    if (token.kind === 'identifier') {
      this.next();
      return { kind: 'named', pos: token.pos, name: token.text, bracketed: false };
    }
    this.fail("a dataset such as ['my-dataset']");
  }

  private unionTables(): Tabular[] {
    // Options such as kind=outer or withsource=x are accepted and ignored.
    while (this.peek().kind === 'identifier' && this.isOp('=', 1) && ['kind', 'withsource', 'isfuzzy'].includes(this.peek().text)) {
      this.next();
      this.next();
      this.next();
    }
    const tables: Tabular[] = [this.unionTable()];
    while (this.acceptOp(',')) tables.push(this.unionTable());
    return tables;
  }

  private unionTable(): Tabular {
    const pos = this.peek().pos;
    if (this.isOp('(')) {
      this.next();
      const tabular = this.tabular();
      this.expectOp(')');
      return tabular;
    }
    if (this.isBracketedName()) return { pos, source: { kind: 'named', pos, name: this.bracketedName(), bracketed: true }, operators: [] };
    const token = this.peek();
    if (token.kind === 'identifier') {
      this.next();
      return { pos, source: { kind: 'named', pos, name: token.text, bracketed: false }, operators: [] };
    }
    this.fail("a dataset such as ['my-dataset']");
  }

  private operator(): Operator {
    const token = this.peek();
    if (token.kind !== 'identifier') this.fail('a tabular operator such as where, project, extend or summarize');
    const pos = token.pos;
    const word = token.text;
    switch (word) {
      case 'where':
      case 'filter':
        this.next();
        return { kind: 'where', pos, predicate: this.expression() };
      case 'project':
        this.next();
        return { kind: 'project', pos, items: this.assignments() };
      case 'extend':
        this.next();
        return { kind: 'extend', pos, items: this.assignments() };
      case 'project-away':
      case 'project-keep': {
        this.next();
        const patterns = [this.namePattern()];
        while (this.acceptOp(',')) patterns.push(this.namePattern());
        return { kind: word, pos, patterns };
      }
      case 'project-rename': {
        this.next();
        const renames: { pos: Position; newName: string; oldName: string }[] = [];
        do {
          const target = this.dottedName('the new field name');
          this.expectOp('=', '"=" between the new and the old field name');
          const old = this.dottedName('the field to rename');
          renames.push({ pos: target.pos, newName: target.name, oldName: old.name });
        } while (this.acceptOp(','));
        return { kind: 'project-rename', pos, renames };
      }
      case 'project-reorder': {
        this.next();
        const items: { pattern: NamePattern; order?: 'asc' | 'desc' }[] = [];
        do {
          const pattern = this.namePattern();
          const order = this.acceptWord('asc') ? 'asc' : this.acceptWord('desc') ? 'desc' : undefined;
          items.push(order ? { pattern, order } : { pattern });
        } while (this.acceptOp(','));
        return { kind: 'project-reorder', pos, items };
      }
      case 'summarize':
        return this.summarize();
      case 'sort':
      case 'order': {
        this.next();
        this.expectWord('by');
        const keys = [this.sortKey()];
        while (this.acceptOp(',')) keys.push(this.sortKey());
        return { kind: 'sort', pos, keys };
      }
      case 'take':
      case 'limit':
        this.next();
        return { kind: 'take', pos, count: this.expression() };
      case 'top': {
        this.next();
        const count = this.additive();
        this.expectWord('by');
        // top keeps nulls out of the way in both directions unless asked.
        const key = this.sortKey();
        return { kind: 'top', pos, count, key: key.nullsFirst === undefined ? { ...key, nullsFirst: false } : key };
      }
      case 'count':
        this.next();
        return { kind: 'count', pos };
      case 'distinct': {
        this.next();
        const items = [this.distinctItem()];
        while (this.acceptOp(',')) items.push(this.distinctItem());
        return { kind: 'distinct', pos, items };
      }
      case 'search':
        return this.search();
      case 'parse':
        return this.parse();
      case 'sample':
        this.next();
        return { kind: 'sample', pos, count: this.expression() };
      case 'getschema':
        this.next();
        return { kind: 'getschema', pos };
      case 'join':
        return this.join();
      case 'union':
        this.next();
        return { kind: 'union', pos, tables: this.unionTables() };
      default: {
        const suggestions = closestNames(word, TABULAR_OPERATORS);
        const hint = suggestions.length ? ` (did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?)` : '';
        this.fail(`a tabular operator such as where, project, extend or summarize${hint}`);
      }
    }
  }

  private summarize(): Operator {
    const pos = this.next().pos;
    const aggregates: Assignment[] = [];
    if (!this.isWord('by')) {
      aggregates.push(this.assignment());
      while (this.acceptOp(',')) aggregates.push(this.assignment());
    }
    const by: Assignment[] = [];
    if (this.acceptWord('by')) {
      by.push(this.assignment());
      while (this.acceptOp(',')) by.push(this.assignment());
    }
    if (aggregates.length === 0 && by.length === 0) this.fail('an aggregation such as count() or "by"');
    return { kind: 'summarize', pos, aggregates, by };
  }

  private sortKey(): SortKey {
    const pos = this.peek().pos;
    const expr = this.expression();
    let desc = true;
    if (this.acceptWord('asc')) desc = false;
    else if (this.acceptWord('desc')) desc = true;
    let nullsFirst: boolean | undefined;
    if (this.acceptWord('nulls')) {
      if (this.acceptWord('first')) nullsFirst = true;
      else if (this.acceptWord('last')) nullsFirst = false;
      else this.fail('"first" or "last" after "nulls"');
    }
    return nullsFirst === undefined ? { pos, expr, desc } : { pos, expr, desc, nullsFirst };
  }

  private distinctItem(): Expr {
    if (this.isOp('*')) return { kind: 'star', pos: this.next().pos };
    return this.expression();
  }

  private search(): Operator {
    const pos = this.next().pos;
    let caseSensitive = false;
    if (this.isWord('kind') && this.isOp('=', 1)) {
      this.next();
      this.next();
      const kind = this.next();
      if (kind.text === 'case_sensitive') caseSensitive = true;
      else if (kind.text !== 'case_insensitive' && kind.text !== 'default') this.fail('case_sensitive, case_insensitive or default', kind);
    }
    if (this.isWord('in') && this.isOp('(', 1)) {
      // `in (datasets)` narrows the search to the piped input here; the list is read and ignored.
      this.next();
      this.next();
      while (!this.isOp(')') && this.peek().kind !== 'end') this.next();
      this.expectOp(')');
    }
    const saved = this.searchMode;
    this.searchMode = true;
    try {
      if (this.isOp('*') && (this.isOp('|', 1) || this.peek(1).kind === 'end' || this.isOp(';', 1) || this.isOp(')', 1))) {
        const star = this.next();
        return { kind: 'search', pos, caseSensitive, predicate: { kind: 'star', pos: star.pos } };
      }
      return { kind: 'search', pos, caseSensitive, predicate: this.expression() };
    } finally {
      this.searchMode = saved;
    }
  }

  private parse(): Operator {
    const pos = this.next().pos;
    let mode: 'simple' | 'regex' | 'relaxed' = 'simple';
    while (this.peek().kind === 'identifier' && this.isOp('=', 1) && ['kind', 'flags'].includes(this.peek().text)) {
      const option = this.next().text;
      this.next();
      const value = this.next();
      if (option === 'kind') {
        if (value.text !== 'simple' && value.text !== 'regex' && value.text !== 'relaxed') this.fail('simple, regex or relaxed', value);
        mode = value.text;
      }
    }
    const source = this.expression();
    this.expectWord('with');
    const parts: ParsePart[] = [];
    for (;;) {
      const token = this.peek();
      if (this.isOp('*')) {
        this.next();
        parts.push({ kind: 'star', pos: token.pos });
      } else if (token.kind === 'string') {
        this.next();
        parts.push({ kind: 'text', pos: token.pos, value: token.text });
      } else if (token.kind === 'identifier' || this.isBracketedName()) {
        const { name } = this.name('a field name');
        let type: string | undefined;
        if (this.acceptOp(':')) type = this.name('a type such as string, int, long, real or datetime').name;
        parts.push(type ? { kind: 'column', pos: token.pos, name, type } : { kind: 'column', pos: token.pos, name });
      } else break;
    }
    if (parts.length === 0) this.fail('a pattern of strings, "*" and field names after "with"');
    return { kind: 'parse', pos, mode, source, parts };
  }

  private join(): Operator {
    const pos = this.next().pos;
    let joinKind: 'inner' | 'innerunique' | 'leftouter' = 'inner';
    while (this.peek().kind === 'identifier' && this.isOp('=', 1)) {
      const option = this.next();
      this.next();
      const value = this.next();
      if (option.text === 'kind') {
        if (value.text !== 'inner' && value.text !== 'innerunique' && value.text !== 'leftouter') {
          this.fail('a join kind: inner, innerunique or leftouter', value);
        }
        joinKind = value.text;
      }
    }
    let right: Tabular;
    if (this.isOp('(')) {
      this.next();
      right = this.tabular();
      this.expectOp(')');
    } else {
      right = this.unionTable();
    }
    this.expectWord('on');
    const on: JoinCondition[] = [];
    do {
      const condPos = this.peek().pos;
      const expr = this.expression();
      if (expr.kind === 'name') on.push({ kind: 'same', pos: condPos, name: expr.name });
      else if (expr.kind === 'binary' && expr.op === '==') on.push({ kind: 'pair', pos: condPos, left: expr.left, right: expr.right });
      else throw syntaxError(condPos, 'an expression', 'a join key: a field name or left == right');
    } while (this.acceptOp(','));
    return { kind: 'join', pos, joinKind, right, on };
  }

  /** A field name or wildcard pattern: `status`, `geo.*`, `*_ms`, `['geo.city']`. */
  private namePattern(): NamePattern {
    const start = this.peek();
    let pattern = '';
    let first = true;
    for (;;) {
      const token = this.peek();
      if (!first && token.spaced) break;
      if (token.kind === 'identifier') pattern += this.next().text;
      else if (this.isBracketedName()) pattern += this.bracketedName();
      else if (this.isOp('*') || this.isOp('.')) pattern += this.next().text;
      else if (token.kind === 'number' && !first) pattern += this.next().raw;
      else break;
      first = false;
    }
    if (!pattern) this.fail('a field name or a pattern such as geo.*', start);
    return { pos: start.pos, pattern };
  }

  private assignments(): Assignment[] {
    const items = [this.assignment()];
    while (this.acceptOp(',')) items.push(this.assignment());
    return items;
  }

  /** `[name =] expression`, where name may be bracketed (`['geo.city'] = ...`). */
  private assignment(): Assignment {
    const token = this.peek();
    if (token.kind === 'identifier' && this.isOp('=', 1)) {
      this.next();
      this.next();
      return { pos: token.pos, name: token.text, namePos: token.pos, expr: this.expression() };
    }
    if (this.isBracketedName() && this.isOp('=', 3)) {
      const name = this.bracketedName();
      this.next();
      return { pos: token.pos, name, namePos: token.pos, expr: this.expression() };
    }
    return { pos: token.pos, expr: this.expression() };
  }

  // ---- scalar expressions --------------------------------------------------------------

  expression(): Expr {
    return this.nested(() => this.or());
  }

  private or(): Expr {
    return this.chain('or', () => this.and());
  }

  private and(): Expr {
    return this.chain('and', () => this.comparison());
  }

  /** `x op y op z ...` for an associative word operator, as a balanced tree (see balancedChain). */
  private chain(op: 'and' | 'or', operand: () => Expr): Expr {
    const operands = [operand()];
    const positions: Position[] = [];
    while (this.isWord(op)) {
      positions.push(this.next().pos);
      operands.push(operand());
    }
    return balancedChain(op, operands, positions);
  }

  private comparison(): Expr {
    let left = this.additive();
    for (;;) {
      const token = this.peek();
      const word = token.text;
      if (token.kind === 'operator' && COMPARISON_SYMBOLS.has(word)) {
        this.next();
        left = { kind: 'binary', pos: token.pos, op: word, left, right: this.additive() };
        continue;
      }
      if (LIST_OPERATORS.has(word) && (token.kind === 'identifier' || token.kind === 'operator')) {
        this.next();
        left = { kind: 'in', pos: token.pos, op: word, left, items: this.list() };
        continue;
      }
      const isWordOp = token.kind === 'identifier' || (token.kind === 'operator' && word.startsWith('!') && word.length > 1);
      if (!isWordOp) break;
      if (word === 'between' || word === '!between') {
        this.next();
        this.expectOp('(', '"(" after between');
        const low = this.additive();
        this.expectOp('..', '".." between the bounds');
        const high = this.additive();
        this.expectOp(')');
        left = { kind: 'between', pos: token.pos, negated: word.startsWith('!'), left, low, high };
        continue;
      }
      if (word === 'matches' || word === '!matches') {
        this.next();
        this.expectWord('regex');
        left = { kind: 'binary', pos: token.pos, op: word === 'matches' ? 'matches regex' : '!matches regex', left, right: this.additive() };
        continue;
      }
      const bare = word.startsWith('!') ? word.slice(1) : word;
      if (STRING_OPERATORS.has(bare)) {
        this.next();
        left = { kind: 'binary', pos: token.pos, op: word, left, right: this.additive() };
        continue;
      }
      if (token.kind === 'operator') this.fail('a known operator such as !contains, !has, !in or !startswith');
      break;
    }
    return left;
  }

  /** `( expr, expr, ... )` after in/has_any. */
  private list(): Expr[] {
    this.expectOp('(', '"(" and a list of values');
    const items: Expr[] = [];
    if (!this.isOp(')')) {
      items.push(this.expression());
      while (this.acceptOp(',')) items.push(this.expression());
    }
    this.expectOp(')', '"," or ")" in the list');
    return items;
  }

  additive(): Expr {
    let left = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const token = this.next();
      left = { kind: 'binary', pos: token.pos, op: token.text, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const token = this.next();
      left = { kind: 'binary', pos: token.pos, op: token.text, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Expr {
    if (this.isOp('-') || this.isOp('+')) {
      const token = this.next();
      const operand = this.nested(() => this.unary());
      // Fold signs into numeric literals so `-5` stays a literal.
      if (token.text === '-' && operand.kind === 'literal') {
        const v = operand.value;
        if (v.type === 'int') return { ...operand, pos: token.pos, value: { type: 'int', value: -v.value } };
        if (v.type === 'real') return { ...operand, pos: token.pos, value: { type: 'real', value: -v.value } };
        if (v.type === 'timespan') return { ...operand, pos: token.pos, value: { type: 'timespan', nanos: -v.nanos } };
      }
      return { kind: 'unary', pos: token.pos, op: token.text as '-' | '+', operand };
    }
    return this.postfix();
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.isOp('.') && (this.peek(1).kind === 'identifier' || this.isBracketedName(1))) {
        const pos = this.next().pos;
        const { name } = this.name('a field name after "."');
        expr = { kind: 'member', pos, target: expr, name };
        continue;
      }
      if (this.isOp('[') && !this.peek().spaced) {
        const pos = this.next().pos;
        const index = this.expression();
        this.expectOp(']');
        expr = { kind: 'index', pos, target: expr, index };
        continue;
      }
      if (this.searchMode && this.isOp(':') && (expr.kind === 'name' || expr.kind === 'member')) {
        const pos = this.next().pos;
        expr = { kind: 'fieldSearch', pos, field: expr, term: this.primary() };
        continue;
      }
      return expr;
    }
  }

  private primary(): Expr {
    const token = this.peek();
    const pos = token.pos;
    switch (token.kind) {
      case 'number': {
        this.next();
        if (token.integer) return { kind: 'literal', pos, value: { type: 'int', value: BigInt(token.text) } };
        return { kind: 'literal', pos, value: { type: 'real', value: Number(token.text) } };
      }
      case 'timespan':
        this.next();
        return { kind: 'literal', pos, value: { type: 'timespan', nanos: token.value as bigint } };
      case 'string':
        this.next();
        return { kind: 'literal', pos, value: { type: 'string', value: token.text } };
      case 'identifier': {
        const word = token.text;
        if (word === 'true' || word === 'false') {
          this.next();
          return { kind: 'literal', pos, value: { type: 'bool', value: word === 'true' } };
        }
        if (word === 'null') {
          this.next();
          return { kind: 'literal', pos, value: { type: 'null' } };
        }
        if (this.isOp('(', 1)) return this.callOrTypedLiteral();
        this.next();
        return { kind: 'name', pos, name: word, bracketed: false };
      }
      case 'operator': {
        if (this.isBracketedName()) return { kind: 'name', pos, name: this.bracketedName(), bracketed: true };
        if (token.text === '(') {
          this.next();
          const inner = this.expression();
          this.expectOp(')');
          return inner;
        }
        if (token.text === '*') {
          this.next();
          return { kind: 'star', pos };
        }
        break;
      }
    }
    this.fail('an expression');
  }

  private callOrTypedLiteral(): Expr {
    const nameToken = this.next();
    const pos = nameToken.pos;
    const name = nameToken.text;
    if (name === 'datetime') return this.datetimeLiteral(pos);
    if (name === 'timespan' || name === 'time') return this.timespanLiteral(pos);
    if (name === 'dynamic') {
      this.expectOp('(');
      const value = this.dynamicValue();
      this.expectOp(')');
      return { kind: 'literal', pos, value: { type: 'dynamic', value } };
    }
    this.expectOp('(');
    const args: Arg[] = [];
    if (!this.isOp(')')) {
      args.push(this.argument());
      while (this.acceptOp(',')) args.push(this.argument());
    }
    this.expectOp(')', '"," or ")" in the argument list');
    return { kind: 'call', pos, name, args };
  }

  private argument(): Arg {
    const token = this.peek();
    if (token.kind === 'identifier' && this.isOp('=', 1)) {
      this.next();
      this.next();
      return { name: token.text, value: this.expression() };
    }
    return { value: this.expression() };
  }

  /** The text between the parentheses of datetime(...)/timespan(...); the lexer made it a string. */
  private rawParenthesised(): { text: string; pos: Position } {
    this.expectOp('(');
    const token = this.peek();
    if (token.kind !== 'string') this.fail('a date or timespan value', token);
    this.next();
    this.expectOp(')');
    return { text: token.text, pos: token.pos };
  }

  private datetimeLiteral(pos: Position): Expr {
    const raw = this.rawParenthesised();
    if (raw.text === 'null') return { kind: 'literal', pos, value: { type: 'null' }, nullType: 'datetime' };
    const nanos = parseDateTime(raw.text);
    if (nanos === undefined) throw syntaxError(raw.pos, `"${raw.text}"`, 'a date such as 2024-01-31 or 2024-01-31T12:00:00Z');
    return { kind: 'literal', pos, value: { type: 'datetime', nanos } };
  }

  private timespanLiteral(pos: Position): Expr {
    const raw = this.rawParenthesised();
    if (raw.text === 'null') return { kind: 'literal', pos, value: { type: 'null' }, nullType: 'timespan' };
    const nanos = parseTimespanText(raw.text);
    if (nanos === undefined) throw syntaxError(raw.pos, `"${raw.text}"`, 'a timespan such as 15s, 1.5h, 2d or 01:30:00');
    return { kind: 'literal', pos, value: { type: 'timespan', nanos } };
  }

  /** The inside of dynamic(...): JSON-like arrays, property bags and scalar literals. */
  private dynamicValue(): unknown {
    return this.nested(() => this.dynamicItem());
  }

  private dynamicItem(): unknown {
    const token = this.peek();
    if (this.acceptOp('[')) {
      const items: unknown[] = [];
      if (!this.isOp(']')) {
        items.push(this.dynamicValue());
        while (this.acceptOp(',')) items.push(this.dynamicValue());
      }
      this.expectOp(']', '"," or "]" in the array');
      return items;
    }
    if (this.acceptOp('{')) {
      const bag: Record<string, unknown> = {};
      if (!this.isOp('}')) {
        do {
          const key = this.peek();
          if (key.kind !== 'string' && key.kind !== 'identifier') this.fail('a property name', key);
          this.next();
          this.expectOp(':', '":" after the property name');
          bag[key.text] = this.dynamicValue();
        } while (this.acceptOp(','));
      }
      this.expectOp('}', '"," or "}" in the property bag');
      return bag;
    }
    const literal = this.unary();
    if (literal.kind !== 'literal') throw syntaxError(token.pos, this.describe(token), 'a literal, an array or a property bag');
    return literalToJson(literal.value);
  }
}

/**
 * Joins operands with an associative operator (`and`, `or`) as a balanced tree rather than a
 * left-leaning one, so that a chain of a thousand conditions nests ten levels, not a thousand.
 * `positions[i]` is where the operator between operands i and i + 1 was written.
 */
export function balancedChain(op: string, operands: Expr[], positions: Position[]): Expr {
  const build = (from: number, to: number): Expr => {
    if (to - from === 1) return operands[from]!;
    const middle = from + Math.ceil((to - from) / 2);
    return { kind: 'binary', pos: positions[middle - 1]!, op, left: build(from, middle), right: build(middle, to) };
  };
  return build(0, operands.length);
}

function literalToJson(value: LiteralValue): unknown {
  switch (value.type) {
    case 'null':
      return null;
    case 'int':
      return Number.isSafeInteger(Number(value.value)) ? Number(value.value) : value.value.toString();
    case 'datetime':
    case 'timespan':
      return value.nanos.toString();
    default:
      return value.value;
  }
}

/** `15s`, `1.5h`, `2d`, `01:30:00`, `1.02:03:04.5`, or a bare number of days. */
export function parseTimespanText(text: string): bigint | undefined {
  const clock = /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(text.trim());
  if (clock) {
    const [, minus, days = '0', h, m, s = '0', fraction = ''] = clock;
    const nanos =
      BigInt(days) * 86_400_000_000_000n +
      BigInt(h!) * 3_600_000_000_000n +
      BigInt(m!) * 60_000_000_000n +
      BigInt(s) * 1_000_000_000n +
      BigInt(fraction.padEnd(9, '0') || '0');
    return minus ? -nanos : nanos;
  }
  if (/^\d+(\.\d+)?$/.test(text.trim())) return parseDuration(text.trim() + 'd');
  const negative = text.trim().startsWith('-');
  const span = parseDuration(negative ? text.trim().slice(1) : text);
  return span === undefined ? undefined : negative ? -span : span;
}
