// ClickHouse SQL for the internal calls tabular operators put in the plan (listed in
// semantic/operators/internal-calls.ts): bin numbers of make-series, key/value extraction of
// parse-kv, redact's masking, extend-valid's validity test, `in` over a subquery and find's
// packing of the fields present.
import { quoteIdentifier } from '../../../events/clickhouse/layout';
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { floorDiv } from './formatting';
import { convertSql, jsonType, notNull, whenNotNull } from './functions';
import { escapeClass, escapeRegex, WORD } from '../regex';

type CallExpr = Extract<TExpr, { kind: 'call' }>;
type Rule = (w: ExprWriter, e: CallExpr, a: (i: number) => string) => string;

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
  const quotes = (o.quotes as string[]).map((q) => ({ open: q[0]!, close: q[1] ?? q[0]! }));
  const escapes = o.escapes as string[];
  const pair = o.pairDelimiter as string | undefined;
  const kv = o.kvDelimiter as string | undefined;
  const quotedBody = (close: string) => {
    const plain = `[^${escapeClass(close)}${escapes.map(escapeClass).join('')}]`;
    return escapes.length ? `(?:${plain}|(?:${escapes.map(escapeRegex).join('|')}).)*` : `${plain}*`;
  };
  const keyForms = [escapeRegex(key), ...quotes.map((q) => `${escapeRegex(q.open)}${escapeRegex(key)}${escapeRegex(q.close)}`)];
  const quoted = quotes.map((q) => `(${escapeRegex(q.open)})(${quotedBody(q.close)})${escapeRegex(q.close)}`);
  let pattern: string;
  if (pair !== undefined && kv !== undefined) {
    const p = escapeRegex(pair);
    const k = escapeRegex(kv);
    // A greedy value runs until the next `key=` (or the end); a plain one until the next pair delimiter.
    const end = o.greedy ? `(?:${p}\\s*[^${escapeClass(pair)}${escapeClass(kv)}]+\\s*${k}|$)` : `(?:${p}|$)`;
    pattern = `(?:^|${p})\\s*(?:${keyForms.join('|')})\\s*${k}\\s*(?:${[...quoted, `(.*?)\\s*${end}`].join('|')})`;
  } else {
    // Without delimiters, anything but letters and digits separates keys from values.
    pattern = `(?:^|[^${WORD}])(?:${keyForms.join('|')})[^${WORD}]+?(?:${[...quoted, `([${WORD}]+)`].join('|')})`;
  }
  const regex = w.constant(pattern);
  // Groups: for each quote its opening mark and body, then the plain value.
  const plainGroup = quotes.length * 2 + 1;
  const undo = (value: string) => (escapes.length ? `replaceRegexpAll(${value}, ${w.constant(`(?:${escapes.map(escapeRegex).join('|')})(.)`)}, '\\\\1')` : value);
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
  /** `x in (T)`: membership among the values of one column of a subquery (never null). */
  in_subquery: (w, e, a) => {
    const o = e.options ?? {};
    if (!w.relationSql) throw new Error('in_subquery needs a writer that writes relations');
    const column = `s.${quoteIdentifier(String(o.column))}`;
    let value = convertSql(column, o.columnType as AplType, o.compareType as AplType, false);
    let subject = a(0);
    if (o.caseInsensitive) {
      value = `lowerUTF8(${value})`;
      subject = `lowerUTF8(${subject})`;
    }
    const test = `ifNull(${subject} IN (SELECT ${value} FROM (${w.relationSql(o.rel as Rel)}) AS s), false)`;
    return o.negated ? `(NOT ${test})` : test;
  },
  /** A bag of the given fields that are not null. */
  pack_present: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `'{}'`;
    const entries = keys.map((key, i) => `if(${a(i)} IS NULL OR ${a(i)} = 'null', '', concat(${w.constant(JSON.stringify(key) + ':')}, ${notNull(a(i))}))`);
    return `concat('{', arrayStringConcat(arrayFilter(x -> x != '', [${entries.join(', ')}]), ','), '}')`;
  },
};

/** SQL for an operator's internal call, or undefined when `e` is not one. */
export function operatorCallSql(w: ExprWriter, e: CallExpr): string | undefined {
  const rule = OPERATOR_CALLS[e.fn];
  if (!rule) return undefined;
  const written: string[] = [];
  return rule(w, e, (i) => (written[i] ??= w.write(e.args[i]!)));
}
