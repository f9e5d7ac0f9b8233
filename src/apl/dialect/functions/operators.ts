// Operators: logic, comparisons (with Kusto's null-equals-empty rule for strings), the string
// operators (contains, has and their variants, regex matches), in/between and arithmetic.
import type { TExpr } from '../../semantic/plan';
import { termRegex, WORD } from '../regex';
import { type CallExpr, type ConstantWriter, literalString, negatable, regexArg, type Rule, type RuleTable } from './rule';
import type { NeedlePlace, SqlSpelling } from './spelling';

const isEmptyLiteral = (expr: TExpr) => literalString(expr) === '';
const isNonEmptyLiteral = (expr: TExpr) => {
  const text = literalString(expr);
  return text !== undefined && text !== '';
};

export function operatorRules(sql: SqlSpelling): RuleTable {
  function termOperator(kind: 'has' | 'hasprefix' | 'hassuffix', caseSensitive: boolean): Rule {
    return (w, e, a) => {
      const subject = a(0);
      const term = literalString(e.args[1]!);
      let positive: string;
      if (term !== undefined) {
        if (term === '') positive = `(${subject} IS NOT NULL)`;
        else {
          // A cheap substring test first keeps the regex off most rows.
          const prefilter = caseSensitive ? sql.contains(subject, w.text(term)) : sql.containsIgnoringCase(w, subject, term);
          positive = `(${prefilter} AND ${sql.regexMatches(subject, w.constant(termRegex(term, kind, caseSensitive)))})`;
        }
      } else {
        const before = kind === 'hassuffix' ? `''` : `'(?:^|[^${WORD}])'`;
        const after = kind === 'hasprefix' ? `''` : `'(?:$|[^${WORD}])'`;
        positive = sql.regexMatches(subject, `concat(${caseSensitive ? `''` : `'(?i)'`}, ${before}, ${sql.call('regexp_escape', a(1))}, ${after})`);
      }
      return negatable(e, subject, positive);
    };
  }

  function substringOperator(place: NeedlePlace, caseSensitive: boolean): Rule {
    const test = (subject: string, needle: string) => (place === 'contains' ? sql.contains(subject, needle) : sql.call(place, subject, needle));
    return (w, e, a) => {
      const subject = a(0);
      const needle = literalString(e.args[1]!);
      let positive: string;
      if (caseSensitive) positive = test(subject, a(1));
      else if (needle !== undefined) positive = sql.likeIgnoringCase(w, subject, needle, place);
      else positive = test(sql.call('lower', subject), sql.call('lower', a(1)));
      return negatable(e, subject, positive);
    };
  }

  /** `nullIsEmpty`: strings compare with Kusto's rule that null equals the empty string. */
  function comparison(op: string, nullIsEmpty = false): Rule {
    return (_w, e, a) => {
      const [l, r] = e.args as [TExpr, TExpr];
      if (l.type === 'dynamic') return `(${sql.asText(a(0))} ${op} ${sql.asText(a(1))})`;
      if (l.type !== 'string' || !nullIsEmpty) return `(${a(0)} ${op} ${a(1)})`;
      // Strings compare with Kusto's rule that null equals the empty string.
      if (isNonEmptyLiteral(r) || isNonEmptyLiteral(l)) return op === '=' ? `(${a(0)} = ${a(1)})` : sql.isDistinctFrom(a(0), a(1));
      if (isEmptyLiteral(r)) return `(${sql.ifNull(a(0), `''`)} ${op} '')`;
      if (isEmptyLiteral(l)) return `(${sql.ifNull(a(1), `''`)} ${op} '')`;
      return `(${sql.ifNull(a(0), `''`)} ${op} ${sql.ifNull(a(1), `''`)})`;
    };
  }

  function anyOrAll(w: ConstantWriter, e: CallExpr, a: (i: number) => string, joiner: string): string {
    const rule = termOperator('has', Boolean(e.options?.caseSensitive));
    const terms = e.args.slice(1);
    if (terms.length === 0) return joiner === ' OR ' ? sql.false : sql.true;
    const parts = terms.map((term, i) => rule(w, { kind: 'call', fn: 'has', args: [e.args[0]!, term], type: 'bool' }, (j) => (j === 0 ? a(0) : a(i + 1))));
    return `(${parts.join(joiner)})`;
  }

  function plusOrMinus(e: CallExpr, a: (i: number) => string, op: '+' | '-'): string {
    const [l, r] = e.args as [TExpr, TExpr];
    if (e.type === 'datetime') return sql.datetimeOfNanos(`${sql.nanosOf(a(0))} ${op} ${a(1)}`);
    if (l.type === 'datetime' && r.type === 'datetime') return `(${sql.nanosOf(a(0))} - ${sql.nanosOf(a(1))})`;
    return `(${a(0)} ${op} ${a(1)})`;
  }

  const lower = (x: string) => sql.call('lower', x);

  return {
    // logic and comparison
    and: (_w, _e, a) => `(${a(0)} AND ${a(1)})`,
    or: (_w, _e, a) => `(${a(0)} OR ${a(1)})`,
    not: (_w, _e, a) => `(NOT ${a(0)})`,
    eq: comparison('=', true),
    ne: comparison(sql.notEqual, true),
    lt: comparison('<'),
    le: comparison('<='),
    gt: comparison('>'),
    ge: comparison('>='),
    eq_ci: (w, e, a) => {
      const right = literalString(e.args[1]!);
      const positive = right !== undefined ? `(${lower(a(0))} = ${w.text(right.toLowerCase())})` : `(${lower(a(0))} = ${lower(a(1))})`;
      return negatable(e, a(0), positive);
    },
    between: (_w, e, a) => {
      const test = `(${a(0)} BETWEEN ${a(1)} AND ${a(2)})`;
      return e.options?.negated ? `(NOT ${test})` : test;
    },
    in: (w, e, a) => {
      const left = e.args[0]!;
      const ci = Boolean(e.options?.caseInsensitive);
      const items = e.args.slice(1).map((item, i) => {
        if (!ci) return a(i + 1);
        const text = literalString(item);
        return text !== undefined ? w.text(text.toLowerCase()) : lower(a(i + 1));
      });
      const subject = ci ? lower(a(0)) : a(0);
      if (items.length === 0) return e.options?.negated ? sql.true : sql.false;
      const positive = sql.inList(subject, items);
      if (!e.options?.negated) return positive;
      return left.type === 'string' ? `(${a(0)} IS NULL OR NOT ${positive})` : `(NOT ${positive})`;
    },
    contains: substringOperator('contains', false),
    contains_cs: substringOperator('contains', true),
    startswith: substringOperator('starts_with', false),
    startswith_cs: substringOperator('starts_with', true),
    endswith: substringOperator('ends_with', false),
    endswith_cs: substringOperator('ends_with', true),
    has: termOperator('has', false),
    has_cs: termOperator('has', true),
    hasprefix: termOperator('hasprefix', false),
    hasprefix_cs: termOperator('hasprefix', true),
    hassuffix: termOperator('hassuffix', false),
    hassuffix_cs: termOperator('hassuffix', true),
    has_any: (w, e, a) => anyOrAll(w, e, a, ' OR '),
    has_all: (w, e, a) => anyOrAll(w, e, a, ' AND '),
    regex_match: (w, e, a) => negatable(e, a(0), sql.regexMatches(a(0), regexArg(w, e.args[1]!, () => a(1)), literalString(e.args[1]!) === undefined)),

    // arithmetic
    add: (_w, e, a) => plusOrMinus(e, a, '+'),
    sub: (_w, e, a) => plusOrMinus(e, a, '-'),
    mul: (_w, e, a) => {
      if (e.type === 'timespan' && e.args[1]!.type === 'real') return sql.toBigintOrNull(`trunc(${a(0)} * ${a(1)})`);
      return `(${a(0)} * ${a(1)})`;
    },
    div: (_w, e, a) => {
      if (e.type === 'int') return sql.intDiv(a(0), sql.divisor(a(1)));
      if (e.type === 'timespan') return sql.toBigintOrNull(`trunc(${a(0)} / ${sql.divisor(a(1))})`);
      // Real division by zero is an infinity (or NaN).
      return `(${sql.toDouble(a(0))} / ${a(1)})`;
    },
    mod: (_w, e, a) => (e.type === 'real' ? sql.realMod(a(0), a(1)) : `(${a(0)} % ${sql.divisor(a(1))})`),
    neg: (_w, _e, a) => `(-${a(0)})`,
  };
}
