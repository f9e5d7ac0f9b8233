// DuckDB SQL for the internal calls tabular operators put in the plan (they are not APL
// functions): bin numbers of make-series, key/value extraction of parse-kv, redact's masking,
// extend-valid's validity test and find's packing of the fields present.
import { quoteIdentifier } from '../../../events/layout';
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import type { ExprWriter } from './expressions';
import { escapeClass, escapeRegex, WORD } from '../regex';
import { convertSql } from './functions';

type CallExpr = Extract<TExpr, { kind: 'call' }>;
type Rule = (w: ExprWriter, e: CallExpr, a: (i: number) => string) => string;

/** Binds `value` once as `name` inside `body` (a one-element list transformed by a lambda). */
const bind = (value: string, name: string, body: string) => `(list_transform([${value}], lambda ${name}: ${body})[1])`;

/** The value of one key in key/value text: a quoted value (escapes undone) or a trimmed plain one. */
function kvExtractSql(w: ExprWriter, text: string, o: Record<string, unknown>): string {
  const key = String(o.key);
  if (o.regex !== undefined) {
    const regex = w.constant(String(o.regex));
    const pairs = `{'k': list_transform(regexp_extract_all(${text}, ${regex}, 1), lambda k: trim(k)), 'v': regexp_extract_all(${text}, ${regex}, 2)}`;
    return bind(pairs, 'p', `CASE WHEN list_position(p.k, ${w.text(key)}) > 0 THEN trim(p.v[list_position(p.k, ${w.text(key)})]) END`);
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
  const quoted = quotes.map((q, i) => `(?P<m${i}>${escapeRegex(q.open)})(?P<v${i}>${quotedBody(q.close)})${escapeRegex(q.close)}`);
  let pattern: string;
  if (pair !== undefined && kv !== undefined) {
    const p = escapeRegex(pair);
    const k = escapeRegex(kv);
    // A greedy value runs until the next `key=` (or the end); a plain one until the next pair delimiter.
    const end = o.greedy ? `(?:${p}\\s*[^${escapeClass(pair)}${escapeClass(kv)}]+\\s*${k}|$)` : `(?:${p}|$)`;
    const plain = `(?P<plain>.*?)\\s*${end}`;
    pattern = `(?:^|${p})\\s*(?:${keyForms.join('|')})\\s*${k}\\s*(?:${[...quoted, plain].join('|')})`;
  } else {
    // Without delimiters, anything but letters and digits separates keys from values.
    const plain = `(?P<plain>[${WORD}]+)`;
    pattern = `(?:^|[^${WORD}])(?:${keyForms.join('|')})[^${WORD}]+?(?:${[...quoted, plain].join('|')})`;
  }
  const names = [...quotes.flatMap((_, i) => [`m${i}`, `v${i}`]), 'plain'];
  const regex = w.constant(pattern);
  const undo = (value: string) => (escapes.length ? `regexp_replace(${value}, ${w.constant(`(?:${escapes.map(escapeRegex).join('|')})(.)`)}, '\\1', 'g')` : value);
  const choices = quotes.map((_, i) => `WHEN g.m${i} <> '' THEN ${undo(`g.v${i}`)}`);
  const picked = choices.length ? `CASE ${choices.join(' ')} ELSE trim(g.plain) END` : 'trim(g.plain)';
  const groups = `regexp_extract(${text}, ${regex}, [${names.map((n) => `'${n}'`).join(', ')}])`;
  return `CASE WHEN regexp_matches(${text}, ${regex}) THEN ${bind(groups, 'g', picked)} END`;
}

/** What replaces one match: each character masked by a one-character token, the whole match by a longer one, or a short hash. */
function replacementSql(w: ExprWriter, match: string, o: Record<string, unknown>): string {
  if (o.hash) return `CASE WHEN coalesce(${match}, '') = '' THEN '' ELSE left(to_base64(unhex(sha256(${match}))), 8) END`;
  const token = String(o.token);
  if ([...token].length === 1) return `repeat(${w.text(token)}, length(${match}))`;
  return `CASE WHEN coalesce(${match}, '') = '' THEN '' ELSE ${w.text(token)} END`;
}

function redactSql(w: ExprWriter, text: string, o: Record<string, unknown>): string {
  let sql = text;
  for (const rule of o.rules as { pattern: string; groups?: boolean[] }[]) {
    const regex = w.constant(rule.pattern);
    const subject = sql;
    // The text between matches (split) interleaved with the rewritten matches.
    let body: string;
    let struct: string;
    if (rule.groups) {
      const parts = rule.groups.map((redacted, k) => (redacted ? replacementSql(w, `s.g${k}[i]`, o) : `s.g${k}[i]`));
      struct = `{'p': regexp_split_to_array(${subject}, ${regex}), ${rule.groups.map((_, k) => `'g${k}': regexp_extract_all(${subject}, ${regex}, ${k + 1})`).join(', ')}}`;
      body = `CASE WHEN i <= len(s.g0) THEN coalesce(${parts.join(' || ')}, '') ELSE '' END`;
    } else {
      struct = `{'p': regexp_split_to_array(${subject}, ${regex}), 'm': regexp_extract_all(${subject}, ${regex}, 0)}`;
      body = `coalesce(${replacementSql(w, 's.m[i]', o)}, '')`;
    }
    const rewritten = bind(struct, 's', `array_to_string(list_transform(range(1, len(s.p) + 1), lambda i: s.p[i] || ${body}), '')`);
    sql = `CASE WHEN ${subject} IS NULL THEN NULL ELSE ${rewritten} END`;
  }
  return sql;
}

/** extend-valid's test of a value by its type. */
function validSql(type: AplType, x: string): string {
  switch (type) {
    case 'string':
      return `(${x} IS NOT NULL AND ${x} <> '')`;
    case 'int':
    case 'timespan':
      return `(${x} IS NOT NULL AND ${x} <> 0)`;
    case 'real':
      return `(${x} IS NOT NULL AND ${x} <> 0 AND isfinite(${x}))`;
    case 'bool':
      return `(${x} IS TRUE)`;
    case 'dynamic':
      return `((CASE json_type(${x}) WHEN 'ARRAY' THEN json_array_length(${x}) > 0 WHEN 'OBJECT' THEN len(json_keys(${x})) > 0 WHEN 'VARCHAR' THEN json_extract_string(${x}, '$') <> '' WHEN 'BOOLEAN' THEN json_extract_string(${x}, '$') = 'true' WHEN 'NULL' THEN FALSE ELSE TRY_CAST(json_extract_string(${x}, '$') AS DOUBLE) NOT IN (0, 'inf'::DOUBLE, '-inf'::DOUBLE, 'nan'::DOUBLE) END) IS TRUE)`;
    default:
      return `(${x} IS NOT NULL)`;
  }
}

export const OPERATOR_CALLS: Record<string, Rule> = {
  /** floor((value - origin) / step): exact for longs, nanoseconds included. */
  bin_index: (_w, e, a) => {
    if (e.args[0]!.type === 'real') return `CAST(floor((${a(0)} - ${a(1)}) / ${a(2)}) AS BIGINT)`;
    const diff = `(${a(0)} - ${a(1)})`;
    return `(${diff} // ${a(2)} - CASE WHEN ${diff} % ${a(2)} < 0 THEN 1 ELSE 0 END)`;
  },
  kv_extract: (w, e, a) => kvExtractSql(w, a(0), e.options ?? {}),
  redact: (w, e, a) => redactSql(w, a(0), e.options ?? {}),
  valid_or: (_w, e, a) => `CASE WHEN ${validSql(e.type, a(0))} THEN ${a(0)} ELSE ${a(1)} END`,
  /** `x in (T)`: membership among the values of one column of a subquery (never null). */
  in_subquery: (w, e, a) => {
    const o = e.options ?? {};
    if (!w.relationSql) throw new Error('in_subquery needs a writer that writes relations');
    const column = `s.${quoteIdentifier(String(o.column))}`;
    let value = convertSql(column, o.columnType as AplType, o.compareType as AplType, false);
    let subject = a(0);
    if (o.caseInsensitive) {
      value = `lower(${value})`;
      subject = `lower(${subject})`;
    }
    const test = `coalesce(${subject} IN (SELECT ${value} FROM (${w.relationSql(o.rel as Rel)}) AS s), FALSE)`;
    return o.negated ? `(NOT ${test})` : test;
  },
  /** A bag of the given fields that are not null. */
  pack_present: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `CAST('{}' AS JSON)`;
    const entries = keys.map((key, i) => `{'k': ${w.constant(key)}, 'v': CAST(${a(i)} AS JSON)}`);
    return `coalesce(CAST(to_json(map_from_entries(list_filter([${entries.join(', ')}], lambda e: e.v IS NOT NULL AND json_type(e.v) <> 'NULL'))) AS JSON), CAST('{}' AS JSON))`;
  },
};

/** SQL for an operator's internal call, or undefined when `e` is not one. */
export function operatorCallSql(w: ExprWriter, e: CallExpr): string | undefined {
  const rule = OPERATOR_CALLS[e.fn];
  if (!rule) return undefined;
  const written: string[] = [];
  return rule(w, e, (i) => (written[i] ??= w.write(e.args[i]!)));
}
