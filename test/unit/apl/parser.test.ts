import { describe, expect, it } from 'vitest';
import { parseQuery, tokenize } from '../../../src/apl';
import type { Expr, Operator } from '../../../src/apl/syntax/ast';
import { parseDateTime } from '../../../src/apl/time';
import { errorOf } from '../../helpers/apl/errors';


const ops = (apl: string): Operator[] => parseQuery(apl).body.operators;
const whereOf = (apl: string): Expr => {
  const op = ops(`['t'] | where ${apl}`)[0]!;
  if (op.kind !== 'where') throw new Error('not a where');
  return op.predicate;
};

/** A compact rendering of an expression tree, to compare shapes. */
function show(expr: Expr): string {
  switch (expr.kind) {
    case 'literal': {
      const v = expr.value;
      if (v.type === 'null') return 'null';
      if (v.type === 'datetime' || v.type === 'timespan') return `${v.type}(${v.nanos})`;
      if (v.type === 'dynamic') return `dynamic(${JSON.stringify(v.value)})`;
      return v.type === 'string' ? JSON.stringify(v.value) : String(v.value);
    }
    case 'name':
      return expr.name;
    case 'member':
      return `${show(expr.target)}.${expr.name}`;
    case 'index':
      return `${show(expr.target)}[${show(expr.index)}]`;
    case 'call':
      return `${expr.name}(${expr.args.map((a) => (a.name ? `${a.name}=` : '') + show(a.value)).join(', ')})`;
    case 'binary':
      return `(${show(expr.left)} ${expr.op} ${show(expr.right)})`;
    case 'unary':
      return `(${expr.op} ${show(expr.operand)})`;
    case 'in':
      return `(${show(expr.left)} ${expr.op} [${expr.items.map(show).join(', ')}])`;
    case 'between':
      return `(${show(expr.left)} ${expr.negated ? '!' : ''}between ${show(expr.low)}..${show(expr.high)})`;
    case 'star':
      return '*';
    case 'fieldSearch':
      return `${show(expr.field)}:${show(expr.term)}`;
  }
}

describe('lexer', () => {
  it('reads timespans in every unit as exact nanoseconds', () => {
    const values = tokenize('100ms 5m 1h 2d 1.5h 10s 3microseconds 7tick 250ns').filter((t) => t.kind === 'timespan').map((t) => t.value);
    expect(values).toEqual([100_000_000n, 300_000_000_000n, 3_600_000_000_000n, 172_800_000_000_000n, 5_400_000_000_000n, 10_000_000_000n, 3_000n, 700n, 250n]);
  });

  it('unescapes strings and keeps verbatim strings raw', () => {
    const strings = tokenize(`"a\\"b\\n" 'it\\'s' @'C:\\path' @"say ""hi"""`).filter((t) => t.kind === 'string').map((t) => t.text);
    expect(strings).toEqual(['a"b\n', "it's", 'C:\\path', 'say "hi"']);
  });

  it('keeps hyphenated operators and negated word operators as single tokens', () => {
    const texts = tokenize('project-away x | where a !contains "b" and c !in~ ("d") and e in~ ("f")').map((t) => t.text);
    expect(texts).toContain('project-away');
    expect(texts).toContain('!contains');
    expect(texts).toContain('!in~');
    expect(texts).toContain('in~');
  });

  it('skips comments and records line and column of tokens', () => {
    const tokens = tokenize("['t'] // first line\n| where x");
    const where = tokens.find((t) => t.text === 'where')!;
    expect(where.pos).toEqual({ offset: 22, line: 2, column: 3 });
  });

  it('reports an unterminated string where it starts', () => {
    const error = errorOf(() => tokenize(`['t']\n| where a == "open`));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/line 2, column 14/);
    expect(error.message).toMatch(/closing " for the string/);
  });
});

describe('parser', () => {
  it('follows Kusto precedence: or < and < comparison < additive < multiplicative < unary', () => {
    expect(show(whereOf('a == 1 or b > 2 and c < 3'))).toBe('((a == 1) or ((b > 2) and (c < 3)))');
    expect(show(whereOf('x + 2 * y - -z > 4'))).toBe('(((x + (2 * y)) - (- z)) > 4)');
    expect(show(whereOf('-5 < x'))).toBe('(-5 < x)');
  });

  it('parses string, list and range operators', () => {
    expect(show(whereOf('a contains_cs "x" and b !startswith "y"'))).toBe('((a contains_cs "x") and (b !startswith "y"))');
    expect(show(whereOf('m !in ("a", "b")'))).toBe('(m !in ["a", "b"])');
    expect(show(whereOf('s matches regex @"\\d+"'))).toBe('(s matches regex "\\\\d+")');
    expect(show(whereOf('d between (1 .. 5)'))).toBe('(d between 1..5)');
    expect(show(whereOf('d !between (1.5 .. 2)'))).toBe('(d !between 1.5..2)');
    expect(show(whereOf('t has_any ("a", "b")'))).toBe('(t has_any ["a", "b"])');
  });

  it('parses dynamic access, dotted fields and bracketed names', () => {
    expect(show(whereOf(`req.headers["user-agent"] == "x"`))).toBe('(req.headers["user-agent"] == "x")');
    expect(show(whereOf(`tags[0] == ['geo.city']`))).toBe('(tags[0] == geo.city)');
  });

  it('parses typed literals', () => {
    expect(show(whereOf('t > datetime(2024-01-02T03:04:05.5Z)'))).toBe(`(t > datetime(${parseDateTime('2024-01-02T03:04:05.5Z')}))`);
    expect(show(whereOf("t > datetime('2024-01-02')"))).toBe(`(t > datetime(${parseDateTime('2024-01-02')}))`);
    expect(show(whereOf('d < timespan(01:30:00)'))).toBe('(d < timespan(5400000000000))');
    expect(show(whereOf('x == dynamic({"a": [1, "b", null]})'))).toBe('(x == dynamic({"a":[1,"b",null]}))');
    expect(show(whereOf('x == int(null)'))).toBe('(x == int(null))');
  });

  it('parses every tabular operator', () => {
    const apl = [
      "['logs']",
      'where status >= 500',
      'project a, b = c * 2',
      'project-away a*',
      'project-keep b, c',
      'project-rename x = b',
      'project-reorder c asc, x',
      'extend d = strlen(uri)',
      'summarize n = count(), avg(d) by bin(_time, 1h), method',
      'sort by n desc nulls first, method asc',
      'take 10',
      'limit 5',
      'top 3 by n',
      'count',
      'distinct method',
      'search kind=case_sensitive "GET" and method:"x*"',
      'parse kind=regex uri with @"/api/" version:int "/" *',
      'sample 0.5',
      'getschema',
      "join kind=leftouter (['other'] | where x) on key, $left.a == $right.b",
      "union ['third']",
    ].join('\n| ');
    expect(ops(apl).map((op) => op.kind)).toEqual([
      'where',
      'project',
      'project-away',
      'project-keep',
      'project-rename',
      'project-reorder',
      'extend',
      'summarize',
      'sort',
      'take',
      'take',
      'top',
      'count',
      'distinct',
      'search',
      'parse',
      'sample',
      'getschema',
      'join',
      'union',
    ]);
  });

  it('parses let statements, union sources and subqueries', () => {
    const query = parseQuery(`let threshold = 500;\nlet errors = ['logs'] | where status >= threshold;\nunion errors, (['other'] | take 1) | count`);
    expect(query.lets.map((l) => [l.name, l.value.kind])).toEqual([
      ['threshold', 'scalar'],
      ['errors', 'tabular'],
    ]);
    expect(query.body.source.kind).toBe('union');
  });

  it('puts line, column, what was found and what was expected in syntax errors', () => {
    const error = errorOf(() => parseQuery("['logs']\n| where status >= \n| take 5"));
    expect(error.message).toBe('syntax error at line 3, column 1: expected an expression, found "|"');
    expect(error.details).toMatchObject({ line: 3, column: 1, found: '"|"', expected: 'an expression' });
  });

  it('suggests the closest tabular operator', () => {
    const error = errorOf(() => parseQuery("['logs'] | summarise count()"));
    expect(error.message).toMatch(/line 1, column 12/);
    expect(error.message).toMatch(/did you mean "summarize"/);
  });

  it('reports a missing "by" and a missing closing parenthesis', () => {
    expect(errorOf(() => parseQuery("['logs'] | sort status")).message).toBe('syntax error at line 1, column 17: expected "by", found "status"');
    expect(errorOf(() => parseQuery("['logs'] | where strlen(a > 1")).message).toMatch(/line 1, column 30: expected "," or "\)" in the argument list, found the end of the query/);
  });

  it('rejects bad timespan units and bad dates with their position', () => {
    expect(errorOf(() => parseQuery("['logs'] | where d > 5parsecs")).message).toMatch(/line 1, column 22: expected a number or a timespan/);
    expect(errorOf(() => parseQuery("['logs'] | where t > datetime(2024-13-45)")).message).toMatch(/line 1, column 31: expected a date/);
  });
});
