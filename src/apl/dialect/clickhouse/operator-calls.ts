// ClickHouse SQL for the internal calls tabular operators put in the plan (listed in
// semantic/operators/internal-calls.ts): bin numbers of make-series, key/value extraction of
// parse-kv, redact's masking, extend-valid's validity test, `in` over a subquery and find's
// packing of the fields present. What both engines share of them is ../base/operator-calls.ts.
import { quoteIdentifier } from '../../../engines/clickhouse/layout';
import type { AplType } from '../../semantic/plan';
import type { CallExpr } from '../base/expressions';
import { escapedCharacterPattern, type InSubquerySql, inSubquerySql, keyValuePattern, operatorCallSql as operatorCall, type OperatorRule } from '../base/operator-calls';
import type { ExprWriter } from './expressions';
import { floorDiv } from './formatting';
import { convertSql, jsonType, notNull, whenNotNull } from './functions';

type Rule = OperatorRule<ExprWriter>;

const IN_SUBQUERY: InSubquerySql = {
  quote: quoteIdentifier,
  convert: (sql, from, to) => convertSql(sql, from, to, false),
  lower: (sql) => `lowerUTF8(${sql})`,
  orFalse: (sql) => `ifNull(${sql}, false)`,
};

/** Binds `value` once as `name` inside `body` (a one-element array mapped by a lambda). */
const bind = (value: string, name: string, body: string) => `arrayMap(${name} -> ${body}, [${value}])[1]`;

/** The value of one key in key/value text: a quoted value (escapes undone) or a trimmed plain one. */
function kvExtractSql(w: ExprWriter, text: string, o: Record<string, unknown>): string {
  const key = String(o.key);
  const subject = `ifNull(${text}, '')`;
  if (o.regex !== undefined) {
    const regex = w.constant(String(o.regex));
    const pairs = `extractAllGroupsHorizontal(${subject}, ${regex})`;
    const body = `if(indexOf(arrayMap(k -> trimBoth(k), p[1]), ${w.text(key)}) > 0, trimBoth(p[2][indexOf(arrayMap(k -> trimBoth(k), p[1]), ${w.text(key)})]), NULL)`;
    return whenNotNull([text], bind(pairs, 'p', body));
  }
  const quotes = o.quotes as string[];
  const escapes = o.escapes as string[];
  const regex = w.constant(keyValuePattern(o, false));
  // Groups: for each quote its opening mark and body, then the plain value.
  const plainGroup = quotes.length * 2 + 1;
  const undo = (value: string) => (escapes.length ? `replaceRegexpAll(${value}, ${w.constant(escapedCharacterPattern(escapes))}, '\\\\1')` : value);
  const choices = quotes.map((_, i) => `g[${i * 2 + 1}] != '', ${undo(`g[${i * 2 + 2}]`)}`);
  const picked = choices.length ? `multiIf(${choices.join(', ')}, trimBoth(g[${plainGroup}]))` : `trimBoth(g[${plainGroup}])`;
  return `if(match(${text}, ${regex}), ${bind(`extractGroups(${subject}, ${regex})`, 'g', picked)}, NULL)`;
}

/** What replaces one match: each character masked by a one-character token, the whole match by a longer one, or a short hash. */
function replacementSql(w: ExprWriter, match: string, o: Record<string, unknown>): string {
  if (o.hash) return `if(${match} = '', '', left(base64Encode(toString(SHA256(${match}))), 8))`;
  const token = String(o.token);
  if ([...token].length === 1) return `repeat(${w.text(token)}, toUInt64(lengthUTF8(${match})))`;
  return `if(${match} = '', '', ${w.text(token)})`;
}

function redactSql(w: ExprWriter, text: string, o: Record<string, unknown>): string {
  let sql = text;
  for (const rule of o.rules as { pattern: string; groups?: boolean[] }[]) {
    const subject = `ifNull(${sql}, '')`;
    // The text between matches interleaved with the rewritten matches; groups of the pattern
    // wrapped in one more group give each whole match first.
    const whole = w.constant(`(${rule.pattern})`);
    const parts = `splitByRegexp(${w.constant(rule.pattern)}, ${subject})`;
    const matches = `extractAllGroupsVertical(${subject}, ${whole})`;
    const rewritten = rule.groups
      ? `concat(${rule.groups.map((redacted, g) => (redacted ? replacementSql(w, `m[i][${g + 2}]`, o) : `m[i][${g + 2}]`)).join(', ')}, '')`
      : replacementSql(w, `m[i][1]`, o);
    const body = `arrayStringConcat(arrayMap(i -> concat(s[i], if(i <= length(m), ${rewritten}, '')), range(1, length(s) + 1)), '')`;
    sql = `if(${sql} IS NULL, NULL, arrayMap((s, m) -> ${body}, [${parts}], [${matches}])[1])`;
  }
  return sql;
}

/** extend-valid's test of a value by its type. */
function validSql(type: AplType, x: string): string {
  switch (type) {
    case 'string':
      return `(${x} IS NOT NULL AND ${x} != '')`;
    case 'int':
    case 'timespan':
      return `(${x} IS NOT NULL AND ${x} != 0)`;
    case 'real':
      return `(${x} IS NOT NULL AND ${x} != 0 AND isFinite(${x}))`;
    case 'bool':
      return `ifNull(${x}, false)`;
    case 'dynamic': {
      const t = jsonType(x);
      return `ifNull(multiIf(${t} = 'Array', JSONLength(${x}) > 0, ${t} = 'Object', JSONLength(${x}) > 0, ${t} = 'String', JSONExtractString(${x}) != '', ${t} = 'Bool', ${x} = 'true', ${t} = 'Null', false, toFloat64OrNull(${x}) NOT IN (0, inf, -inf) AND NOT isNaN(toFloat64OrNull(${x}))), false)`;
    }
    default:
      return `(${x} IS NOT NULL)`;
  }
}

export const OPERATOR_CALLS: Record<string, Rule> = {
  /** floor((value - origin) / step): exact for longs, nanoseconds included. */
  bin_index: (_w, e, a) => {
    if (e.args[0]!.type === 'real') return `toInt64(floor((${a(0)} - ${a(1)}) / ${a(2)}))`;
    return floorDiv(`(${a(0)} - ${a(1)})`, a(2));
  },
  kv_extract: (w, e, a) => kvExtractSql(w, a(0), e.options ?? {}),
  redact: (w, e, a) => redactSql(w, a(0), e.options ?? {}),
  valid_or: (_w, e, a) => `if(${validSql(e.type, a(0))}, ${a(0)}, ${a(1)})`,
  in_subquery: (w, e, a) => inSubquerySql(IN_SUBQUERY, w, e, a),
  /** A bag of the given fields that are not null. */
  pack_present: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `'{}'`;
    const entries = keys.map((key, i) => `if(${a(i)} IS NULL OR ${a(i)} = 'null', '', concat(${w.constant(JSON.stringify(key) + ':')}, ${notNull(a(i))}))`);
    return `concat('{', arrayStringConcat(arrayFilter(x -> x != '', [${entries.join(', ')}]), ','), '}')`;
  },
};

/** SQL for an operator's internal call, or undefined when `e` is not one. */
export const operatorCallSql = (w: ExprWriter, e: CallExpr) => operatorCall(OPERATOR_CALLS, w, e);
