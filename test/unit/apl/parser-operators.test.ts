// The syntax of statements, sources and tabular operators beyond the basic pipeline: what the
// parser builds from them, and where it reports what it expected.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/apl';
import type { Operator, Source } from '../../../src/apl/syntax/ast';
import { errorOf } from '../../helpers/apl/errors';


const op = (text: string): Operator => parseQuery(`['t'] | ${text}`).body.operators[0]!;
const source = (text: string): Source => parseQuery(text).body.source;

describe('statements', () => {
  it('reads set options with and without values', () => {
    expect(parseQuery("set stricttypes; set a.b = 5; ['t']").options?.map((o) => [o.name, o.value?.kind])).toEqual([
      ['stricttypes', undefined],
      ['a.b', 'literal'],
    ]);
  });

  it('reads user-defined functions: parameters, defaults, tabular parameters, views and bodies with lets', () => {
    const query = parseQuery("let f = (a:long, b:string = 'x', T:(c:int), U:(*)) { let k = 2; a * k }; let v = view () { ['t'] | take 1 }; v");
    const f = query.lets[0]!.value;
    if (f.kind !== 'function') throw new Error('not a function');
    expect(f.parameters.map((p) => [p.kind, p.name])).toEqual([
      ['scalar', 'a'],
      ['scalar', 'b'],
      ['tabular', 'T'],
      ['tabular', 'U'],
    ]);
    expect(f.body.lets.map((l) => l.name)).toEqual(['k']);
    expect(f.body.value.kind).toBe('scalar');
    const v = query.lets[1]!.value;
    expect(v.kind === 'function' && v.view && v.body.value.kind).toBe('tabular');
  });

  it('starts a pipeline with a call to a tabular function, also in a let', () => {
    const query = parseQuery("let t = (n:long) { ['x'] | take n }; let u = t(5); u | count");
    expect(query.lets[1]!.value.kind).toBe('tabular');
    expect(parseQuery("t(5) | count").body.source).toMatchObject({ kind: 'call', name: 't' });
  });
});

describe('sources', () => {
  it('reads print, datatable (trailing comma allowed) and externaldata', () => {
    expect(source("print a = 1, 'b'")).toMatchObject({ kind: 'print', items: [{ name: 'a' }, {}] });
    const table = source("datatable(a:long, ['b c']:string) [1, 'x', 2, 'y',]");
    expect(table.kind === 'datatable' && [table.columns.map((c) => `${c.name}:${c.type}`), table.values.length]).toEqual([['a:long', 'b c:string'], 4]);
    expect(source("externaldata (a:string) ['https://example.com/x.csv'] with (format='csv')")).toMatchObject({ kind: 'externaldata', urls: ['https://example.com/x.csv'] });
  });

  it('reads union options and wildcard patterns', () => {
    const union = source('union withsource=src kind=inner isfuzzy=true logs-*, *, [\'app*\'], (other | take 1)');
    if (union.kind !== 'union') throw new Error('not a union');
    expect(union.options).toEqual({ withSource: 'src', kind: 'inner', isFuzzy: true });
    expect(union.tables.map((t) => (t.source.kind === 'named' ? [t.source.name, Boolean(t.source.wildcard)] : t.source.kind))).toEqual([
      ['logs-*', true],
      ['*', true],
      ['app*', true],
      ['other', false],
    ]);
  });

  it('reads search and find starting a query', () => {
    expect(source('search kind=case_sensitive in (a, b*) "x" and y:"z"')).toMatchObject({ kind: 'search', caseSensitive: true, tables: [{}, {}] });
    expect(source('find withsource=s in (a) where x == 1 project y:long, pack_all()')).toMatchObject({
      kind: 'find',
      withSource: 's',
      project: { columns: [{ name: 'y', type: 'long' }], packAll: true },
    });
    expect(source('find "term" project-smart')).toMatchObject({ kind: 'find', predicate: { kind: 'literal' } });
    expect(source('find "term"')).not.toHaveProperty('project');
  });
});

describe('tabular operators', () => {
  it('reads every join kind and its aliases', () => {
    const kinds = ['inner', 'innerunique', 'leftouter', 'rightouter', 'fullouter', 'outer', 'leftanti', 'anti', 'leftantisemi', 'rightanti', 'rightantisemi', 'leftsemi', 'semi', 'rightsemi'];
    expect(kinds.map((kind) => (op(`join kind=${kind} hint.strategy=broadcast (u) on k`) as { joinKind: string }).joinKind)).toEqual([
      'inner',
      'innerunique',
      'leftouter',
      'rightouter',
      'fullouter',
      'fullouter',
      'leftanti',
      'leftanti',
      'leftanti',
      'rightanti',
      'rightanti',
      'leftsemi',
      'leftsemi',
      'rightsemi',
    ]);
    expect(errorOf(() => op('join kind=sideways (u) on k')).message).toMatch(/line 1, column 19: expected a join kind/);
  });

  it('reads lookup, mv-expand and make-series', () => {
    expect(op('lookup kind=inner (u) on $left.a == $right.b, c')).toMatchObject({ kind: 'lookup', lookupKind: 'inner', on: [{ kind: 'pair' }, { kind: 'same', name: 'c' }] });
    expect(op('mv-expand bagexpansion=array with_itemindex=i a, n = b to typeof(long) limit 3')).toMatchObject({
      kind: 'mv-expand',
      bagExpansion: 'array',
      itemIndex: 'i',
      items: [{ expr: { kind: 'name', name: 'a' } }, { name: 'n', toType: 'long' }],
      limit: { kind: 'literal' },
    });
    expect(op('make-series kind=nonempty c = count() default = -1, avg(x) on _time from ago(1h) to now() step 5m by g')).toMatchObject({
      kind: 'make-series',
      nonEmpty: true,
      aggregates: [{ item: { name: 'c' }, default: { kind: 'literal' } }, { item: {} }],
      from: { kind: 'call' },
      to: { kind: 'call' },
      by: [{ expr: { name: 'g' } }],
    });
    expect(op('make-series count() on t in range(0, 10, 1)')).toMatchObject({ legacyRange: true });
    expect(errorOf(() => op('make-series count() on t from 1')).message).toMatch(/expected "from", "to" or "step"/);
  });

  it('reads parse-where, parse-kv, extend-valid and redact', () => {
    expect(op("parse-where kind=regex s with 'a' b:int")).toMatchObject({ kind: 'parse-where', mode: 'regex' });
    expect(errorOf(() => op("parse-where kind=relaxed s with 'a' b")).message).toMatch(/kind=simple or kind=regex for parse-where/);
    expect(op("parse-kv s as (a, b:long) with (pair_delimiter=';', kv_delimiter='=', quote='()', escape='\\\\', greedy=true)")).toMatchObject({
      kind: 'parse-kv',
      keys: [{ name: 'a', type: 'string' }, { name: 'b', type: 'long' }],
      options: { pairDelimiter: ';', kvDelimiter: '=', quotes: ['()'], escapes: ['\\'], greedy: true },
    });
    expect(errorOf(() => op("parse-kv s as (a) with (separator=';')")).message).toMatch(/expected pair_delimiter, kv_delimiter, quote, escape, greedy or regex/);
    expect(op('extend-valid a = b')).toMatchObject({ kind: 'extend-valid', items: [{ name: 'a' }] });
    expect(op("redact replaceToken='#' redactGroups=true @'(a)', dynamic(['b']) on x, ['y.z']")).toMatchObject({
      kind: 'redact',
      replaceToken: '#',
      replaceHash: false,
      redactGroups: true,
      regexes: [{}, {}],
      fields: [{ name: 'x' }, { name: 'y.z' }],
    });
  });

  it('reads top-nested levels, top-hitters, sample-distinct and invoke', () => {
    const nested = op("top-nested 3 of a with others = 'rest' by n = count() asc, top-nested of b by max(1)");
    expect(nested.kind === 'top-nested' && nested.levels.map((l) => [Boolean(l.count), Boolean(l.others), l.by.name, l.desc])).toEqual([
      [true, true, 'n', false],
      [false, false, undefined, true],
    ]);
    expect(op('top-hitters 5 of a by b')).toMatchObject({ kind: 'top-hitters', of: { expr: { name: 'a' } }, by: { name: 'b' } });
    expect(op('sample-distinct 5 of a')).toMatchObject({ kind: 'sample-distinct' });
    expect(op('invoke f(1, x = 2)')).toMatchObject({ kind: 'invoke', name: 'f', args: [{}, { name: 'x' }] });
  });

  it('reads a tabular subquery after in, and refuses search in (...) after a pipe', () => {
    const where = op("where a in (u | project b) and c !in~ (datatable(x:string) ['y'])");
    expect(JSON.stringify(where)).toContain('"subquery"');
    expect(errorOf(() => op('search in (a) "x"')).message).toMatch(/search in \(\.\.\.\) at the start of a query/);
  });
});
