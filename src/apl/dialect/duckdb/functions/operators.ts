// Operators: logic, comparisons (with Kusto's null-equals-empty rule for strings), the string
// operators (contains, has and their variants, regex matches), in/between and arithmetic.
import type { TExpr } from '../../../semantic/plan';
import type { ExprWriter } from '../expressions';
import { termRegex, WORD } from '../../regex';
import { literalString } from '../values';
import { type CallExpr, negatable, regexArg, type Rule, type RuleTable } from './rule';

function termOperator(kind: 'has' | 'hasprefix' | 'hassuffix', caseSensitive: boolean): Rule {
  return (w, e, a) => {
    const subject = a(0);
    const term = literalString(e.args[1]!);
    let positive: string;
    if (term !== undefined) {
      if (term === '') positive = `(${subject} IS NOT NULL)`;
      else {
        // A cheap substring test first keeps the regex off most rows.
        const prefilter = caseSensitive ? `contains(${subject}, ${w.text(term)})` : `contains(lower(${subject}), ${w.text(term.toLowerCase())})`;
        positive = `(${prefilter} AND regexp_matches(${subject}, ${w.constant(termRegex(term, kind, caseSensitive))}))`;
      }
    } else {
      const before = kind === 'hassuffix' ? `''` : `'(?:^|[^${WORD}])'`;
      const after = kind === 'hasprefix' ? `''` : `'(?:$|[^${WORD}])'`;
      positive = `regexp_matches(${subject}, concat(${caseSensitive ? `''` : `'(?i)'`}, ${before}, regexp_escape(${a(1)}), ${after}))`;
    }
    return negatable(e, subject, positive);
  };
}

/** A LIKE pattern matching `needle` literally at the given place. */
function likePattern(needle: string, fn: 'contains' | 'starts_with' | 'ends_with'): { pattern: string; escaped: boolean } {
  const escaped = /[%_\\]/.test(needle);
  const text = escaped ? needle.replace(/[%_\\]/g, '\\$&') : needle;
  const pattern = fn === 'contains' ? `%${text}%` : fn === 'starts_with' ? `${text}%` : `%${text}`;
  return { pattern, escaped };
}

function substringOperator(fn: 'contains' | 'starts_with' | 'ends_with', caseSensitive: boolean): Rule {
  return (w, e, a) => {
    const subject = a(0);
    const needle = literalString(e.args[1]!);
    let positive: string;
    if (caseSensitive) positive = `${fn}(${subject}, ${a(1)})`;
    else if (needle !== undefined) {
      // ILIKE with a constant pattern is DuckDB's fastest case-insensitive substring test.
      const { pattern, escaped } = likePattern(needle, fn);
      positive = `(${subject} ILIKE ${w.text(pattern)}${escaped ? ` ESCAPE '\\'` : ''})`;
    } else positive = `${fn}(lower(${subject}), lower(${a(1)}))`;
    return negatable(e, subject, positive);
  };
}

const isEmptyLiteral = (expr: TExpr) => literalString(expr) === '';
const isNonEmptyLiteral = (expr: TExpr) => {
  const text = literalString(expr);
  return text !== undefined && text !== '';
};

function comparison(op: string): Rule {
  return (_w, e, a) => {
    const [l, r] = e.args as [TExpr, TExpr];
    if (l.type === 'dynamic') return `(CAST(${a(0)} AS VARCHAR) ${op} CAST(${a(1)} AS VARCHAR))`;
    if (l.type !== 'string' || (op !== '=' && op !== '<>')) return `(${a(0)} ${op} ${a(1)})`;
    // Strings compare with Kusto's rule that null equals the empty string.
    if (isNonEmptyLiteral(r) || isNonEmptyLiteral(l)) return op === '=' ? `(${a(0)} = ${a(1)})` : `(${a(0)} IS DISTINCT FROM ${a(1)})`;
    if (isEmptyLiteral(r)) return `(coalesce(${a(0)}, '') ${op} '')`;
    if (isEmptyLiteral(l)) return `(coalesce(${a(1)}, '') ${op} '')`;
    return `(coalesce(${a(0)}, '') ${op} coalesce(${a(1)}, ''))`;
  };
}


export const OPERATOR_RULES: RuleTable = {
  // logic and comparison
  and: (_w, _e, a) => `(${a(0)} AND ${a(1)})`,
  or: (_w, _e, a) => `(${a(0)} OR ${a(1)})`,
  not: (_w, _e, a) => `(NOT ${a(0)})`,
  eq: comparison('='),
  ne: comparison('<>'),
  lt: comparison('<'),
  le: comparison('<='),
  gt: comparison('>'),
  ge: comparison('>='),
  eq_ci: (w, e, a) => {
    const right = literalString(e.args[1]!);
    const positive = right !== undefined ? `(lower(${a(0)}) = ${w.text(right.toLowerCase())})` : `(lower(${a(0)}) = lower(${a(1)}))`;
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
      return text !== undefined ? w.text(text.toLowerCase()) : `lower(${a(i + 1)})`;
    });
    const subject = ci ? `lower(${a(0)})` : a(0);
    if (items.length === 0) return e.options?.negated ? 'TRUE' : 'FALSE';
    const positive = `(${subject} IN (${items.join(', ')}))`;
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
  regex_match: (w, e, a) => {
    const test = `regexp_matches(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))})`;
    // A pattern computed per row that does not compile matches nothing in that row.
    return negatable(e, a(0), literalString(e.args[1]!) !== undefined ? test : `try(${test})`);
  },

  // arithmetic
  add: (_w, e, a) => arithmetic(e, a, '+'),
  sub: (_w, e, a) => arithmetic(e, a, '-'),
  mul: (_w, e, a) => {
    if (e.type === 'timespan' && e.args[1]!.type === 'real') return `TRY_CAST(trunc(${a(0)} * ${a(1)}) AS BIGINT)`;
    return `(${a(0)} * ${a(1)})`;
  },
  div: (_w, e, a) => {
    if (e.type === 'int') return `(${a(0)} // ${a(1)})`;
    if (e.type === 'timespan') return `TRY_CAST(trunc(${a(0)} / ${a(1)}) AS BIGINT)`;
    return `(CAST(${a(0)} AS DOUBLE) / ${a(1)})`;
  },
  mod: (_w, e, a) => (e.type === 'real' ? `fmod(${a(0)}, ${a(1)})` : `(${a(0)} % ${a(1)})`),
  neg: (_w, _e, a) => `(-${a(0)})`,
};

function arithmetic(e: CallExpr, a: (i: number) => string, op: '+' | '-'): string {
  const [l, r] = e.args as [TExpr, TExpr];
  if (e.type === 'datetime') return `make_timestamp_ns(epoch_ns(${a(0)}) ${op} ${a(1)})`;
  if (l.type === 'datetime' && r.type === 'datetime') return `(epoch_ns(${a(0)}) - epoch_ns(${a(1)}))`;
  return `(${a(0)} ${op} ${a(1)})`;
}

function anyOrAll(w: ExprWriter, e: CallExpr, a: (i: number) => string, joiner: string): string {
  const cs = Boolean(e.options?.caseSensitive);
  const rule = termOperator('has', cs);
  const terms = e.args.slice(1);
  if (terms.length === 0) return joiner === ' OR ' ? 'FALSE' : 'TRUE';
  const parts = terms.map((term, i) => rule(w, { kind: 'call', fn: 'has', args: [e.args[0]!, term], type: 'bool' }, (j) => (j === 0 ? a(0) : a(i + 1))));
  return `(${parts.join(joiner)})`;
}
