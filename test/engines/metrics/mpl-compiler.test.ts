// The MPL front end without a database: tokens, the syntax tree, positioned syntax and semantic
// errors, and the typed plan (durations in seconds, parameters bound, functions resolved).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/errors';
import { analyze, type DatasetBinding } from '../../../src/metrics/mpl/semantic/analyzer';
import type { AlignNode, GroupNode, MapNode, MetricBinding, MetricsPlan, SourceNode } from '../../../src/metrics/mpl/semantic/plan';
import { tokenize } from '../../../src/metrics/mpl/syntax/lexer';
import { parseMpl } from '../../../src/metrics/mpl/syntax/parser';

const gauge: MetricBinding = { scalar: true, distribution: false, summary: false, types: ['gauge'], temporality: null, unit: 'By' };
const deltaHistogram: MetricBinding = { scalar: false, distribution: true, summary: false, types: ['histogram'], temporality: 'delta', unit: 's' };
const cumulativeHistogram: MetricBinding = { ...deltaHistogram, temporality: 'cumulative' };

function dataset(name: string): DatasetBinding {
  if (name !== 'metrics' && name !== 'other') throw new DomainError('not_found', `dataset "${name}" not found`);
  return {
    name,
    table: `ds_${name}`,
    metric: (metric) => (metric === 'latency' ? deltaHistogram : metric === 'latency_total' ? cumulativeHistogram : gauge),
  };
}

const NOW = 1_750_000_000;

function plan(mpl: string, params: Record<string, string> = {}, span: { from: number; to: number } | null = { from: NOW - 3600, to: NOW }): MetricsPlan {
  return analyze(parseMpl(mpl), { now: NOW, requestSpan: span, params, resolveDataset: dataset });
}

/** The 400 a query gets, with its message and position. */
function failure(run: () => unknown): { message: string; line?: number; column?: number } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const domain = error as DomainError;
    expect(domain.kind).toBe('invalid_input');
    return { message: domain.message, line: domain.details?.line as number | undefined, column: domain.details?.column as number | undefined };
  }
  throw new Error('expected the query to fail');
}

describe('MPL lexer', () => {
  it('reads identifiers, quoted identifiers, durations, timestamps, regexes and numbers', () => {
    const tokens = tokenize('`my-ds`:cpu[2025-03-01T13:00:00Z..+1h] | where host == #/a\\/b.*/ and n >= -1.5e3 | align to 5m using avg // note');
    expect(tokens.map((t) => [t.kind, t.text])).toEqual([
      ['identifier', 'my-ds'],
      ['symbol', ':'],
      ['identifier', 'cpu'],
      ['symbol', '['],
      ['timestamp', '2025-03-01T13:00:00Z'],
      ['symbol', '..'],
      ['symbol', '+'],
      ['duration', '1'],
      ['symbol', ']'],
      ['symbol', '|'],
      ['identifier', 'where'],
      ['identifier', 'host'],
      ['symbol', '=='],
      ['regex', 'a/b.*'],
      ['identifier', 'and'],
      ['identifier', 'n'],
      ['symbol', '>='],
      ['symbol', '-'],
      ['number', '1.5e3'],
      ['symbol', '|'],
      ['identifier', 'align'],
      ['identifier', 'to'],
      ['duration', '5'],
      ['identifier', 'using'],
      ['identifier', 'avg'],
      ['end', ''],
    ]);
    expect(tokens[7]!.unit).toBe('h');
  });

  it('keeps the epoch of a range apart from its ..', () => {
    expect(tokenize('[1747077736..+1h]').map((t) => t.text)).toEqual(['[', '1747077736', '..', '+', '1', ']', '']);
  });

  it('unescapes strings and quoted identifiers', () => {
    const [string, quoted] = tokenize('"a\\"b\\u0041" `x\\`y`');
    expect(string!.text).toBe('a"bA');
    expect([quoted!.kind, quoted!.text, quoted!.quoted]).toEqual(['identifier', 'x`y', true]);
  });
});

describe('MPL parser', () => {
  it('parses directives, params, a compute of two queries and trailing pipes', () => {
    const query = parseMpl(`set custom_unit = "ms";
param $svc: string;
(
  metrics:requests | where service == $svc | align to 1m using prom::rate | group using sum,
  metrics:errors as errs | align to 1m using prom::rate | group using sum,
)
| compute ratio using /
| map * 100`);
    expect(query.directives.map((d) => d.name.text)).toEqual(['custom_unit']);
    expect(query.params.map((p) => [p.name.text, p.type])).toEqual([['svc', 'string']]);
    expect(query.body.kind).toBe('compute');
    if (query.body.kind !== 'compute') return;
    expect(query.body.name.text).toBe('ratio');
    expect(query.body.fn.path).toEqual(['/']);
    expect(query.body.pipes).toHaveLength(1);
    expect(query.body.right.kind === 'simple' && query.body.right.source.alias?.text).toBe('errs');
  });

  it('parses filters with precedence: not binds tighter than and, and tighter than or', () => {
    const query = parseMpl('metrics:cpu | where a == 1 or not b == 2 and (c is string or d != #/x/)');
    const filter = query.body.kind === 'simple' ? query.body.filters[0]!.expr : undefined;
    expect(filter?.kind).toBe('or');
    if (filter?.kind !== 'or') return;
    expect(filter.items[1]!.kind).toBe('and');
  });

  it('refuses nesting deeper than it reads, without running out of stack', () => {
    const deep = `metrics:cpu | where ${'('.repeat(5000)}a == 1${')'.repeat(5000)}`;
    expect(failure(() => parseMpl(deep)).message).toMatch(/at most 64 levels of nesting/);
    expect(failure(() => parseMpl(`metrics:cpu | where ${'not '.repeat(100)}a == 1`)).message).toMatch(/nesting/);
    expect(parseMpl(`metrics:cpu | where ${'('.repeat(60)}a == 1${')'.repeat(60)}`).body.kind).toBe('simple');
  });

  it.each([
    ['metrics:cpu align to 5m using avg', 1, 13, /"\|" before the operator/],
    ['metrics:cpu | fflter host == "a"', 1, 15, /did you mean "filter"/],
    ['metrics:cpu | align to 5x using avg', 1, 24, /time unit "x"/],
    ['metrics:cpu | where host ~= "a"', 1, 26, /comparison/],
    ['metrics:cpu | align to 5m using\n', 2, 1, /align function/],
    ['metrics:cpu\n| align to 5m using avg\n| where host == "a"', 3, 3, /where filters must come right after the source/],
    ['metrics:cpu | where host == "a', 1, 29, /unterminated string/],
    ['(metrics:a, metrics:b, metrics:c) | compute x using +', 1, 24, /exactly two/],
  ])('reports %j at line %i, column %i', (mpl, line, column, message) => {
    const error = failure(() => parseMpl(mpl));
    expect(error.message).toMatch(message);
    expect([error.line, error.column]).toEqual([line, column]);
  });
});

describe('MPL analysis', () => {
  it('binds the source, converts durations and keeps sliding windows', () => {
    const result = plan('metrics:cpu[2h..5m] | where host == "a" | align to 5m over 15m using avg | group by dc, az using sum');
    expect(result.span).toEqual({ from: NOW - 7200, to: NOW - 300 });
    const group = result.root as GroupNode;
    expect(group.tags).toEqual(['az', 'dc']);
    expect(result.groupKeys).toEqual(['dc', 'az']);
    const align = group.input as AlignNode;
    expect(align.grid).toEqual({ origin: 0, step: 300 });
    expect(align.over).toBe(900);
    const source = align.input as SourceNode;
    // The sliding window reaches back 10 minutes before the range.
    expect(source.read).toEqual({ from: NOW - 7200 - 600, to: NOW - 300 });
    expect(source.filter).toEqual({ kind: 'compare', tag: 'host', op: '==', value: { type: 'string', value: 'a' } });
    expect(result.unit).toBe('By');
  });

  it('resolves time ranges relative to either end', () => {
    expect(plan('metrics:cpu[1747077736..+1h]', {}, null).span).toEqual({ from: 1747077736, to: 1747077736 + 3600 });
    expect(plan('metrics:cpu[-30m..1747077736]', {}, null).span).toEqual({ from: 1747077736 - 1800, to: 1747077736 });
    expect(plan('metrics:cpu[2025-03-01T13:00:00Z..+1d]', {}, null).span.from).toBe(Date.UTC(2025, 2, 1, 13) / 1000);
  });

  it('binds parameters from MPL literals', () => {
    const result = plan('param $ds: Dataset; param $step: Duration; param $re: Regex; param $min: int; $ds:cpu | where host == $re and n > $min | align to $step using max', {
      param__ds: 'metrics',
      param__step: '90s',
      param__re: '#/web-.*/',
      param__min: '-3',
    });
    const align = result.root as AlignNode;
    expect(align.grid.step).toBe(90);
    expect((align.input as SourceNode).filter).toEqual({
      kind: 'and',
      items: [
        { kind: 'regex', tag: 'host', pattern: 'web-.*', negate: false },
        { kind: 'compare', tag: 'n', op: '>', value: { type: 'int', value: -3n } },
      ],
    });
  });

  it('answers on an automatic grid when the query does not align', () => {
    const result = plan('metrics:cpu | map * 2');
    expect(result.grid).toEqual({ origin: 0, step: 15 });
    expect((result.root as AlignNode).fn).toBe('avg');
    expect(((result.root as AlignNode).input as MapNode).fn).toEqual({ kind: 'mul', value: 2 });
  });

  it.each([
    ['metrics:cpu | align to 5m using median', /unknown align function median/],
    ['metrics:cpu | map fill::prev', /fill::prev fills steps of an aligned grid/],
    ['metrics:cpu | map fill::const', /needs a number/],
    ['metrics:cpu | map abs(3)', /takes no argument/],
    ['metrics:cpu | map / 0', /divides by zero/],
    ['metrics:cpu | where host == $nope', /unknown parameter \$nope/],
    ['param $h: string; metrics:cpu | where host == $h', /has no value/],
    ['metrics:cpu | where ok > true', /booleans compare with == or != only/],
    ['metrics:cpu | where host == #/(?=x)/', /lookahead/],
    ['metrics:cpu | align to 1m over 90s using avg', /whole multiple of the step/],
    ['metrics:cpu | align to 400ms using avg', /shorter than a second/],
    ['metrics:latency | bucket to 1m using interpolate_delta_histogram(rate, 0.9)', /takes no conversion/],
    ['metrics:latency_total | bucket to 1m using interpolate_cumulative_histogram(sum, 0.9)', /rate or increase/],
    ['metrics:latency_total | bucket to 1m using interpolate_delta_histogram(0.9)', /cumulative histogram/],
    ['metrics:latency_total | bucket to 1m using interpolate_cumulative_histogram(rate, max)', /no max per interval/],
    ['metrics:cpu | bucket to 1m using interpolate_delta_histogram(0.5)', /needs a histogram metric/],
    ['metrics:latency | align to 1m using avg | bucket to 1m using interpolate_delta_histogram(0.5)', /right after the source/],
    ['metrics:latency | bucket to 1m using histogram(1.5)', /not between 0 and 1/],
    ['metrics:cpu | extend env = "x"', /after align, group, bucket or map/],
    ['(metrics:cpu, other:cpu) | compute x using +', /reads one dataset/],
    ['metrics:cpu | sample 0', /fraction of the series/],
    ['(metrics:a, metrics:b) | compute x using pow', /unknown compute operator pow/],
  ])('refuses %j', (mpl, message) => {
    expect(failure(() => plan(mpl)).message).toMatch(message);
  });

  it('says where a semantic error is', () => {
    const error = failure(() => plan('metrics:cpu\n  | align to 5m using agv'));
    expect([error.line, error.column]).toEqual([2, 23]);
    expect(error.message).toMatch(/did you mean avg/);
  });

  it('needs a time range from the request or the query', () => {
    expect(failure(() => plan('metrics:cpu', {}, null)).message).toMatch(/no time range/);
  });

  it('refuses answers and completed grids with too many steps', () => {
    expect(failure(() => plan('metrics:cpu[30d..] | align to 1s using avg')).message).toMatch(/steps per series/);
    expect(failure(() => plan('metrics:cpu[30d..] | align to 1s using avg | map fill::prev | align to 1h using max')).message).toMatch(/fill::prev would complete 2592000 steps/);
    expect(failure(() => plan('metrics:cpu[30d..] | align to 1s over 1m using avg | align to 1h using max')).message).toMatch(/sliding window/);
  });
});
