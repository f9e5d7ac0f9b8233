// DuckDB SQL for the internal calls tabular operators put in the plan (they are not APL
// functions): bin numbers of make-series, key/value extraction of parse-kv, redact's masking,
// extend-valid's validity test and find's packing of the fields present. What both engines
// share of them is ../base/operator-calls.ts.
import { quoteIdentifier } from '../../../engines/duckdb/layout';
import type { AplType } from '../../semantic/plan';
import type { CallExpr } from '../base/expressions';
import { escapedCharacterPattern, type InSubquerySql, inSubquerySql, keyValuePattern, operatorCallSql as operatorCall, type OperatorRule } from '../base/operator-calls';
import type { ExprWriter } from './expressions';
import { convertSql } from './functions';

type Rule = OperatorRule<ExprWriter>;

const IN_SUBQUERY: InSubquerySql = {
  quote: quoteIdentifier,
  convert: (sql, from, to) => convertSql(sql, from, to, false),
  lower: (sql) => `lower(${sql})`,
  orFalse: (sql) => `coalesce(${sql}, FALSE)`,
};

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
  const quotes = o.quotes as string[];
  const escapes = o.escapes as string[];
  const names = [...quotes.flatMap((_, i) => [`m${i}`, `v${i}`]), 'plain'];
  const regex = w.constant(keyValuePattern(o, true));
  const undo = (value: string) => (escapes.length ? `regexp_replace(${value}, ${w.constant(escapedCharacterPattern(escapes))}, '\\1', 'g')` : value);
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
  in_subquery: (w, e, a) => inSubquerySql(IN_SUBQUERY, w, e, a),
  /** A bag of the given fields that are not null. */
  pack_present: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `CAST('{}' AS JSON)`;
    const entries = keys.map((key, i) => `{'k': ${w.constant(key)}, 'v': CAST(${a(i)} AS JSON)}`);
    return `coalesce(CAST(to_json(map_from_entries(list_filter([${entries.join(', ')}], lambda e: e.v IS NOT NULL AND json_type(e.v) <> 'NULL'))) AS JSON), CAST('{}' AS JSON))`;
  },
};

/** SQL for an operator's internal call, or undefined when `e` is not one. */
export const operatorCallSql = (w: ExprWriter, e: CallExpr) => operatorCall(OPERATOR_CALLS, w, e);
