// Semantic analysis: from the syntax tree to the typed plan. Binds the dataset (one per query)
// and each metric's kinds, resolves parameters and time ranges, checks every function against
// the operator it is used with and its arguments, converts durations to seconds, and decides
// the answer's grid. Everything a dialect needs is decided here.
import { type Position, semanticError } from '../../../apl/syntax/position';
import { closestNames } from '../../../apl/semantic/suggest';
import { invalidInput } from '../../../errors';
import type { TagValue } from '../../model';
import type {
  Directive,
  DurationExpr,
  DurationLiteral,
  FilterExpr,
  Literal,
  MplQuery,
  Name,
  ParamDecl,
  ParamRef,
  Pipe,
  QueryExpr,
  SimpleQuery,
  TimePoint,
  TimeRange,
  ValueExpr,
} from '../syntax/ast';
import type { Token } from '../syntax/lexer';
import { parseParamValue } from '../syntax/parser';
import {
  type BucketSpec,
  type Grid,
  type MetricBinding,
  type MetricsPlan,
  type SeriesNode,
  type SourceNode,
  type TagFilter,
  type TagTemplate,
  type TimeSpan,
} from './plan';
import { checkRegex, replacementTemplate } from './regex';
import { ALIGN_FUNCTIONS, BUCKET_FUNCTIONS, COMPUTE_FUNCTIONS, GROUP_FUNCTIONS, MAP_FUNCTIONS, MAP_OPERATORS, mapFunction } from './stdlib';

/** A metrics dataset as the analyzer sees it. */
export interface DatasetBinding {
  name: string;
  table: string;
  metric(name: string): MetricBinding;
}

export interface AnalyzeContext {
  /** The request time, whole seconds. */
  now: number;
  /** `startTime`/`endTime` of the request, when given. */
  requestSpan: TimeSpan | null;
  /** Parameter values as MPL literals, by name (`param__name` or `name`). */
  params: Record<string, string>;
  /** Resolves a dataset name (checking access); throws for unknown ones. */
  resolveDataset(name: string): DatasetBinding;
}

const SECONDS: Record<DurationLiteral['unit'], number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, M: 2_592_000, y: 31_536_000 };

/** Steps the automatic interval picks from, in seconds. */
const NICE_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800, 2_592_000];
/** The automatic interval keeps answers to at most this many steps. */
export const AUTO_INTERVAL_POINTS = 300;
/** The most steps one series of an answer may have. */
export const MAX_GRID_STEPS = 100_000;

/** `$__interval`: the smallest nice step that covers the span in at most AUTO_INTERVAL_POINTS steps. */
export function autoInterval(span: TimeSpan): number {
  const length = Math.max(1, span.to - span.from);
  return NICE_STEPS.find((step) => length / step <= AUTO_INTERVAL_POINTS) ?? Math.ceil(length / AUTO_INTERVAL_POINTS);
}

type ParamValue =
  | { type: 'Dataset'; value: string }
  | { type: 'Duration'; value: number }
  | { type: 'Regex'; value: string }
  | { type: 'string' | 'int' | 'float' | 'bool'; value: TagValue };

const VALUE_CHANGING_MAPS = new Set(['rate', 'increase', 'is', 'add', 'sub', 'mul', 'div']);

class Analyzer {
  private readonly declared = new Map<string, ParamDecl>();
  private readonly warnings: string[] = [];
  private dataset: DatasetBinding | undefined;
  private datasetName: string | undefined;
  private customUnit: string | null = null;
  private outputSpan: TimeSpan | undefined;
  private groupKeys: string[] = [];
  private units = new Set<string>();
  private ignoreUnit = false;

  constructor(private readonly context: AnalyzeContext) {}

  analyze(query: MplQuery): MetricsPlan {
    for (const directive of query.directives) this.directive(directive);
    for (const param of query.params) {
      if (this.declared.has(param.name.text)) throw semanticError(param.pos, `parameter $${param.name.text} is declared twice`);
      this.declared.set(param.name.text, param);
    }
    let root = this.query(query.body, 0);
    const span = this.outputSpan!;
    if (!root.grid) {
      // Answers are always on a grid: points at their own times are averaged per automatic step.
      const grid = { origin: 0, step: this.builtinInterval('__interval') ?? autoInterval(span) };
      root = { kind: 'align', input: root, fn: 'avg', grid, over: null, span, delta: false, metric: root.metric };
    }
    const grid = root.grid!;
    const steps = Math.ceil((span.to - gridStart(grid, span.from)) / grid.step);
    if (steps > MAX_GRID_STEPS) {
      throw invalidInput(`the answer would have ${steps} steps per series (at most ${MAX_GRID_STEPS}): align to a longer window or query a shorter range`);
    }
    return {
      dataset: this.datasetName!,
      root,
      grid,
      span,
      metric: root.metric,
      groupKeys: this.groupKeys,
      unit: this.units.size === 1 ? [...this.units][0]! : null,
      ignoreUnit: this.ignoreUnit,
      customUnit: this.customUnit,
      warnings: this.warnings,
    };
  }

  private directive(directive: Directive) {
    const name = directive.name.text;
    if (name === 'custom_unit') {
      if (!directive.value || directive.value.kind !== 'string') throw semanticError(directive.pos, 'custom_unit takes a string, e.g. set custom_unit = "ms";');
      this.customUnit = directive.value.value;
      return;
    }
    this.warnings.push(`directive "${name}" is not supported and was ignored`);
  }

  // ---- parameters -------------------------------------------------------------------------

  private builtinInterval(name: string): number | undefined {
    const value = this.paramText(name);
    if (value === undefined) return undefined;
    const token = parseParamValue(value);
    if (token.kind !== 'duration') throw invalidInput(`parameter $${name} must be a duration such as 30s (got ${value})`);
    return this.durationSeconds({ kind: 'duration', amount: Number(token.text), unit: token.unit as DurationLiteral['unit'], pos: token.pos });
  }

  private paramText(name: string): string | undefined {
    return this.context.params[`param__${name}`] ?? this.context.params[name];
  }

  private param(ref: ParamRef): ParamValue {
    const decl = this.declared.get(ref.name);
    if (!decl) {
      const guess = closestNames(ref.name, this.declared.keys(), 1)[0];
      throw semanticError(ref.pos, `unknown parameter $${ref.name}: declare it with "param $${ref.name}: <type>;"${guess ? ` (did you mean $${guess}?)` : ''}`);
    }
    const text = this.paramText(ref.name);
    if (text === undefined) throw semanticError(ref.pos, `parameter $${ref.name} has no value: send it in "params" as "param__${ref.name}"`);
    let token: Token;
    try {
      token = parseParamValue(text);
    } catch {
      throw semanticError(ref.pos, `the value of $${ref.name} is not an MPL literal: ${text}`);
    }
    const wrong = (expected: string): never => {
      throw semanticError(ref.pos, `parameter $${ref.name} is declared ${decl.type} and needs ${expected} (got ${text})`);
    };
    switch (decl.type) {
      case 'Dataset':
        if (token.kind !== 'identifier') wrong('a dataset name');
        return { type: 'Dataset', value: token.text };
      case 'Duration':
        if (token.kind !== 'duration' || !(token.unit! in SECONDS)) wrong('a duration such as 5m');
        return { type: 'Duration', value: this.durationSeconds({ kind: 'duration', amount: Number(token.text), unit: token.unit as DurationLiteral['unit'], pos: ref.pos }) };
      case 'Regex':
        if (token.kind !== 'regex') wrong('a regular expression such as #/api-.*/');
        checkRegex(token.text, ref.pos);
        return { type: 'Regex', value: token.text };
      case 'string':
        if (token.kind !== 'string') wrong('a string in double quotes');
        return { type: 'string', value: { type: 'string', value: token.text } };
      case 'int':
        if (token.kind !== 'number' || !token.integer) wrong('an integer');
        return { type: 'int', value: { type: 'int', value: BigInt(token.text) } };
      case 'float':
        if (token.kind !== 'number') wrong('a number');
        return { type: 'float', value: { type: 'float', value: Number(token.text) } };
      case 'bool':
        if (token.kind !== 'identifier' || (token.text !== 'true' && token.text !== 'false')) wrong('true or false');
        return { type: 'bool', value: { type: 'bool', value: token.text === 'true' } };
    }
  }

  // ---- values, durations, times -----------------------------------------------------------

  private durationSeconds(duration: DurationLiteral): number {
    const seconds = Math.round(duration.amount * SECONDS[duration.unit]);
    if (seconds < 1) throw semanticError(duration.pos, `duration ${duration.amount}${duration.unit} is shorter than a second, the resolution of metrics`);
    return seconds;
  }

  private duration(expr: DurationExpr): number {
    if (expr.kind === 'duration') return this.durationSeconds(expr);
    if ((expr.name === '__interval' || expr.name === '__rate_interval') && !this.declared.has(expr.name)) {
      const interval = this.builtinInterval('__interval') ?? autoInterval(this.spanForBuiltins());
      return expr.name === '__rate_interval' ? this.builtinInterval('__rate_interval') ?? interval * 4 : interval;
    }
    const value = this.param(expr);
    if (value.type !== 'Duration') throw semanticError(expr.pos, `parameter $${expr.name} is ${value.type}, not a Duration`);
    return value.value;
  }

  private spanForBuiltins(): TimeSpan {
    const span = this.outputSpan ?? this.context.requestSpan;
    if (!span) throw invalidInput('$__interval needs the query range: send startTime and endTime');
    return span;
  }

  private literal(value: Literal): TagValue {
    switch (value.kind) {
      case 'string':
        return { type: 'string', value: value.value };
      case 'int':
        return { type: 'int', value: value.value };
      case 'float':
        return { type: 'float', value: value.value };
      case 'bool':
        return { type: 'bool', value: value.value };
    }
  }

  private value(expr: ValueExpr): TagValue {
    if (expr.kind !== 'param') return this.literal(expr);
    const value = this.param(expr);
    if (value.type === 'Dataset' || value.type === 'Duration' || value.type === 'Regex') {
      throw semanticError(expr.pos, `parameter $${expr.name} is a ${value.type}, not a tag value`);
    }
    return value.value;
  }

  private timePoint(point: TimePoint, other: number | undefined): number {
    const now = this.context.now;
    switch (point.kind) {
      case 'relative':
        return now - this.durationSeconds(point.duration);
      case 'epoch':
        return point.seconds;
      case 'rfc3339': {
        const ms = Date.parse(point.text.endsWith('Z') || /[+-]\d{2}:\d{2}$/.test(point.text) ? point.text : `${point.text}Z`);
        if (Number.isNaN(ms)) throw semanticError(point.pos, `invalid time ${point.text}`);
        return Math.floor(ms / 1000);
      }
      case 'modifier':
        if (other === undefined) throw semanticError(point.pos, 'a time range needs a fixed start or end for "+" or "-" to count from');
        return other + point.sign * this.durationSeconds(point.duration);
    }
  }

  private timeRange(range: TimeRange): TimeSpan {
    const startIsModifier = range.start.kind === 'modifier';
    const end = range.end === null ? this.context.now : range.end.kind === 'modifier' ? undefined : this.timePoint(range.end, undefined);
    const from = startIsModifier ? this.timePoint(range.start, end) : this.timePoint(range.start, undefined);
    const to = end ?? this.timePoint(range.end!, from);
    if (startIsModifier && range.end?.kind === 'modifier') throw semanticError(range.pos, 'only one end of a time range can be relative to the other');
    if (to <= from) throw semanticError(range.pos, 'the time range ends before it starts');
    return { from, to };
  }

  // ---- queries ----------------------------------------------------------------------------

  private bindDataset(name: string, at: Position): DatasetBinding {
    if (this.dataset) {
      if (name !== this.datasetName) throw semanticError(at, `a query reads one dataset: "${name}" is not "${this.datasetName}"`);
      return this.dataset;
    }
    this.dataset = this.context.resolveDataset(name);
    this.datasetName = name;
    return this.dataset;
  }

  private datasetOf(ref: Name | ParamRef): { name: string; pos: Position } {
    if ('text' in ref) return { name: ref.text, pos: ref.pos };
    const value = this.param(ref);
    if (value.type !== 'Dataset') throw semanticError(ref.pos, `parameter $${ref.name} is ${value.type}, not a Dataset`);
    return { name: value.value, pos: ref.pos };
  }

  private query(expr: QueryExpr, lookback: number): SeriesNode {
    if (expr.kind === 'simple') return this.simple(expr, lookback);
    const trailing = lookback + this.lookbackOf(expr.pipes);
    const left = this.query(expr.left, trailing);
    const right = this.query(expr.right, trailing);
    const name = expr.fn.path.join('::');
    const fn = COMPUTE_FUNCTIONS[name];
    if (!fn) throw semanticError(expr.fn.pos, `unknown compute operator ${name}: use one of ${Object.keys(COMPUTE_FUNCTIONS).join(', ')}`);
    this.ignoreUnit = this.ignoreUnit || fn.op === 'div' || fn.op === 'mul';
    this.groupKeys = [];
    const node: SeriesNode = { kind: 'compute', left, right, op: fn.op, metric: expr.name.text, grid: left.grid ?? right.grid };
    return this.pipes(node, expr.pipes, true);
  }

  /** How far before the range later windows look back (sliding windows, rates, cumulative buckets). */
  private lookbackOf(pipes: Pipe[]): number {
    let seconds = 0;
    for (const pipe of pipes) {
      if (pipe.kind === 'align' && pipe.window) {
        const step = this.duration(pipe.window);
        if (pipe.over) seconds += Math.max(0, this.duration(pipe.over) - step);
        if (ALIGN_FUNCTIONS[pipe.fn.path.join('::')]?.fn === 'prom_rate') seconds += step;
      }
      if (pipe.kind === 'bucket' && pipe.window && pipe.fn.path.join('::') === 'interpolate_cumulative_histogram') seconds += this.duration(pipe.window);
    }
    return seconds;
  }

  private simple(query: SimpleQuery, lookback: number): SeriesNode {
    const source = query.source;
    const dataset = this.datasetOf(source.dataset);
    const binding = this.bindDataset(dataset.name, dataset.pos);
    let span: TimeSpan;
    if (source.range) span = this.timeRange(source.range);
    else if (this.context.requestSpan) span = this.context.requestSpan;
    else throw semanticError(source.pos, 'no time range: send startTime and endTime, or write one after the metric, e.g. [1h..]');
    this.outputSpan = this.outputSpan ? { from: Math.min(this.outputSpan.from, span.from), to: Math.max(this.outputSpan.to, span.to) } : span;
    const metric = binding.metric(source.metric.text);
    if (metric.unit) this.units.add(metric.unit);
    let sample: number | null = null;
    if (query.sample) {
      if (!(query.sample.value > 0 && query.sample.value <= 1)) throw semanticError(query.sample.pos, 'sample keeps a fraction of the series: a number above 0 and at most 1');
      sample = query.sample.value;
    }
    const filters: TagFilter[] = [];
    for (const rule of query.filters) {
      if (rule.deprecated) this.warnings.push('"filter" is deprecated: use "where"');
      filters.push(this.filter(rule.expr));
    }
    const totalLookback = lookback + this.lookbackOf(query.pipes);
    const node: SourceNode = {
      kind: 'source',
      table: binding.table,
      metricName: source.metric.text,
      binding: metric,
      filter: filters.length === 0 ? null : filters.length === 1 ? filters[0]! : { kind: 'and', items: filters },
      sample,
      read: { from: span.from - totalLookback, to: span.to },
      delta: metric.temporality === 'delta',
      metric: source.alias?.text ?? source.metric.text,
      grid: null,
    };
    return this.pipes(node, query.pipes, false);
  }

  private filter(expr: FilterExpr): TagFilter {
    switch (expr.kind) {
      case 'and':
      case 'or':
        return { kind: expr.kind, items: expr.items.map((item) => this.filter(item)) };
      case 'not':
        return { kind: 'not', item: this.filter(expr.item) };
      case 'is':
        return { kind: 'is', tag: expr.tag.text, type: expr.type };
      case 'regex': {
        let pattern: string;
        if ('text' in expr.pattern) {
          pattern = expr.pattern.text;
          checkRegex(pattern, expr.pattern.pos);
        } else {
          const value = this.param(expr.pattern);
          if (value.type !== 'Regex') throw semanticError(expr.pattern.pos, `parameter $${expr.pattern.name} is ${value.type}, not a Regex`);
          pattern = value.value;
        }
        return { kind: 'regex', tag: expr.tag.text, pattern, negate: expr.op === '!=' };
      }
      case 'compare': {
        if (expr.value.kind === 'param') {
          const param = this.declared.get(expr.value.name);
          if (param?.type === 'Regex') {
            const value = this.param(expr.value);
            if (expr.op !== '==' && expr.op !== '!=') throw semanticError(expr.pos, 'regular expressions match with == or != only');
            return { kind: 'regex', tag: expr.tag.text, pattern: value.value as string, negate: expr.op === '!=' };
          }
        }
        const value = this.value(expr.value);
        if (value.type === 'bool' && expr.op !== '==' && expr.op !== '!=') throw semanticError(expr.pos, `booleans compare with == or != only, not ${expr.op}`);
        return { kind: 'compare', tag: expr.tag.text, op: expr.op, value };
      }
    }
  }

  // ---- pipes ------------------------------------------------------------------------------

  private pipes(start: SeriesNode, pipes: Pipe[], afterCompute: boolean): SeriesNode {
    let node = start;
    let aggregated = afterCompute;
    for (const pipe of pipes) {
      node = this.pipe(node, pipe, aggregated);
      if (pipe.kind === 'align' || pipe.kind === 'group' || pipe.kind === 'bucket' || pipe.kind === 'map' || pipe.kind === 'map-eval') aggregated = true;
    }
    return node;
  }

  private spanOf(): TimeSpan {
    return this.outputSpan!;
  }

  /** Operators that complete every step of a grid refuse grids longer than an answer may be. */
  private checkSteps(grid: Grid, at: Position, what: string) {
    const span = this.spanOf();
    const steps = Math.ceil((span.to - gridStart(grid, span.from)) / grid.step);
    if (steps > MAX_GRID_STEPS) throw semanticError(at, `${what} would complete ${steps} steps per series (at most ${MAX_GRID_STEPS}): align to a longer window first`);
  }

  private pipe(node: SeriesNode, pipe: Pipe, aggregated: boolean): SeriesNode {
    const base = { metric: node.metric, grid: node.grid };
    switch (pipe.kind) {
      case 'map-eval': {
        const op = MAP_OPERATORS[pipe.op];
        if (op === 'div' && pipe.value === 0) throw semanticError(pipe.pos, 'map / 0 divides by zero');
        this.ignoreUnit ||= VALUE_CHANGING_MAPS.has(op);
        return { kind: 'map', input: node, fn: { kind: op, value: pipe.value }, span: this.spanOf(), delta: false, ...base };
      }
      case 'map': {
        const name = pipe.fn.path.join('::');
        const fn = mapFunction(name);
        if (!fn) {
          const guess = closestNames(name, MAP_FUNCTIONS.map((candidate) => candidate.name), 1)[0];
          throw semanticError(pipe.fn.pos, `unknown map function ${name}${guess ? ` (did you mean ${guess}?)` : ''}; map takes rate, increase, abs, min(n), max(n), fill::prev, fill::const(n), interpolate::linear, filter::<test>(n), is::<test>(n) with tests lt, lte, gt, gte, eq, neq, or + - * / and a number`);
        }
        if (fn.arg === 'number' && !pipe.arg) throw semanticError(pipe.fn.pos, `${name} needs a number, e.g. ${name}(0)`);
        if (fn.arg === 'none' && pipe.arg) throw semanticError(pipe.arg.pos, `${name} takes no argument`);
        if (fn.needsGrid && !node.grid) {
          throw semanticError(pipe.fn.pos, `${name} fills steps of an aligned grid: align the series first (| align to <duration> using <function>)`);
        }
        if (fn.needsGrid) this.checkSteps(node.grid!, pipe.fn.pos, name);
        const built = fn.build(pipe.arg?.value ?? null);
        this.ignoreUnit ||= VALUE_CHANGING_MAPS.has(built.kind);
        const delta = node.kind === 'source' && node.delta && (built.kind === 'rate' || built.kind === 'increase');
        return { kind: 'map', input: node, fn: built, span: this.spanOf(), delta, ...base };
      }
      case 'align': {
        const name = pipe.fn.path.join('::');
        const fn = ALIGN_FUNCTIONS[name];
        if (!fn) {
          const guess = closestNames(name, Object.keys(ALIGN_FUNCTIONS), 1)[0];
          throw semanticError(pipe.fn.pos, `unknown align function ${name}${guess ? ` (did you mean ${guess}?)` : ''}; align takes ${Object.keys(ALIGN_FUNCTIONS).join(', ')}`);
        }
        const span = this.spanOf();
        const grid: Grid = pipe.window ? { origin: 0, step: this.duration(pipe.window) } : { origin: span.from, step: span.to - span.from };
        let over: number | null = null;
        if (pipe.over) {
          over = this.duration(pipe.over);
          if (over < grid.step || over % grid.step !== 0) throw semanticError(pipe.over.pos, `the window (over) must be a whole multiple of the step (${grid.step}s)`);
          if (over === grid.step) over = null;
          else this.checkSteps(grid, pipe.over.pos, 'a sliding window');
        }
        this.ignoreUnit ||= fn.fn === 'count' || fn.fn === 'prom_rate';
        const delta = fn.fn === 'prom_rate' && isDeltaInput(node);
        return { kind: 'align', input: node, fn: fn.fn, grid, over, span, delta, metric: node.metric };
      }
      case 'group': {
        const name = pipe.fn.path.join('::');
        const fn = GROUP_FUNCTIONS[name];
        if (!fn) {
          const guess = closestNames(name, Object.keys(GROUP_FUNCTIONS), 1)[0];
          throw semanticError(pipe.fn.pos, `unknown group function ${name}${guess ? ` (did you mean ${guess}?)` : ''}; group takes ${Object.keys(GROUP_FUNCTIONS).join(', ')}`);
        }
        const tags = (pipe.tags ?? []).map((tag) => tag.text);
        this.groupKeys = tags;
        this.ignoreUnit ||= fn.fn === 'count';
        return { kind: 'group', input: node, tags: [...new Set(tags)].sort(), fn: fn.fn, ...base };
      }
      case 'bucket':
        return this.bucket(node, pipe);
      case 'as':
        return { ...node, metric: pipe.name.text };
      case 'replace': {
        if (pipe.replace) checkRegex(pipe.replace.pattern, pipe.replace.pos);
        const op =
          pipe.from === null
            ? { kind: 'rewrite' as const, tag: pipe.target.text, pattern: pipe.replace!.pattern, replacement: replacementTemplate(pipe.replace!.replacement) }
            : pipe.replace === null
              ? { kind: 'rename' as const, target: pipe.target.text, source: pipe.from.text }
              : { kind: 'derive' as const, target: pipe.target.text, source: pipe.from.text, pattern: pipe.replace.pattern, replacement: replacementTemplate(pipe.replace.replacement) };
        return { kind: 'retag', input: node, op, ...base };
      }
      case 'join': {
        const dataset = this.datasetOf(pipe.dataset);
        const binding = this.bindDataset(dataset.name, dataset.pos);
        return { kind: 'join', input: node, table: binding.table, fromMetric: pipe.metric.text, tags: pipe.tags.map((t) => t.text), by: pipe.by.map((t) => t.text), ...base };
      }
      case 'extend': {
        if (!aggregated) throw semanticError(pipe.pos, 'extend applies to aggregated series: put it after align, group, bucket or map');
        const seen = new Set<string>();
        const assignments = pipe.assignments.map(({ tag, value }) => {
          if (seen.has(tag.text)) throw semanticError(tag.pos, `extend sets tag ${tag.text} twice`);
          seen.add(tag.text);
          return { tag: tag.text, value: this.template(value) };
        });
        return { kind: 'retag', input: node, op: { kind: 'extend', assignments }, ...base };
      }
    }
  }

  /** An extend value: a literal, a parameter, or a string with ${tag} / ${$param} references. */
  private template(value: Literal | ParamRef): TagTemplate {
    if (value.kind !== 'string') return { kind: 'value', value: this.value(value) };
    if (!value.value.includes('${')) return { kind: 'value', value: this.literal(value) };
    const parts: ({ text: string } | { tag: string })[] = [];
    const pattern = /\$\{(\$?)([^}]*)\}/g;
    let last = 0;
    for (const match of value.value.matchAll(pattern)) {
      if (match.index > last) parts.push({ text: value.value.slice(last, match.index) });
      const name = match[2]!.trim();
      if (name === '') throw semanticError(value.pos, 'an empty ${} in the string');
      if (match[1]) {
        const param = this.value({ kind: 'param', name, pos: value.pos });
        parts.push({ text: String(param.value) });
      } else {
        parts.push({ tag: name });
      }
      last = match.index + match[0].length;
    }
    if (last < value.value.length) parts.push({ text: value.value.slice(last) });
    return { kind: 'template', parts };
  }

  private bucket(node: SeriesNode, pipe: Extract<Pipe, { kind: 'bucket' }>): SeriesNode {
    const name = pipe.fn.path.join('::');
    const known = BUCKET_FUNCTIONS[name];
    if (!known) {
      const guess = closestNames(name, Object.keys(BUCKET_FUNCTIONS), 1)[0];
      throw semanticError(pipe.fn.pos, `unknown bucket function ${name}${guess ? ` (did you mean ${guess}?)` : ''}; bucket takes ${Object.keys(BUCKET_FUNCTIONS).join(', ')}`);
    }
    const fn = name === 'histogram' ? 'histogram' : name === 'interpolate_delta_histogram' ? 'interpolate_delta' : 'interpolate_cumulative';
    let args = pipe.args;
    let conversion: 'rate' | 'increase' | null = null;
    if (fn === 'interpolate_cumulative') {
      const first = args[0];
      if (!first || first.kind !== 'name' || (first.text !== 'rate' && first.text !== 'increase')) {
        throw semanticError(first?.pos ?? pipe.fn.pos, 'interpolate_cumulative_histogram first takes how to turn cumulative counts into deltas: rate or increase, e.g. interpolate_cumulative_histogram(rate, 0.99)');
      }
      conversion = first.text;
      args = args.slice(1);
    }
    if (args.length === 0) throw semanticError(pipe.fn.pos, `${name} needs at least one spec: a quantile between 0 and 1, or count, avg, sum, min, max`);
    const specs: BucketSpec[] = args.map((arg) => {
      if (arg.kind === 'number') {
        if (!(arg.value >= 0 && arg.value <= 1)) throw semanticError(arg.pos, `quantile ${arg.value} is not between 0 and 1`);
        return { kind: 'quantile', q: arg.value };
      }
      if (arg.text === 'rate' || arg.text === 'increase') {
        throw semanticError(arg.pos, `${name} takes no conversion (${arg.text}); only interpolate_cumulative_histogram converts cumulative counts`);
      }
      if (!['count', 'avg', 'sum', 'min', 'max'].includes(arg.text)) throw semanticError(arg.pos, `unknown bucket spec ${arg.text}: use a quantile between 0 and 1, or count, avg, sum, min, max`);
      if (fn === 'interpolate_cumulative' && (arg.text === 'min' || arg.text === 'max')) {
        throw semanticError(arg.pos, `cumulative histograms keep no ${arg.text} per interval: use count, avg, sum or quantiles`);
      }
      return { kind: arg.text as 'count' | 'avg' | 'sum' | 'min' | 'max' };
    });
    if (fn !== 'histogram') {
      if (node.kind !== 'source') {
        throw semanticError(pipe.fn.pos, `${name} reads histogram points: put it right after the source and its where filters`);
      }
      const binding = node.binding;
      if ((binding.scalar || binding.summary) && !binding.distribution) {
        throw semanticError(pipe.fn.pos, `${name} needs a histogram metric; ${node.metricName} is ${binding.types.join(', ')}: use histogram(...) for other series`);
      }
      if (binding.temporality === 'cumulative' && fn === 'interpolate_delta') {
        throw semanticError(pipe.fn.pos, `${node.metricName} is a cumulative histogram: use interpolate_cumulative_histogram(rate, ...) or (increase, ...)`);
      }
      if (binding.temporality === 'delta' && fn === 'interpolate_cumulative') {
        throw semanticError(pipe.fn.pos, `${node.metricName} is a delta histogram: use interpolate_delta_histogram(...)`);
      }
    }
    const span = this.spanOf();
    const grid: Grid = pipe.window ? { origin: 0, step: this.duration(pipe.window) } : { origin: span.from, step: span.to - span.from };
    const tags = (pipe.tags ?? []).map((tag) => tag.text);
    this.groupKeys = tags;
    this.ignoreUnit ||= specs.some((spec) => spec.kind === 'count') || conversion === 'rate';
    return { kind: 'bucket', input: node, fn, conversion, tags: [...new Set(tags)].sort(), grid, specs, metric: node.metric };
  }
}

function isDeltaInput(node: SeriesNode): boolean {
  return (node.kind === 'source' && node.delta) || ((node.kind === 'retag' || node.kind === 'join') && isDeltaInput(node.input));
}

/** The first step of `grid` that holds `time`. */
export function gridStart(grid: Grid, time: number): number {
  return grid.origin + Math.floor((time - grid.origin) / grid.step) * grid.step;
}

export function analyze(query: MplQuery, context: AnalyzeContext): MetricsPlan {
  return new Analyzer(context).analyze(query);
}

