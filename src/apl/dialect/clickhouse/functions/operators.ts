// Operators: logic, comparisons (with Kusto's null-equals-empty rule for strings), the string
// operators (contains, has and their variants, regex matches), in/between and arithmetic.
import type { TExpr } from '../../../semantic/plan';
import type { ExprWriter } from '../expressions';
import { literalString } from '../values';
import { termRegex, WORD } from '../../regex';
import { type CallExpr, negatable, regexArg, type Rule, type RuleTable, safeDivisor } from './rule';

function termOperator(kind: 'has' | 'hasprefix' | 'hassuffix', caseSensitive: boolean): Rule {
  return (w, e, a) => {
    const subject = a(0);
    const term = literalString(e.args[1]!);
    let positive: string;
    if (term !== undefined) {
      if (term === '') positive = `(${subject} IS NOT NULL)`;
      else {
        // A cheap substring test first keeps the regex off most rows.
        const prefilter = caseSensitive ? `(position(${subject}, ${w.text(term)}) > 0)` : `(positionCaseInsensitiveUTF8(${subject}, ${w.text(term)}) > 0)`;
        positive = `(${prefilter} AND match(${subject}, ${w.constant(termRegex(term, kind, caseSensitive))}))`;
      }
    } else {
      const before = kind === 'hassuffix' ? `''` : `'(?:^|[^${WORD}])'`;
      const after = kind === 'hasprefix' ? `''` : `'(?:$|[^${WORD}])'`;
      positive = `match(${subject}, concat(${caseSensitive ? `''` : `'(?i)'`}, ${before}, regexpQuoteMeta(${a(1)}), ${after}))`;
    }
    return negatable(e, subject, positive);
  };
}

/** A LIKE pattern matching `needle` literally at the given place (backslash escapes, as ClickHouse reads them). */
function likePattern(needle: string, fn: 'contains' | 'starts_with' | 'ends_with'): string {
  const text = needle.replace(/[%_\\]/g, '\\$&');
  return fn === 'contains' ? `%${text}%` : fn === 'starts_with' ? `${text}%` : `%${text}`;
}

function substringOperator(fn: 'contains' | 'starts_with' | 'ends_with', caseSensitive: boolean): Rule {
  return (w, e, a) => {
    const subject = a(0);
    const needle = literalString(e.args[1]!);
    let positive: string;
    if (caseSensitive) {
      positive =
        fn === 'contains' ? `(position(${subject}, ${a(1)}) > 0)` : fn === 'starts_with' ? `startsWith(${subject}, ${a(1)})` : `endsWith(${subject}, ${a(1)})`;
    } else if (needle !== undefined) {
      positive = `ilike(${subject}, ${w.text(likePattern(needle, fn))})`;
    } else {
      const [s, n] = [`lowerUTF8(${subject})`, `lowerUTF8(${a(1)})`];
      positive = fn === 'contains' ? `(position(${s}, ${n}) > 0)` : fn === 'starts_with' ? `startsWith(${s}, ${n})` : `endsWith(${s}, ${n})`;
    }
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
    if (l.type !== 'string' || (op !== '=' && op !== '<>')) return `(${a(0)} ${op} ${a(1)})`;
    // Strings compare with Kusto's rule that null equals the empty string.
    if (isNonEmptyLiteral(r) || isNonEmptyLiteral(l)) return op === '=' ? `(${a(0)} = ${a(1)})` : `isDistinctFrom(${a(0)}, ${a(1)})`;
    if (isEmptyLiteral(r)) return `(ifNull(${a(0)}, '') ${op} '')`;
    if (isEmptyLiteral(l)) return `(ifNull(${a(1)}, '') ${op} '')`;
    return `(ifNull(${a(0)}, '') ${op} ifNull(${a(1)}, ''))`;
  };
}

export const OPERATOR_RULES: RuleTable = {
  // ---- logic and comparison ----
  and: (_w, _e, a) => `(${a(0)} AND ${a(1)})`,
  or: (_w, _e, a) => `(${a(0)} OR ${a(1)})`,
  not: (_w, _e, a) => `(NOT ${a(0)})`,
  eq: comparison('='),
  ne: comparison('!='),
  lt: comparison('<'),
  le: comparison('<='),
  gt: comparison('>'),
  ge: comparison('>='),
  eq_ci: (w, e, a) => {
    const right = literalString(e.args[1]!);
    const positive = right !== undefined ? `(lowerUTF8(${a(0)}) = ${w.text(right.toLowerCase())})` : `(lowerUTF8(${a(0)}) = lowerUTF8(${a(1)}))`;
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
      return text !== undefined ? w.text(text.toLowerCase()) : `lowerUTF8(${a(i + 1)})`;
    });
    const subject = ci ? `lowerUTF8(${a(0)})` : a(0);
    if (items.length === 0) return e.options?.negated ? 'true' : 'false';
    // An equality per item: NULL items and NULL subjects behave as in DuckDB's IN.
    const positive = `(${items.map((item) => `${subject} = ${item}`).join(' OR ')})`;
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
  regex_match: (w, e, a) => negatable(e, a(0), `match(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))})`),

  // ---- arithmetic ----
  add: (_w, _e, a) => `(${a(0)} + ${a(1)})`,
  sub: (_w, _e, a) => `(${a(0)} - ${a(1)})`,
  mul: (_w, e, a) => {
    if (e.type === 'timespan' && e.args[1]!.type === 'real') return `accurateCastOrNull(trunc(${a(0)} * ${a(1)}), 'Int64')`;
    return `(${a(0)} * ${a(1)})`;
  },
  div: (_w, e, a) => {
    if (e.type === 'int') return `intDiv(${a(0)}, ${safeDivisor(a(1))})`;
    if (e.type === 'timespan') return `accurateCastOrNull(trunc(${a(0)} / ${safeDivisor(a(1))}), 'Int64')`;
    // Real division by zero is an infinity (or NaN), as in DuckDB.
    return `(toFloat64(${a(0)}) / ${a(1)})`;
  },
  mod: (_w, _e, a) => `(${a(0)} % ${safeDivisor(a(1))})`,
  neg: (_w, _e, a) => `(-${a(0)})`,
};

function anyOrAll(w: ExprWriter, e: CallExpr, a: (i: number) => string, joiner: string): string {
  const cs = Boolean(e.options?.caseSensitive);
  const rule = termOperator('has', cs);
  const terms = e.args.slice(1);
  if (terms.length === 0) return joiner === ' OR ' ? 'false' : 'true';
  const parts = terms.map((term, i) => rule(w, { kind: 'call', fn: 'has', args: [e.args[0]!, term], type: 'bool' }, (j) => (j === 0 ? a(0) : a(i + 1))));
  return `(${parts.join(joiner)})`;
}
