// Semantic analysis of a parsed query: resolves sources against the dataset schemas, binds
// every operator's expressions over the columns in scope, and builds the typed plan together
// with what the result needs to describe itself (order, groups, time buckets, row identity).
import type { DatasetSchema } from '../../fields/schema';
import { ROW_ID_FIELD, SYS_TIME_FIELD, TIME_FIELD } from '../../fields/system-fields';
import { DomainError, invalidInput } from '../../errors';
import type {
  Arg,
  Assignment,
  Expr,
  FunctionBody,
  FunctionParameter,
  LetStatement,
  NamePattern,
  Operator,
  Query,
  Source,
  Tabular,
  UnionOptions,
} from '../syntax/ast';
import { type Position, semanticError } from '../syntax/position';
import { checkPlanExpressions, DEFAULT_QUERY_LIMITS, ExpandedMeasure, type QueryLimits, tooManyOperators, tooMuchExpansion } from '../limits';
import { AGGREGATE_FUNCTIONS, type AggregateOutput, type AggregationInfo } from './aggregates';
import { Binder, columnRef, displayName, findColumn, type Scope, STAR, visibleNames } from './binder';
import { CallSite, type QueryContext } from './call-site';
import { aplTypeOfField } from './field-types';
import { mvExpand } from './operators/expand';
import { callTabularFunction, invokeFunction, snapshot, userScalarFunction } from './operators/functions';
import { joinOperator, lookupOperator } from './operators/joins';
import { parseKv, parseWhere } from './operators/parsing';
import { parsePattern } from './parse-pattern';
import { applyQueryOption } from './operators/query-options';
import { extendValid, redact } from './operators/rewrites';
import { makeSeries } from './operators/series';
import { limitTimeSeries, timeSeriesOrigins } from './operators/summarize-limit';
import { datatableSource, findSource, printSource, searchSource, unionOperator, unionSource } from './operators/sources';
import { sampleDistinct, topHitters, topNested } from './operators/top-nested';
import type { AggregateCall, AplType, Rel, RelColumn, SortKeyPlan, TExpr } from './plan';
import { datasetReferencesOf } from './references';
import { PARSE_TYPES } from './type-names';
import { didYouMean } from './suggest';
import { call, constantNumber, convert, intLiteral, isNumeric, literal, nullOf, stringLiteral } from './typed';
import { bindVirtualFields } from './virtual-fields';

export interface OrderEntry {
  id: string;
  name: string;
  desc: boolean;
}

export interface AggregationSummary {
  /** Ids of the group-by columns. */
  groupIds: string[];
  /** The time bin among the groups (`bin(_time, 1h)`, `bin_auto(_time)`). */
  timeBin?: { id: string; spanNanos: bigint };
  /** Aggregation info of each aggregate output column, by id. */
  infos: Map<string, AggregationInfo>;
}

/** The state of the pipeline after each operator. */
export interface Stage {
  rel: Rel;
  /** The columns that identify a stored event (for cursors and default ordering), while they survive. */
  identity?: EventIdentity;
  order: OrderEntry[];
  explicitOrder: boolean;
  aggregation?: AggregationSummary;
  /** The row limit the query itself imposes (take/limit/top), while it still bounds the output. */
  limit?: number;
  datasets: Set<string>;
}

/** Columns that identify stored events; kept (hidden if need be) while rows stay events. */
export interface EventIdentity {
  timeId: string;
  rowIdId: string;
  sysTimeId: string;
}

export interface AnalyzedQuery {
  rel: Rel;
  identity?: EventIdentity;
  order: OrderEntry[];
  explicitOrder: boolean;
  aggregation?: AggregationSummary;
  limit?: number;
  datasets: string[];
  scans: Extract<Rel, { op: 'scan' }>[];
}

export interface AnalyzeOptions {
  datasets: ReadonlyMap<string, DatasetSchema>;
  /** Views the query names, by name. */
  views?: ReadonlyMap<string, ViewSource>;
  context: QueryContext;
  /** Request variables, visible to the query as `let` bindings. */
  variables?: Record<string, unknown>;
  limits?: QueryLimits;
}

/**
 * A view a query names: its own query, analyzed in place of the name as a source, over the
 * datasets it reads (resolved on the view's authority, and visible only inside it).
 */
export interface ViewSource {
  name: string;
  query: Query;
  datasets: readonly DatasetSchema[];
}

/** Dataset names a query reads (sources not bound by `let`), for resolving them up front. */
export function datasetNamesOf(query: Query): string[] {
  return datasetReferencesOf(query).names;
}

export function analyze(query: Query, options: AnalyzeOptions): AnalyzedQuery {
  return new Analyzer(options).run(query);
}

/** A tabular value bound to a name: a let statement's expression (analyzed where used) or an analyzed stage. */
export type TabularBinding = { kind: 'syntax'; tabular: Tabular; env: Env } | { kind: 'stage'; stage: Stage };

/** A user-defined function with the names visible where it was defined. */
export interface FunctionBinding {
  name: string;
  parameters: FunctionParameter[];
  body: FunctionBody;
  env: Env;
}

/** The names in scope: scalar lets, tabular lets, functions and dataset aliases. */
export interface Env {
  scalars: Map<string, TExpr>;
  tables: Map<string, TabularBinding>;
  functions: Map<string, FunctionBinding>;
  aliases: Map<string, string>;
}

const MAX_CALL_DEPTH = 32;

/**
 * How many times the expression limit the binder may bind (nodes but literals, every expansion of
 * a function body or let counted), however little of it stays in the plan.
 */
const BINDING_WORK_FACTOR = 4;

export class Analyzer {
  private nextId = 0;
  readonly binder: Binder;
  env: Env = { scalars: new Map(), tables: new Map(), functions: new Map(), aliases: new Map() };
  private readonly scans: Extract<Rel, { op: 'scan' }>[] = [];
  /** `set stricttypes`: comparisons need operands of the same type. */
  strictTypes = false;
  private callDepth = 0;
  readonly limits: QueryLimits;
  private readonly expanded: ExpandedMeasure;
  /** Tabular operators analyzed so far; a tabular let or function is analyzed again wherever it is used. */
  private operators = 0;
  /** Syntax nodes bound so far (see BINDING_WORK_FACTOR). */
  private bound = 0;

  /** The query's options; while a view is analyzed in place, with the view's own datasets. */
  constructor(public options: AnalyzeOptions) {
    this.limits = options.limits ?? DEFAULT_QUERY_LIMITS;
    this.expanded = new ExpandedMeasure(this.limits);
    this.binder = new Binder((pos) => {
      if (++this.bound > BINDING_WORK_FACTOR * this.limits.maxExpressionNodes) throw tooMuchExpansion(pos, this.limits);
    });
  }

  run(query: Query): AnalyzedQuery {
    for (const option of query.options ?? []) applyQueryOption(this, option);
    for (const [name, value] of Object.entries(this.options.variables ?? {})) this.env.scalars.set(name, variableLiteral(value));
    this.bindLets(query.lets);
    const stage = this.tabular(query.body);
    checkPlanExpressions(stage.rel, this.expanded, this.limits);
    return {
      rel: stage.rel,
      ...(stage.identity ? { identity: stage.identity } : {}),
      order: stage.order,
      explicitOrder: stage.explicitOrder,
      ...(stage.aggregation ? { aggregation: stage.aggregation } : {}),
      ...(stage.limit !== undefined ? { limit: stage.limit } : {}),
      datasets: [...stage.datasets],
      scans: this.scans,
    };
  }

  /** Binds let statements, in order, into the current environment. */
  bindLets(lets: LetStatement[]): void {
    for (const statement of lets) {
      const env = this.env;
      const value = statement.value;
      if (value.kind === 'tabular') {
        env.tables.set(statement.name, { kind: 'syntax', tabular: value.tabular, env: snapshot(env) });
        continue;
      }
      if (value.kind === 'function') {
        env.functions.set(statement.name, { name: statement.name, parameters: value.parameters, body: value.body, env: snapshot(env) });
        continue;
      }
      const expr = value.expr;
      if (expr.kind === 'name' && !env.scalars.has(expr.name)) {
        // `let t = other;` where other is a tabular let, a function without parameters or a dataset.
        const tabular = env.tables.get(expr.name);
        if (tabular) {
          env.tables.set(statement.name, tabular);
          continue;
        }
        if (env.functions.has(expr.name) || this.options.datasets.has(env.aliases.get(expr.name) ?? expr.name)) {
          env.aliases.set(statement.name, env.aliases.get(expr.name) ?? expr.name);
          continue;
        }
      }
      const bound = this.binder.bind(expr, this.scope([]));
      this.checkExpanded(bound, statement.pos);
      env.scalars.set(statement.name, bound);
    }
  }

  /** Refuses an expression that stands for too much once its let names and function calls are expanded. */
  checkExpanded(expr: TExpr, pos: Position): void {
    this.expanded.check(expr, pos);
  }

  /** Runs `body` with `env` as the names in scope. */
  withEnv<T>(env: Env, body: () => T): T {
    const saved = this.env;
    this.env = env;
    if (++this.callDepth > MAX_CALL_DEPTH) {
      this.callDepth = 0;
      throw invalidInput(`let statements and functions nest more than ${MAX_CALL_DEPTH} deep; recursion is not supported`);
    }
    try {
      return body();
    } finally {
      this.callDepth--;
      this.env = saved;
    }
  }

  column(name: string, type: AplType, extra: Partial<RelColumn> = {}): RelColumn {
    return { id: `c${this.nextId++}`, name, type, ...extra };
  }

  scope(columns: RelColumn[], extra: Partial<Scope> = {}): Scope {
    return {
      columns,
      lets: this.env.scalars,
      context: this.options.context,
      userFunction: (name) => userScalarFunction(this, name),
      tabular: (tabular) => {
        const stage = this.tabular(tabular);
        const column = this.visible(stage)[0];
        if (!column) throw semanticError(tabular.pos, 'the subquery has no field to compare with');
        return { rel: stage.rel, column };
      },
      isTable: (name) => this.env.tables.has(name) || this.env.functions.has(name) || this.options.datasets.has(this.env.aliases.get(name) ?? name),
      ...(this.strictTypes ? { strictTypes: true } : {}),
      ...extra,
    };
  }

  // ---- sources ---------------------------------------------------------------------------

  tabular(tabular: Tabular): Stage {
    this.operators += 1 + tabular.operators.length;
    if (this.operators > this.limits.maxOperators) throw tooManyOperators(tabular.pos, this.limits);
    let stage = this.source(tabular.source);
    for (const op of tabular.operators) stage = this.operator(stage, op);
    return stage;
  }

  private source(source: Source): Stage {
    switch (source.kind) {
      case 'subquery':
        return this.tabular(source.tabular);
      case 'union':
        return unionSource(this, source.tables, source.options ?? {}, source.pos);
      case 'named': {
        if (source.wildcard) return unionSource(this, [{ pos: source.pos, source, operators: [] }], {}, source.pos);
        return this.named(source.name, source.pos);
      }
      case 'print':
        return printSource(this, source);
      case 'datatable':
        return datatableSource(this, source);
      case 'externaldata':
        throw semanticError(
          source.pos,
          'externaldata reads from external URLs, and this server has no outbound network access; ingest the data into a dataset, or write it inline with datatable',
        );
      case 'search':
        return searchSource(this, source);
      case 'find':
        return findSource(this, source);
      case 'call':
        return callTabularFunction(this, source.name, source.args, source.pos);
    }
  }

  /** A named source: a tabular let, a function without parameters, or a dataset. */
  named(name: string, pos: Position): Stage {
    const tabularLet = this.env.tables.get(name);
    if (tabularLet) return tabularLet.kind === 'stage' ? tabularLet.stage : this.withEnv(tabularLet.env, () => this.tabular(tabularLet.tabular));
    const target = this.env.aliases.get(name) ?? name;
    if (this.env.functions.has(target)) return callTabularFunction(this, target, [], pos);
    const dataset = this.options.datasets.get(target);
    if (dataset) return this.scan(dataset);
    const view = this.options.views?.get(target);
    if (view) return this.view(view);
    const known = [...this.options.datasets.keys(), ...(this.options.views?.keys() ?? [])];
    throw semanticError(pos, `unknown dataset "${target}"${didYouMean(target, known)}`, { dataset: target });
  }

  /**
   * A view as a source: its query, analyzed in place of its name with only its own let
   * statements and the datasets it reads in reach (a view cannot name another view); errors
   * inside it name the view.
   */
  private view(view: ViewSource): Stage {
    const outer = this.options;
    this.options = { context: outer.context, datasets: new Map(view.datasets.map((schema) => [schema.name, schema])) };
    try {
      return this.withEnv({ scalars: new Map(), tables: new Map(), functions: new Map(), aliases: new Map() }, () => {
        this.bindLets(view.query.lets);
        return { ...this.tabular(view.query.body), datasets: new Set([view.name]) };
      });
    } catch (error) {
      if (error instanceof DomainError) throw invalidInput(`view "${view.name}": ${error.message}`, error.details);
      throw error;
    } finally {
      this.options = outer;
    }
  }

  scan(dataset: DatasetSchema): Stage {
    const columns: RelColumn[] = [];
    const sourceColumns = new Map<string, string>();
    for (const field of dataset.fields) {
      // Like Axiom, results leave _rowId out unless a query names it.
      const column = this.column(field.name, aplTypeOfField(field.type), field.name === ROW_ID_FIELD ? { stored: field, implicit: true } : { stored: field });
      columns.push(column);
      sourceColumns.set(column.id, field.column);
    }
    const time = columns.find((c) => c.name === TIME_FIELD);
    const rowId = columns.find((c) => c.name === ROW_ID_FIELD);
    const sysTime = columns.find((c) => c.name === SYS_TIME_FIELD);
    if (!time || !rowId || !sysTime) throw new Error(`dataset ${dataset.name} lacks the system fields`);
    const rel: Extract<Rel, { op: 'scan' }> = { op: 'scan', columns, dataset, sourceColumns, timeColumnId: time.id, rowIdColumnId: rowId.id };
    this.scans.push(rel);
    let withVirtual: Rel = rel;
    if (dataset.virtualFields?.length) {
      const bound = bindVirtualFields(columns, dataset.virtualFields, this.options.context, this.binder, (name, type, extra) => this.column(name, type, extra));
      withVirtual = { op: 'project', columns: bound.columns, input: rel, exprs: bound.exprs };
    }
    return {
      rel: withVirtual,
      identity: { timeId: time.id, rowIdId: rowId.id, sysTimeId: sysTime.id },
      order: [],
      explicitOrder: false,
      datasets: new Set([dataset.name]),
    };
  }

  /**
   * Rows of every input: all their fields (`kind=inner`: only those every input has), types
   * widened where inputs disagree, and with `withSource` a first field naming each row's input.
   */
  union(inputs: Stage[], pos: Position, options: UnionOptions = {}, sourceNames: string[] = []): Stage {
    const names: string[] = [];
    const types = new Map<string, AplType[]>();
    for (const input of inputs) {
      for (const column of input.rel.columns) {
        if (column.hidden || column.implicit) continue;
        if (!types.has(column.name)) {
          names.push(column.name);
          types.set(column.name, []);
        }
        types.get(column.name)!.push(column.type);
      }
    }
    const kept = options.kind === 'inner' ? names.filter((name) => inputs.every((input) => findColumn(this.visible(input), name))) : names;
    const source = options.withSource !== undefined ? this.column(options.withSource, 'string') : undefined;
    const columns = [...(source ? [source] : []), ...kept.filter((name) => name !== options.withSource).map((name) => this.column(name, unionType(types.get(name)!)))];
    const withIdentity = inputs.every((input) => input.identity);
    // Identity columns: the visible _time/_rowId/_sysTime when every input passes its own
    // through unchanged, hidden extra columns otherwise.
    const roles = [
      { key: 'timeId', name: TIME_FIELD, type: 'datetime' },
      { key: 'rowIdId', name: ROW_ID_FIELD, type: 'int' },
      { key: 'sysTimeId', name: SYS_TIME_FIELD, type: 'datetime' },
    ] as const;
    const identityColumns: RelColumn[] = [];
    const identityIds: string[] = [];
    for (const role of roles) {
      if (!withIdentity) break;
      const visible = columns.find((c) => c.name === role.name);
      const passedThrough = inputs.every((input) => findColumn(input.rel.columns, role.name)?.id === input.identity![role.key]);
      if (visible && passedThrough) identityIds.push(visible.id);
      else {
        const hidden = this.column(role.name, role.type, role.name === ROW_ID_FIELD ? { implicit: true } : { hidden: true });
        identityColumns.push(hidden);
        identityIds.push(hidden.id);
      }
    }
    const rel: Rel = {
      op: 'union',
      columns: [...columns, ...identityColumns],
      inputs: inputs.map((input, i) => {
        const exprs = columns.map((out) => {
          if (out === source) return literal({ type: 'string', value: sourceNames[i] ?? `union_arg${i}` });
          const from = findColumn(input.rel.columns, out.name);
          return from ? convert(columnRef(from), out.type, pos, `field "${out.name}" of union`) : nullOf(out.type);
        });
        for (const column of identityColumns) {
          const role = roles.find((r) => r.name === column.name)!;
          exprs.push({ kind: 'column', id: input.identity![role.key], type: role.type });
        }
        return { rel: input.rel, exprs };
      }),
    };
    const datasets = new Set(inputs.flatMap((input) => [...input.datasets]));
    return {
      rel,
      ...(withIdentity ? { identity: { timeId: identityIds[0]!, rowIdId: identityIds[1]!, sysTimeId: identityIds[2]! } } : {}),
      order: [],
      explicitOrder: false,
      datasets,
    };
  }

  // ---- operators -------------------------------------------------------------------------

  operator(stage: Stage, op: Operator): Stage {
    switch (op.kind) {
      case 'where': {
        const predicate = this.binder.predicate(op.predicate, this.scope(stage.rel.columns));
        return { ...stage, rel: { op: 'filter', columns: stage.rel.columns, input: stage.rel, predicate } };
      }
      case 'search': {
        const predicate = this.binder.predicate(op.predicate, this.scope(stage.rel.columns, { search: { caseSensitive: op.caseSensitive } }));
        return { ...stage, rel: { op: 'filter', columns: stage.rel.columns, input: stage.rel, predicate } };
      }
      case 'project':
        return this.project(stage, op.items);
      case 'extend':
        return this.extend(stage, op.items);
      case 'project-away': {
        const drop = this.matchPatterns(stage, op.patterns);
        return this.passthrough(stage, this.visible(stage).filter((c) => !drop.has(c.id)));
      }
      case 'project-keep': {
        const keep = this.matchPatterns(stage, op.patterns);
        return this.passthrough(stage, this.visible(stage).filter((c) => keep.has(c.id)));
      }
      case 'project-rename': {
        let columns = this.visible(stage);
        for (const rename of op.renames) {
          const old = columns.find((c) => c.name === rename.oldName);
          if (!old) throw this.unknownField(rename.pos, rename.oldName, columns);
          columns = columns.map((c) => (c.id === old.id ? { ...c, name: rename.newName } : c));
        }
        this.checkUnique(columns, op.pos);
        return this.passthrough(stage, columns);
      }
      case 'project-reorder': {
        const visible = this.visible(stage);
        const first: RelColumn[] = [];
        // A field named explicitly goes where it is named, even when a pattern before it matches
        // it too; a lone `*` stands for the fields no other item matches.
        const named = new Set(op.items.filter((item) => !item.pattern.pattern.includes('*')).map((item) => item.pattern.pattern));
        const patterns = op.items.filter((item) => item.pattern.pattern.includes('*') && item.pattern.pattern !== '*').map((item) => item.pattern.pattern);
        for (const item of op.items) {
          const wildcard = item.pattern.pattern.includes('*');
          const rest = item.pattern.pattern === '*';
          const matched = visible.filter(
            (c) =>
              matchesPattern(c.name, item.pattern.pattern) &&
              !first.includes(c) &&
              (!wildcard || !named.has(c.name)) &&
              (!rest || !patterns.some((pattern) => matchesPattern(c.name, pattern))),
          );
          if (matched.length === 0 && !wildcard && !first.some((c) => c.name === item.pattern.pattern)) throw this.unknownField(item.pattern.pos, item.pattern.pattern, visible);
          if (item.order) matched.sort((a, b) => (item.order === 'asc' ? a.name.localeCompare(b.name) : b.name.localeCompare(a.name)));
          first.push(...matched);
        }
        return this.passthrough(stage, [...first, ...visible.filter((c) => !first.includes(c))]);
      }
      case 'summarize':
        return this.summarize(stage, op.aggregates, op.by, op.pos);
      case 'count': {
        const count = this.column('count', 'int');
        const rel: Rel = { op: 'aggregate', columns: [count], input: stage.rel, groups: [], aggregates: [{ fn: 'count', args: [], type: 'int' }] };
        return {
          rel,
          order: [],
          explicitOrder: false,
          aggregation: { groupIds: [], infos: new Map([[count.id, { name: 'count', fields: [], args: [] }]]) },
          datasets: stage.datasets,
        };
      }
      case 'distinct': {
        const scope = this.scope(stage.rel.columns);
        const items: Assignment[] =
          op.items.length === 1 && op.items[0]!.kind === 'star'
            ? this.visible(stage).map((c) => ({ pos: op.pos, expr: { kind: 'name', pos: op.pos, name: c.name, bracketed: true } as Expr }))
            : op.items.map((expr) => ({ pos: expr.pos, expr }));
        const groups = items.map((item, i) => ({ expr: this.binder.bind(item.expr, scope), name: displayName(item.expr) ?? `Column${i + 1}` }));
        const columns = groups.map((g) => this.column(g.name, g.expr.type));
        this.checkUnique(columns, op.pos);
        const rel: Rel = { op: 'aggregate', columns, input: stage.rel, groups: groups.map((g) => g.expr), aggregates: [] };
        return { rel, order: [], explicitOrder: false, aggregation: { groupIds: columns.map((c) => c.id), infos: new Map() }, datasets: stage.datasets };
      }
      case 'sort':
        return this.sort(stage, op.keys);
      case 'take': {
        const count = this.rowCount(op.count, stage, 'take');
        const series = timeSeriesOrigins.get(stage.rel);
        if (series) return limitTimeSeries(this, stage, series, count, op.pos);
        return this.limitStage(stage, count);
      }
      case 'top': {
        const count = this.rowCount(op.count, stage, 'top');
        return this.limitStage(this.sort(stage, [op.key]), count);
      }
      case 'sample': {
        const value = constantNumber(this.binder.bind(op.count, this.scope([])));
        if (value === undefined || !(value > 0)) throw semanticError(op.count.pos, 'sample expects a positive number: a fraction below 1 or a row count');
        const rel: Rel =
          value < 1
            ? { op: 'sample', columns: stage.rel.columns, input: stage.rel, fraction: value }
            : { op: 'sample', columns: stage.rel.columns, input: stage.rel, rows: Math.floor(value) };
        return { ...stage, rel, order: [], explicitOrder: true, ...(value >= 1 ? { limit: Math.min(stage.limit ?? Infinity, Math.floor(value)) } : {}) };
      }
      case 'getschema': {
        const columns = [this.column('ColumnName', 'string'), this.column('ColumnOrdinal', 'int'), this.column('DataType', 'string'), this.column('ColumnType', 'string')];
        const rows = this.visible(stage).map((c, i) => {
          const type = schemaTypeName(c);
          return [stringLiteral(c.name), intLiteral(i), stringLiteral(type), stringLiteral(type)];
        });
        return { rel: { op: 'values', columns, rows }, order: [], explicitOrder: false, datasets: stage.datasets };
      }
      case 'parse':
        return this.parse(stage, op);
      case 'join':
        return joinOperator(this, stage, op);
      case 'lookup':
        return lookupOperator(this, stage, op);
      case 'union':
        return unionOperator(this, stage, op);
      case 'mv-expand':
        return mvExpand(this, stage, op);
      case 'make-series':
        return makeSeries(this, stage, op);
      case 'parse-where':
        return parseWhere(this, stage, op);
      case 'parse-kv':
        return parseKv(this, stage, op);
      case 'extend-valid':
        return extendValid(this, stage, op);
      case 'redact':
        return redact(this, stage, op);
      case 'top-nested':
        return topNested(this, stage, op);
      case 'top-hitters':
        return topHitters(this, stage, op);
      case 'sample-distinct':
        return sampleDistinct(this, stage, op);
      case 'invoke':
        return invokeFunction(this, stage, op);
    }
  }

  visible(stage: Stage): RelColumn[] {
    return stage.rel.columns.filter((c) => !c.hidden && !c.implicit);
  }

  unknownField(pos: Position, name: string, columns: RelColumn[]) {
    const known = visibleNames(columns);
    return semanticError(pos, `unknown field "${name}"${didYouMean(name, known)}`, { field: name });
  }

  checkUnique(columns: RelColumn[], pos: Position): void {
    const seen = new Set<string>();
    for (const column of columns) {
      if (column.hidden || column.implicit) continue;
      if (seen.has(column.name)) throw semanticError(pos, `the field "${column.name}" appears twice in the output`, { field: column.name });
      seen.add(column.name);
    }
  }

  matchPatterns(stage: Stage, patterns: NamePattern[]): Set<string> {
    const visible = this.visible(stage);
    const matched = new Set<string>();
    for (const { pattern, pos } of patterns) {
      const hits = visible.filter((c) => matchesPattern(c.name, pattern));
      if (hits.length === 0 && !pattern.includes('*')) throw this.unknownField(pos, pattern, visible);
      for (const hit of hits) matched.add(hit.id);
    }
    return matched;
  }

  /** A projection of existing columns (possibly renamed or reordered), keeping identity hidden. */
  passthrough(stage: Stage, columns: RelColumn[]): Stage {
    return this.projectStage(
      stage,
      columns.map((column) => ({ column, expr: columnRef(column) })),
    );
  }

  /** Projects `outputs`, keeping the event identity as hidden columns when projected away. */
  projectStage(stage: Stage, outputs: { column: RelColumn; expr: TExpr }[]): Stage {
    const items = [...outputs];
    const present = new Set(items.map((item) => item.column.id));
    const listedNames = new Set(items.filter((item) => !item.column.hidden).map((item) => item.column.name));
    const keep = (id: string, name: string, type: AplType) => {
      if (present.has(id)) return;
      // An implicit column stays addressable unless an output has taken its name.
      const implicit = stage.rel.columns.find((c) => c.id === id)?.implicit && !listedNames.has(name);
      const column: RelColumn = implicit ? { id, name, type, implicit: true } : { id, name, type, hidden: true };
      items.push({ column, expr: { kind: 'column', id, type } });
      present.add(id);
    };
    if (stage.identity) {
      keep(stage.identity.timeId, TIME_FIELD, 'datetime');
      keep(stage.identity.rowIdId, ROW_ID_FIELD, 'int');
      keep(stage.identity.sysTimeId, SYS_TIME_FIELD, 'datetime');
    }
    // Sort keys stay reachable so the order survives the projection.
    for (const entry of stage.order) {
      const source = stage.rel.columns.find((c) => c.id === entry.id);
      if (source) keep(entry.id, entry.name, source.type);
    }
    const rel: Rel = { op: 'project', columns: items.map((i) => i.column), input: stage.rel, exprs: items.map((i) => i.expr) };
    const aggregation = stage.aggregation && this.narrowAggregation(stage.aggregation, rel.columns);
    const { aggregation: _dropped, ...rest } = stage;
    return { ...rest, rel, ...(aggregation ? { aggregation } : {}) };
  }

  private narrowAggregation(summary: AggregationSummary, columns: RelColumn[]): AggregationSummary | undefined {
    const ids = new Set(columns.filter((c) => !c.hidden).map((c) => c.id));
    const infos = new Map([...summary.infos].filter(([id]) => ids.has(id)));
    const groupIds = summary.groupIds.filter((id) => ids.has(id));
    return {
      groupIds,
      infos,
      ...(summary.timeBin && ids.has(summary.timeBin.id) ? { timeBin: summary.timeBin } : {}),
    };
  }

  /** Binds `[name =] expr` items; a plain field keeps its column (and id) when its name is kept. */
  boundItems(stage: Stage, items: Assignment[], used: Set<string>): { column: RelColumn; expr: TExpr }[] {
    const scope = this.scope(stage.rel.columns);
    let unnamed = 0;
    return items.map((item) => {
      if (item.expr.kind === 'star') throw semanticError(item.pos, '"*" is not allowed here');
      const expr = this.binder.bind(item.expr, scope);
      const name = item.name ?? displayName(item.expr) ?? `Column${++unnamed}`;
      if (expr.kind === 'column' && !used.has(expr.id)) {
        const source = stage.rel.columns.find((c) => c.id === expr.id)!;
        used.add(expr.id);
        return { column: { ...source, name, hidden: false, implicit: false }, expr };
      }
      return { column: this.column(name, expr.type), expr };
    });
  }

  project(stage: Stage, items: Assignment[]): Stage {
    const outputs = this.boundItems(stage, items, new Set());
    this.checkUnique(
      outputs.map((o) => o.column),
      items[0]?.pos ?? { offset: 0, line: 1, column: 1 },
    );
    return this.projectStage(stage, outputs);
  }

  extend(stage: Stage, items: Assignment[]): Stage {
    const existing = this.visible(stage);
    const used = new Set(existing.map((c) => c.id));
    const added = this.boundItems(stage, items, used);
    const outputs = existing.map((column) => ({ column, expr: columnRef(column) }));
    for (const item of added) {
      const at = outputs.findIndex((o) => o.column.name === item.column.name);
      if (at >= 0) outputs[at] = item;
      else outputs.push(item);
    }
    return this.projectStage(stage, outputs);
  }

  sort(stage: Stage, keys: { expr: Expr; desc: boolean; nullsFirst?: boolean; pos: Position }[]): Stage {
    const scope = this.scope(stage.rel.columns);
    const plan: SortKeyPlan[] = keys.map((key) => ({
      expr: this.binder.bind(key.expr, scope),
      desc: key.desc,
      nullsFirst: key.nullsFirst ?? !key.desc,
    }));
    const last = plan[plan.length - 1]!;
    // Ties on _time are broken by _rowId so pages and cursors are deterministic.
    if (stage.identity && last.expr.kind === 'column' && last.expr.id === stage.identity.timeId) {
      plan.push({ expr: { kind: 'column', id: stage.identity.rowIdId, type: 'int' }, desc: last.desc, nullsFirst: last.nullsFirst });
    }
    const order: OrderEntry[] = [];
    for (const key of plan) {
      if (key.expr.kind !== 'column') continue;
      const column = stage.rel.columns.find((c) => c.id === (key.expr as { id: string }).id)!;
      if (stage.identity && column.id === stage.identity.rowIdId && order.length > 0) continue;
      order.push({ id: column.id, name: column.name, desc: key.desc });
    }
    const { limit: _limit, ...rest } = stage;
    return { ...rest, rel: { op: 'sort', columns: stage.rel.columns, input: stage.rel, keys: plan }, order, explicitOrder: true };
  }

  rowCount(expr: Expr, stage: Stage, operator: string): number {
    const value = constantNumber(this.binder.bind(expr, this.scope(stage.rel.columns)));
    if (value === undefined || !Number.isInteger(value) || value < 0) throw semanticError(expr.pos, `${operator} expects a whole number of rows`);
    // A count past any table's size means every row; engines take no bigger limit than a long.
    return Math.min(value, Number.MAX_SAFE_INTEGER);
  }

  limitStage(stage: Stage, count: number): Stage {
    return {
      ...stage,
      rel: { op: 'limit', columns: stage.rel.columns, input: stage.rel, count },
      limit: Math.min(stage.limit ?? Infinity, count),
      explicitOrder: true,
    };
  }

  // ---- summarize -------------------------------------------------------------------------

  summarize(stage: Stage, aggregates: Assignment[], by: Assignment[], pos: Position): Stage {
    const inputScope = this.scope(stage.rel.columns);
    const groupColumns: RelColumn[] = [];
    const groupExprs: TExpr[] = [];
    let timeBin: { id: string; spanNanos: bigint } | undefined;
    let unnamed = 0;
    for (const item of by) {
      const expr = this.binder.bind(item.expr, inputScope);
      const name = item.name ?? groupName(item.expr) ?? `Column${++unnamed}`;
      const column = this.column(name, expr.type);
      if (!timeBin && expr.kind === 'call' && expr.fn === 'bin_datetime') {
        const span = expr.args[1];
        if (span?.kind === 'literal' && span.value.type === 'timespan') timeBin = { id: column.id, spanNanos: span.value.nanos };
      }
      groupColumns.push(column);
      groupExprs.push(expr);
    }

    const calls: AggregateCall[] = [];
    const callColumns: RelColumn[] = [];
    const outputs: { column: RelColumn; expr: TExpr; info?: AggregationInfo }[] = [];
    const addCalls = (binding: { calls: AggregateCall[] }) =>
      binding.calls.map((agg) => {
        const column = this.column(`agg${calls.length}`, agg.type === 'null' ? 'dynamic' : agg.type);
        calls.push(agg);
        callColumns.push(column);
        return columnRef(column);
      });
    const bindAggregate = (name: string, args: Arg[], callPos: Position) => {
      const boundArgs = args.map((arg) => (arg.value.kind === 'star' ? STAR : this.binder.bind(arg.value, inputScope)));
      const site = new CallSite(name, callPos, boundArgs, args.map((a) => a.value.pos), this.options.context);
      const binding = AGGREGATE_FUNCTIONS[name]!({
        site,
        fieldNames: args.map((arg) => (arg.value.kind === 'name' || arg.value.kind === 'member' ? displayName(arg.value) : undefined)),
        argNames: args.map((arg) => arg.name),
        inputColumns: this.visible(stage).map((c) => ({ name: c.name, expr: columnRef(c) })),
        ...(timeBin ? { binSpanNanos: timeBin.spanNanos } : {}),
      });
      if (name === 'rate' && binding.calls[0]!.options?.windowNanos === undefined) {
        const time = stage.identity ? { kind: 'column' as const, id: stage.identity.timeId, type: 'datetime' as const } : undefined;
        if (time) binding.calls[0]!.args.push(time);
      }
      return binding;
    };

    for (const item of aggregates) {
      const expr = item.expr;
      if (expr.kind === 'call' && AGGREGATE_FUNCTIONS[expr.name]) {
        const binding = bindAggregate(expr.name, expr.args, expr.pos);
        const refs = addCalls(binding);
        binding.outputs.forEach((output: AggregateOutput, i) => {
          const value = output.value(refs);
          const name = i === 0 && item.name ? item.name : output.name;
          outputs.push({ column: this.column(name, value.type), expr: value, info: output.info });
        });
        continue;
      }
      // An expression over aggregations, e.g. `sum(bytes) / count()`.
      let info: AggregationInfo | undefined;
      const scope = this.scope(stage.rel.columns, {
        aggregates: {
          bindNested: (name, args, callPos) => {
            const binding = bindAggregate(name, args, callPos);
            if (binding.outputs.length !== 1) throw semanticError(callPos, `${name}() returns several fields and cannot be part of an expression`);
            info ??= binding.outputs[0]!.info;
            return binding.outputs[0]!.value(addCalls(binding));
          },
        },
      });
      const value = this.binder.bind(expr, scope);
      if (!containsColumn(value, new Set(callColumns.map((c) => c.id)))) {
        throw semanticError(item.pos, 'each summarize expression needs an aggregation such as count() or avg(field)');
      }
      outputs.push({ column: this.column(item.name ?? displayName(expr) ?? `Column${++unnamed}`, value.type), expr: value, ...(info ? { info } : {}) });
    }

    dedupeNames([...groupColumns, ...outputs.map((o) => o.column)]);
    const aggregate: Rel = { op: 'aggregate', columns: [...groupColumns, ...callColumns], input: stage.rel, groups: groupExprs, aggregates: calls };
    // When every output is one aggregation's column as is, the aggregate is the result;
    // otherwise a projection computes the outputs from the aggregated columns.
    const direct = outputs.every((o, i) => o.expr.kind === 'column' && o.expr.id === callColumns[i]?.id) && outputs.length === callColumns.length;
    let rel: Rel;
    const infos = new Map<string, AggregationInfo>();
    if (direct) {
      outputs.forEach((o, i) => {
        callColumns[i]!.name = o.column.name;
        callColumns[i]!.type = o.column.type;
        if (o.info) infos.set(callColumns[i]!.id, o.info);
      });
      rel = aggregate;
    } else {
      outputs.forEach((o) => o.info && infos.set(o.column.id, o.info));
      rel = {
        op: 'project',
        columns: [...groupColumns, ...outputs.map((o) => o.column)],
        input: aggregate,
        exprs: [...groupColumns.map(columnRef), ...outputs.map((o) => o.expr)],
      };
    }
    this.checkUnique(rel.columns, pos);
    let result: Stage = {
      rel,
      order: [],
      explicitOrder: false,
      aggregation: { groupIds: groupColumns.map((c) => c.id), infos, ...(timeBin ? { timeBin } : {}) },
      datasets: stage.datasets,
    };
    // Time series come back in time order.
    if (timeBin && groupColumns[0]?.id === timeBin.id) {
      const bin = groupColumns[0];
      result = {
        ...result,
        rel: { op: 'sort', columns: rel.columns, input: rel, keys: [{ expr: columnRef(bin), desc: false, nullsFirst: true }] },
        order: [{ id: bin.id, name: bin.name, desc: false }],
      };
      // A take right after limits the groups, not the rows (see limitTimeSeries).
      if (groupColumns.length > 1 && aggregates.length > 0) timeSeriesOrigins.set(result.rel, { input: stage, aggregates, by, binId: bin.id });
    }
    return result;
  }

  // ---- parse -----------------------------------------------------------------------------

  parse(stage: Stage, op: Extract<Operator, { kind: 'parse' }>): Stage {
    const source = convert(this.binder.bind(op.source, this.scope(stage.rel.columns)), 'string', op.source.pos, 'the parsed expression');
    const { regex, columns } = parsePattern(op.parts, op.mode);
    const items: Assignment[] = [];
    const bound = columns.map((part, i) => {
      const target = parseTargetType(part, op.pos);
      const group = call('parse_group', [source], 'string', { regex, group: i + 1 });
      const value = target === 'string' ? group : call('convert', [group], target);
      return { name: part.name, value };
    });
    const existing = this.visible(stage);
    const outputs = existing.map((column) => ({ column, expr: columnRef(column) }));
    for (const item of bound) {
      const entry = { column: this.column(item.name, item.value.type), expr: item.value };
      const at = outputs.findIndex((o) => o.column.name === item.name);
      if (at >= 0) outputs[at] = entry;
      else outputs.push(entry);
    }
    void items;
    return this.projectStage(stage, outputs);
  }

}

function containsColumn(expr: TExpr, ids: Set<string>): boolean {
  if (expr.kind === 'column') return ids.has(expr.id);
  if (expr.kind === 'call') return expr.args.some((arg) => containsColumn(arg, ids));
  return false;
}

/** `bin(_time, 1h)` and friends are named after the field they bin. */
function groupName(expr: Expr): string | undefined {
  if (expr.kind === 'call' && ['bin', 'bin_auto', 'floor'].includes(expr.name) && expr.args[0]) return displayName(expr.args[0].value);
  return displayName(expr);
}

function dedupeNames(columns: RelColumn[]): void {
  const seen = new Set<string>();
  for (const column of columns) {
    let name = column.name;
    for (let n = 1; seen.has(name); n++) name = `${column.name}${n}`;
    column.name = name;
    seen.add(name);
  }
}

function unionType(types: AplType[]): AplType {
  const distinct = [...new Set(types)];
  if (distinct.length === 1) return distinct[0]!;
  if (distinct.every(isNumeric)) return 'real';
  return 'string';
}

export function matchesPattern(name: string, pattern: string): boolean {
  if (!pattern.includes('*')) return name === pattern;
  const regex = new RegExp('^' + pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
  return regex.test(name);
}

function schemaTypeName(column: RelColumn): string {
  if (column.stored) return column.stored.type;
  const names: Record<AplType, string> = { bool: 'boolean', int: 'integer', real: 'float', string: 'string', datetime: 'datetime', timespan: 'timespan', dynamic: 'dynamic', null: 'unknown' };
  return names[column.type];
}

function parseTargetType(part: { name: string; type?: string; pos: Position }, pos: Position): AplType {
  if (!part.type) return 'string';
  const type = PARSE_TYPES[part.type];
  if (!type) throw semanticError(part.pos ?? pos, `unknown type "${part.type}"; use string, int, long, real, bool, datetime, timespan or dynamic`);
  return type;
}

function variableLiteral(value: unknown): TExpr {
  if (value === null || value === undefined) return nullOf('null');
  if (typeof value === 'string') return literal({ type: 'string', value });
  if (typeof value === 'boolean') return literal({ type: 'bool', value });
  if (typeof value === 'number') {
    return Number.isInteger(value) ? literal({ type: 'int', value: BigInt(value) }) : literal({ type: 'real', value });
  }
  return literal({ type: 'dynamic', value });
}
