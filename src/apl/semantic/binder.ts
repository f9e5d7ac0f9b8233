// Binds scalar expressions of the syntax tree to typed expressions over the columns in
// scope: resolves names (fields, flattened dot names, dynamic paths, let bindings), infers
// types, inserts conversions and maps every operator to a canonical call.
import type { Arg, Expr, LiteralValue, Tabular } from '../syntax/ast';
import { type Position, semanticError } from '../syntax/position';
import { AGGREGATE_FUNCTIONS } from './aggregates';
import { CallSite, type QueryContext, type RowScope } from './call-site';
import { SCALAR_FUNCTIONS } from './functions';
import type { AplType, Rel, RelColumn, TExpr } from './plan';
import { didYouMean } from './suggest';
import { article, boolLiteral, call, constantNumber, constantString, convert, convertible, isNumeric, literal, nullOf } from './typed';

export interface AggregateBinder {
  /** Binds an aggregation call met inside a summarize expression; returns its column. */
  bindNested(name: string, args: Arg[], pos: Position): TExpr;
}

export interface Scope {
  columns: RelColumn[];
  lets: Map<string, TExpr>;
  context: QueryContext;
  aggregates?: AggregateBinder;
  search?: { caseSensitive: boolean };
  /** A user-defined scalar function of that name, called with its bound arguments. */
  userFunction?: (name: string) => ((args: { name?: string; value: TExpr; pos: Position }[], pos: Position) => TExpr) | undefined;
  /** `set stricttypes`: no implicit conversion between strings and other types in comparisons. */
  strictTypes?: boolean;
  /** Analyzes a tabular subquery of `in (...)`, giving its plan and the column compared. */
  tabular?: (tabular: Tabular) => { rel: Rel; column: RelColumn };
  /** Is this name a table (tabular let, function or dataset) rather than a value? */
  isTable?: (name: string) => boolean;
}

export const STAR: TExpr = { kind: 'call', fn: '*', args: [], type: 'null' };

const STRING_OPERATOR_FNS: Record<string, string> = {
  contains: 'contains',
  contains_cs: 'contains_cs',
  startswith: 'startswith',
  startswith_cs: 'startswith_cs',
  endswith: 'endswith',
  endswith_cs: 'endswith_cs',
  has: 'has',
  has_cs: 'has_cs',
  hasprefix: 'hasprefix',
  hasprefix_cs: 'hasprefix_cs',
  hassuffix: 'hassuffix',
  hassuffix_cs: 'hassuffix_cs',
  'matches regex': 'regex_match',
};

const COMPARISONS: Record<string, string> = { '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };
const ARITHMETIC: Record<string, string> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod' };

export function findColumn(columns: RelColumn[], name: string): RelColumn | undefined {
  return columns.find((column) => !column.hidden && column.name === name);
}

export function visibleNames(columns: RelColumn[]): string[] {
  return columns.filter((column) => !column.hidden).map((column) => column.name);
}

export const columnRef = (column: RelColumn): TExpr => ({ kind: 'column', id: column.id, type: column.type });

/** The name a bare expression gives its output column: fields keep theirs (`geo.city`). */
export function displayName(expr: Expr): string | undefined {
  switch (expr.kind) {
    case 'name':
      return expr.name;
    case 'member': {
      const target = displayName(expr.target);
      return target === undefined ? undefined : `${target}.${expr.name}`;
    }
    case 'index': {
      const target = displayName(expr.target);
      if (target === undefined || expr.index.kind !== 'literal') return undefined;
      const key = expr.index.value;
      if (key.type === 'string') return `${target}.${key.value}`;
      if (key.type === 'int') return `${target}[${key.value}]`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Path segments of `a.b["c"][0]`; undefined when a segment is not a constant. */
function pathSegments(expr: Expr): { root: Expr; segments: (string | number)[] } | undefined {
  if (expr.kind === 'member') {
    const inner = pathSegments(expr.target);
    return inner && { root: inner.root, segments: [...inner.segments, expr.name] };
  }
  if (expr.kind === 'index' && expr.index.kind === 'literal') {
    const inner = pathSegments(expr.target);
    const key = expr.index.value;
    if (!inner) return undefined;
    if (key.type === 'string') return { root: inner.root, segments: [...inner.segments, key.value] };
    if (key.type === 'int') return { root: inner.root, segments: [...inner.segments, Number(key.value)] };
    return undefined;
  }
  if (expr.kind === 'index') return undefined;
  return { root: expr, segments: [] };
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Longs, timespans and datetimes are 64-bit integers (nanoseconds for the last two). */
function checkLiteralRange(value: LiteralValue, pos: Position): void {
  const number = value.type === 'int' ? value.value : value.type === 'timespan' || value.type === 'datetime' ? value.nanos : undefined;
  if (number !== undefined && (number < INT64_MIN || number > INT64_MAX)) {
    const what = value.type === 'int' ? 'a long (64-bit integer)' : `a ${value.type} (64-bit nanoseconds)`;
    throw semanticError(pos, `this ${value.type === 'int' ? 'number' : value.type} is out of the range of ${what}`);
  }
}

export class Binder {
  /**
   * `spend` is told of every node bound but literals, so the work of binding (which grows with
   * every expansion of a function body or a let) stays bounded even where little of it remains
   * in the plan; it throws to stop.
   */
  constructor(private readonly spend?: (pos: Position) => void) {}

  bind(expr: Expr, scope: Scope): TExpr {
    if (expr.kind !== 'literal') this.spend?.(expr.pos);
    switch (expr.kind) {
      case 'literal':
        if (expr.value.type === 'null' && expr.nullType) return nullOf(expr.nullType as AplType);
        checkLiteralRange(expr.value, expr.pos);
        return literal(expr.value);
      case 'name':
      case 'member':
      case 'index':
        return this.reference(expr, scope);
      case 'call':
        return this.call(expr, scope);
      case 'unary':
        return this.unary(expr, scope);
      case 'binary':
        return this.binary(expr, scope);
      case 'in':
        return this.inList(expr, scope);
      case 'between': {
        const left = this.bind(expr.left, scope);
        const low = this.bind(expr.low, scope);
        const high = this.bind(expr.high, scope);
        const type = this.comparisonType([left, low, high], expr.pos, 'between', scope.strictTypes);
        const args = [left, low, high].map((arg) => convert(arg, type, expr.pos, 'the operands of between'));
        return call('between', args, 'bool', { negated: expr.negated });
      }
      case 'star':
        if (scope.search) return boolLiteral(true);
        throw semanticError(expr.pos, '"*" is not allowed here');
      case 'fieldSearch': {
        if (!scope.search) throw semanticError(expr.pos, 'field:"term" is only allowed in search');
        const field = this.bind(expr.field, scope);
        const term = constantString(this.bind(expr.term, scope));
        if (term === undefined) throw semanticError(expr.term.pos, 'search terms must be string literals');
        return searchTerm(field, term, scope.search.caseSensitive);
      }
    }
  }

  /** Binds a predicate: it must be a bool (dynamic values are converted). */
  predicate(expr: Expr, scope: Scope): TExpr {
    if (scope.search) return this.searchPredicate(expr, scope);
    const bound = this.bind(expr, scope);
    return convert(bound, 'bool', expr.pos, 'a filter');
  }

  private searchPredicate(expr: Expr, scope: Scope): TExpr {
    if (expr.kind === 'literal' && expr.value.type === 'string') {
      const caseSensitive = scope.search!.caseSensitive;
      const term = expr.value.value;
      const searchable = scope.columns.filter((c) => !c.hidden && (c.type === 'string' || c.type === 'dynamic'));
      if (term === '*' || term === '') return boolLiteral(true);
      if (searchable.length === 0) return boolLiteral(false);
      return searchable.map((column) => searchTerm(columnRef(column), term, caseSensitive)).reduce((a, b) => call('or', [a, b], 'bool'));
    }
    if (expr.kind === 'binary' && (expr.op === 'and' || expr.op === 'or')) {
      return call(expr.op, [this.searchPredicate(expr.left, scope), this.searchPredicate(expr.right, scope)], 'bool');
    }
    if (expr.kind === 'call' && expr.name === 'not' && expr.args.length === 1) {
      return call('not', [this.searchPredicate(expr.args[0]!.value, scope)], 'bool');
    }
    return convert(this.bind(expr, scope), 'bool', expr.pos, 'a search predicate');
  }

  private reference(expr: Expr, scope: Scope): TExpr {
    const path = pathSegments(expr);
    if (!path || (path.root.kind !== 'name' && path.segments.length > 0)) {
      // A non-constant index (`a[i]`) or a path on a computed value.
      if (expr.kind === 'index') {
        const target = this.dynamicValue(this.bind(expr.target, scope), expr.pos);
        const index = this.bind(expr.index, scope);
        // Arrays take whole numbers, property bags take keys; anything else is read as one of them.
        if (index.type === 'null') return nullOf('dynamic');
        // A number past every long (1e400 is infinity) converts to null, so it indexes nothing.
        const constant = constantNumber(index);
        if (constant !== undefined && !Number.isFinite(constant)) return nullOf('dynamic');
        const key =
          index.type === 'int' || index.type === 'string'
            ? index
            : index.type === 'real' || index.type === 'bool'
              ? convert(index, 'int', expr.index.pos, 'an index')
              : convert(index, 'string', expr.index.pos, 'an index');
        return call('dyn_index', [target, key], 'dynamic');
      }
      if (expr.kind === 'member') {
        const target = this.dynamicValue(this.bind(expr.target, scope), expr.pos);
        return call('dyn_get', [target], 'dynamic', { path: [expr.name] });
      }
    }
    if (!path || path.root.kind !== 'name') return this.bind(path?.root ?? expr, scope);
    const rootName = path.root.name;
    const names = [...rootName.split('.'), ...path.segments];
    // A path into a map field reads keys of the longest prefix that is a map field, before any
    // flattened field of the whole name (`['geo']['city']` is the key of map `geo`, while
    // `['geo.city']` written as one name is the field of that name when there is one).
    const exact = path.segments.length === 0 ? findColumn(scope.columns, rootName) : undefined;
    if (!exact) {
      const mapped = mapFieldPath(scope.columns, names);
      if (mapped) return mapped;
    }
    // Flattened fields win: `req.method` and ['req.method'] are the field of that name;
    // otherwise the longest prefix that is a field is read as a dynamic path.
    const full = [rootName, ...path.segments.filter((s): s is string => typeof s === 'string')];
    const candidates: { name: string; rest: (string | number)[] }[] = [];
    if (path.segments.every((s) => typeof s === 'string')) candidates.push({ name: full.join('.'), rest: [] });
    for (let k = names.length; k >= 1; k--) {
      if (names.slice(0, k).some((s) => typeof s === 'number')) continue;
      candidates.push({ name: names.slice(0, k).join('.'), rest: names.slice(k) });
    }
    candidates.push({ name: rootName, rest: path.segments });
    for (const candidate of candidates) {
      const column = findColumn(scope.columns, candidate.name);
      if (column) return this.applyPath(columnRef(column), candidate.rest, expr.pos);
    }
    const bound = scope.lets.get(rootName);
    if (bound) return this.applyPath(bound, path.segments, expr.pos);
    const wanted = candidates[0]!.name;
    const unavailable = scope.columns.find((column) => column.unavailable !== undefined && (column.name === wanted || column.name === rootName));
    if (unavailable) throw semanticError(path.root.pos, unavailable.unavailable!, { field: unavailable.name });
    const known = visibleNames(scope.columns);
    throw semanticError(path.root.pos, `unknown field "${wanted}"${didYouMean(wanted, known)}`, {
      field: wanted,
      suggestions: didYouMean(wanted, known) ? known.filter((n) => didYouMean(wanted, [n])) : [],
    });
  }

  private applyPath(base: TExpr, rest: (string | number)[], pos: Position): TExpr {
    if (rest.length === 0) return base;
    return call('dyn_get', [this.dynamicValue(base, pos)], 'dynamic', { path: rest });
  }

  private dynamicValue(expr: TExpr, pos: Position): TExpr {
    if (expr.type === 'dynamic') return expr;
    if (expr.type === 'string' || expr.type === 'null') return call('convert', [expr], 'dynamic');
    throw semanticError(pos, `cannot access a member of ${article(expr.type)}`);
  }

  private call(expr: Extract<Expr, { kind: 'call' }>, scope: Scope): TExpr {
    const name = expr.name;
    if (name === 'typeof') {
      const arg = expr.args[0]?.value;
      if (expr.args.length !== 1 || arg?.kind !== 'name') throw semanticError(expr.pos, 'typeof() expects a type name such as typeof(long)');
      return literal({ type: 'string', value: arg.name });
    }
    const user = scope.userFunction?.(name);
    if (user) {
      const args = expr.args.map((arg) => ({ ...(arg.name ? { name: arg.name } : {}), value: this.bind(arg.value, scope), pos: arg.value.pos }));
      return user(args, expr.pos);
    }
    const rule = SCALAR_FUNCTIONS[name];
    if (rule) {
      const args = expr.args.map((arg) => (arg.value.kind === 'star' ? STAR : this.bind(arg.value, scope)));
      return rule(new CallSite(name, expr.pos, args, expr.args.map((arg) => arg.value.pos), scope.context, rowScope(scope)));
    }
    if (AGGREGATE_FUNCTIONS[name]) {
      if (!scope.aggregates) throw semanticError(expr.pos, `the aggregation ${name}() can only be used in summarize`);
      return scope.aggregates.bindNested(name, expr.args, expr.pos);
    }
    const known = [...Object.keys(SCALAR_FUNCTIONS), ...(scope.aggregates ? Object.keys(AGGREGATE_FUNCTIONS) : [])];
    throw semanticError(expr.pos, `unknown function "${name}"${didYouMean(name, known)}`, { function: name });
  }

  private unary(expr: Extract<Expr, { kind: 'unary' }>, scope: Scope): TExpr {
    const operand = this.bind(expr.operand, scope);
    if (expr.op === 'not') return call('not', [convert(operand, 'bool', expr.pos, 'the operand of not')], 'bool');
    if (!(isNumeric(operand.type) || operand.type === 'timespan' || operand.type === 'null')) {
      const converted = convert(operand, 'real', expr.pos, `the operand of unary ${expr.op}`);
      return expr.op === '-' ? call('neg', [converted], 'real') : converted;
    }
    return expr.op === '-' ? call('neg', [operand], operand.type) : operand;
  }

  private binary(expr: Extract<Expr, { kind: 'binary' }>, scope: Scope): TExpr {
    const op = expr.op;
    if (op === 'and' || op === 'or') {
      const left = this.predicate(expr.left, scope);
      const right = this.predicate(expr.right, scope);
      return call(op, [left, right], 'bool');
    }
    if (expr.left.kind === 'star' && !(op in ARITHMETIC)) return this.anyField(expr, scope);
    const left = this.bind(expr.left, scope);
    const right = this.bind(expr.right, scope);
    if (op in ARITHMETIC) return this.arithmetic(ARITHMETIC[op]!, left, right, expr.pos, op);
    if (op in COMPARISONS) {
      const type = this.comparisonType([left, right], expr.pos, op, scope.strictTypes);
      return call(COMPARISONS[op]!, [convert(left, type, expr.pos, `the left side of ${op}`), convert(right, type, expr.pos, `the right side of ${op}`)], 'bool');
    }
    if (op === '=~' || op === '!~') {
      return call('eq_ci', [this.text(left, expr.pos, op), this.text(right, expr.pos, op)], 'bool', { negated: op === '!~' });
    }
    const negated = op.startsWith('!');
    const fn = STRING_OPERATOR_FNS[negated ? op.slice(1) : op];
    if (fn) return call(fn, [this.text(left, expr.pos, op), this.text(right, expr.pos, op)], 'bool', { negated });
    throw semanticError(expr.pos, `unknown operator "${op}"`);
  }

  private text(expr: TExpr, pos: Position, op: string): TExpr {
    return convert(expr, 'string', pos, `the operands of ${op}`);
  }

  /**
   * `* op value`: true when any searchable field (strings and dynamic values, as `search` looks
   * at them) satisfies `field op value`; with a negated operator (`* !has "x"`), when every
   * field does.
   */
  private anyField(expr: Extract<Expr, { kind: 'binary' }>, scope: Scope): TExpr {
    return this.eachField(expr.op.startsWith('!'), scope, (field) => this.binary({ ...expr, left: field }, this.fieldFirst(field, scope)));
  }

  private eachField(negated: boolean, scope: Scope, test: (field: Extract<Expr, { kind: 'name' }>) => TExpr): TExpr {
    const fields = scope.columns.filter((c) => !c.hidden && !c.implicit && (c.type === 'string' || c.type === 'dynamic'));
    if (fields.length === 0) return boolLiteral(negated);
    const pos = { offset: 0, line: 1, column: 1 };
    return fields.map((field) => test({ kind: 'name', pos, name: field.name, bracketed: true })).reduce((a, b) => call(negated ? 'and' : 'or', [a, b], 'bool'));
  }

  /** The scope with the named field found first, so a name shared by a hidden column resolves to it. */
  private fieldFirst(field: Extract<Expr, { kind: 'name' }>, scope: Scope): Scope {
    const column = scope.columns.find((c) => !c.hidden && c.name === field.name)!;
    return { ...scope, columns: [column, ...scope.columns.filter((c) => c !== column)] };
  }

  /** The type two values are compared as; strings next to numbers or dates are converted. */
  comparisonType(values: TExpr[], pos: Position, op: string, strict = false): AplType {
    const types = [...new Set(values.map((v) => v.type).filter((t) => t !== 'null'))];
    if (types.length === 0) return 'null';
    if (types.length === 1) return types[0]!;
    if (strict && !types.every(isNumeric) && !types.includes('dynamic')) {
      throw semanticError(pos, `cannot compare ${types.map(article).join(' with ')} using ${op} under set stricttypes`, { types });
    }
    if (types.every(isNumeric)) return types.includes('real') ? 'real' : 'int';
    const typed = types.filter((t) => t !== 'dynamic' && t !== 'string');
    if (typed.length === 0) return 'string';
    if (typed.length === 1) {
      // A dynamic value may hold a fraction: compare it with a long as a real, not truncated.
      const target = typed[0] === 'int' && types.includes('dynamic') ? 'real' : typed[0]!;
      if (types.every((t) => convertible(t, target))) return target;
    }
    if (typed.every((t) => isNumeric(t))) return 'real';
    throw semanticError(pos, `cannot compare ${types.map(article).join(' with ')} using ${op}`, { types });
  }

  private arithmetic(fn: string, left: TExpr, right: TExpr, pos: Position, op: string): TExpr {
    const l = left.type;
    const r = right.type;
    const fail = () => semanticError(pos, `cannot apply ${op} to ${article(l)} and ${article(r)}`, { left: l, right: r });
    const numeric = (t: AplType) => isNumeric(t) || t === 'null';
    if (fn === 'add' || fn === 'sub') {
      if (l === 'datetime' && r === 'datetime' && fn === 'sub') return call('sub', [left, right], 'timespan');
      if (l === 'datetime' && (r === 'timespan' || r === 'null')) return call(fn, [left, convert(right, 'timespan', pos, op)], 'datetime');
      if (l === 'timespan' && r === 'datetime' && fn === 'add') return call('add', [right, left], 'datetime');
      if (l === 'timespan' && (r === 'timespan' || r === 'null')) return call(fn, [left, convert(right, 'timespan', pos, op)], 'timespan');
      if (l === 'null' && r === 'timespan') return call(fn, [convert(left, 'timespan', pos, op), right], 'timespan');
    }
    if (fn === 'mul' || fn === 'div') {
      if (l === 'timespan' && r === 'timespan' && fn === 'div') return call('div', [left, right], 'real');
      if (l === 'timespan' && numeric(r)) return call(fn, [left, right], 'timespan');
      if (r === 'timespan' && numeric(l) && fn === 'mul') return call('mul', [right, left], 'timespan');
    }
    if (fn === 'mod' && l === 'timespan' && r === 'timespan') return call('mod', [left, right], 'timespan');
    const asNumber = (expr: TExpr): TExpr => {
      if (numeric(expr.type)) return expr;
      if (expr.type === 'string' || expr.type === 'dynamic' || expr.type === 'bool') return convert(expr, 'real', pos, op);
      throw fail();
    };
    const a = asNumber(left);
    const b = asNumber(right);
    if ([a.type, b.type].includes('datetime') || [a.type, b.type].includes('timespan')) throw fail();
    const type: AplType = a.type === 'real' || b.type === 'real' ? 'real' : 'int';
    return call(fn, [convert(a, type, pos, op), convert(b, type, pos, op)], type);
  }

  private inList(expr: Extract<Expr, { kind: 'in' }>, scope: Scope): TExpr {
    if (expr.left.kind === 'star') {
      return this.eachField(expr.op.startsWith('!'), scope, (field) => this.inList({ ...expr, left: field }, this.fieldFirst(field, scope)));
    }
    const single = expr.items.length === 1 ? expr.items[0]! : undefined;
    const tableName =
      single?.kind === 'name' && !single.bracketed && !findColumn(scope.columns, single.name) && !scope.lets.has(single.name) && scope.isTable?.(single.name) ? single : undefined;
    if (expr.subquery || tableName) {
      if (!scope.tabular) throw semanticError(expr.pos, 'a table is not allowed in this list');
      const tabular: Tabular = expr.subquery ?? { pos: tableName!.pos, source: { kind: 'named', pos: tableName!.pos, name: tableName!.name, bracketed: false }, operators: [] };
      return this.inSubquery(expr, this.bind(expr.left, scope), scope.tabular(tabular), scope);
    }
    const left = this.bind(expr.left, scope);
    const items: TExpr[] = [];
    for (const item of expr.items) {
      const bound = this.bind(item, scope);
      // A dynamic array literal contributes its elements.
      if (bound.kind === 'literal' && bound.value.type === 'dynamic' && Array.isArray(bound.value.value)) {
        for (const element of bound.value.value) items.push(jsonLiteral(element));
      } else items.push(bound);
    }
    const op = expr.op;
    if (op.startsWith('has_any') || op.startsWith('has_all')) {
      const terms = items.map((item) => this.text(item, expr.pos, op));
      return call(op.startsWith('has_any') ? 'has_any' : 'has_all', [this.text(left, expr.pos, op), ...terms], 'bool', {
        caseSensitive: op.endsWith('_cs'),
      });
    }
    const negated = op.startsWith('!');
    const caseInsensitive = op.endsWith('~');
    if (caseInsensitive) {
      return call('in', [this.text(left, expr.pos, op), ...items.map((i) => this.text(i, expr.pos, op))], 'bool', { negated, caseInsensitive });
    }
    const type = this.comparisonType([left, ...items], expr.pos, op, scope.strictTypes);
    return call('in', [left, ...items].map((value) => convert(value, type, expr.pos, `the operands of ${op}`)), 'bool', { negated, caseInsensitive });
  }

  /** `x in (T)`: membership in the first field of a tabular subquery. */
  private inSubquery(expr: Extract<Expr, { kind: 'in' }>, left: TExpr, subquery: { rel: Rel; column: RelColumn }, scope: Scope): TExpr {
    const op = expr.op;
    if (op.startsWith('has_')) throw semanticError(expr.pos, `${op} takes a list of terms, not a table`);
    const caseInsensitive = op.endsWith('~');
    const column: TExpr = { kind: 'column', id: subquery.column.id, type: subquery.column.type };
    const type = caseInsensitive ? 'string' : this.comparisonType([left, column], expr.pos, op, scope.strictTypes);
    return call('in_subquery', [convert(left, type, expr.pos, `the left side of ${op}`)], 'bool', {
      rel: subquery.rel,
      column: subquery.column.id,
      columnType: subquery.column.type,
      compareType: type,
      negated: op.startsWith('!'),
      caseInsensitive,
    });
  }
}

const isMapField = (column: RelColumn) => column.stored?.type === 'map';

/**
 * Keys inside the longest proper prefix of `names` that is a map field, or undefined. Map keys
 * often hold dots themselves (`http.protocol`), so a dotted rest of two or more keys reads the
 * nested path first and the dotted key second.
 */
function mapFieldPath(columns: RelColumn[], names: (string | number)[]): TExpr | undefined {
  for (let k = names.length - 1; k >= 1; k--) {
    const prefix = names.slice(0, k);
    if (prefix.some((s) => typeof s === 'number')) continue;
    const column = findColumn(columns, prefix.join('.'));
    if (!column || !isMapField(column)) continue;
    const rest = names.slice(k);
    const nested = call('dyn_get', [columnRef(column)], 'dynamic', { path: rest });
    if (rest.length < 2 || rest.some((s) => typeof s === 'number')) return nested;
    return call('coalesce', [nested, call('dyn_get', [columnRef(column)], 'dynamic', { path: [rest.join('.')] })], 'dynamic');
  }
  return undefined;
}

/** The fields a call may look up by name: the columns in scope, implicit ones included. */
export function rowScope(scope: Scope): RowScope {
  return {
    field: (name) => {
      const column = findColumn(scope.columns, name);
      return column ? columnRef(column) : undefined;
    },
    fields: () => scope.columns.filter((c) => !c.hidden && !c.implicit).map((c) => ({ name: c.name, expr: columnRef(c) })),
  };
}

function jsonLiteral(value: unknown): TExpr {
  if (value === null) return nullOf('null');
  if (typeof value === 'string') return literal({ type: 'string', value });
  if (typeof value === 'boolean') return literal({ type: 'bool', value });
  if (typeof value === 'number') return Number.isInteger(value) ? literal({ type: 'int', value: BigInt(value) }) : literal({ type: 'real', value });
  return literal({ type: 'dynamic', value });
}

/** A `search` term with Kusto's wildcard rules: term, *suffix, prefix*, *infix*, or a pattern. */
export function searchTerm(field: TExpr, term: string, caseSensitive: boolean): TExpr {
  const text = field.type === 'string' ? field : call('cast', [field], 'string');
  const cs = caseSensitive ? '_cs' : '';
  const starts = term.startsWith('*');
  const ends = term.endsWith('*') && term.length > 1;
  const core = term.slice(starts ? 1 : 0, ends ? -1 : undefined);
  if (core === '') return boolLiteral(true);
  if (!core.includes('*') && !core.includes('?')) {
    const fn = starts && ends ? 'contains' : starts ? 'hassuffix' : ends ? 'hasprefix' : 'has';
    return call(fn + cs, [text, literal({ type: 'string', value: core })], 'bool', { negated: false });
  }
  const pattern = term
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const regex = `${caseSensitive ? '' : '(?i)'}\\b${pattern}\\b`;
  return call('regex_match', [text, literal({ type: 'string', value: regex })], 'bool', { negated: false });
}
