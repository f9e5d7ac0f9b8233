// What every dialect shares of the internal calls tabular operators put in the plan (listed in
// semantic/operators/internal-calls.ts): the dispatch to an engine's rule table, the regex that
// finds one key's value in key/value text (parse-kv), and the membership test of `x in (T)`.
import type { AplType, Rel, TExpr } from '../../semantic/plan';
import { escapeClass, escapeRegex, WORD } from '../regex';
import type { CallExpr } from './expressions';

interface Writer {
  write(expr: TExpr): string;
  relationSql?: (rel: Rel) => string;
}

/** SQL for one internal call; `a(i)` is the SQL of argument i (written once, when first asked for). */
export type OperatorRule<W> = (w: W, e: CallExpr, a: (i: number) => string) => string;

/** SQL for an operator's internal call, or undefined when `e` is not one. */
export function operatorCallSql<W extends Writer>(rules: Record<string, OperatorRule<W>>, w: W, e: CallExpr): string | undefined {
  const rule = rules[e.fn];
  if (!rule) return undefined;
  const written: string[] = [];
  return rule(w, e, (i) => (written[i] ??= w.write(e.args[i]!)));
}

/**
 * The regex matching one key and its value in key/value text, as parse-kv's options describe
 * the text (quotes, escapes, delimiters, greedy values). Its groups, in order: for each quote
 * its opening mark and its body, then the plain (unquoted) value; `named` names them `m<i>`,
 * `v<i>` and `plain` (for engines that read groups by name).
 */
export function keyValuePattern(o: Record<string, unknown>, named: boolean): string {
  const key = String(o.key);
  const group = (name: string, body: string) => (named ? `(?P<${name}>${body})` : `(${body})`);
  const quotes = (o.quotes as string[]).map((q) => ({ open: q[0]!, close: q[1] ?? q[0]! }));
  const escapes = o.escapes as string[];
  const pair = o.pairDelimiter as string | undefined;
  const kv = o.kvDelimiter as string | undefined;
  const quotedBody = (close: string) => {
    const plain = `[^${escapeClass(close)}${escapes.map(escapeClass).join('')}]`;
    return escapes.length ? `(?:${plain}|(?:${escapes.map(escapeRegex).join('|')}).)*` : `${plain}*`;
  };
  const keyForms = [escapeRegex(key), ...quotes.map((q) => `${escapeRegex(q.open)}${escapeRegex(key)}${escapeRegex(q.close)}`)];
  const quoted = quotes.map((q, i) => `${group(`m${i}`, escapeRegex(q.open))}${group(`v${i}`, quotedBody(q.close))}${escapeRegex(q.close)}`);
  if (pair !== undefined && kv !== undefined) {
    const p = escapeRegex(pair);
    const k = escapeRegex(kv);
    // A greedy value runs until the next `key=` (or the end); a plain one until the next pair delimiter.
    const end = o.greedy ? `(?:${p}\\s*[^${escapeClass(pair)}${escapeClass(kv)}]+\\s*${k}|$)` : `(?:${p}|$)`;
    const plain = `${group('plain', '.*?')}\\s*${end}`;
    return `(?:^|${p})\\s*(?:${keyForms.join('|')})\\s*${k}\\s*(?:${[...quoted, plain].join('|')})`;
  }
  // Without delimiters, anything but letters and digits separates keys from values.
  const plain = group('plain', `[${WORD}]+`);
  return `(?:^|[^${WORD}])(?:${keyForms.join('|')})[^${WORD}]+?(?:${[...quoted, plain].join('|')})`;
}

/** The regex of parse-kv's escapes followed by the escaped character (captured). */
export const escapedCharacterPattern = (escapes: readonly string[]) => `(?:${escapes.map(escapeRegex).join('|')})(.)`;

/** An engine's spellings of `x in (T)`. */
export interface InSubquerySql {
  quote(identifier: string): string;
  convert(sql: string, from: AplType, to: AplType): string;
  lower(sql: string): string;
  /** `sql`, false when null. */
  orFalse(sql: string): string;
}

/** `x in (T)`: membership among the values of one column of a subquery (never null). */
export function inSubquerySql(sql: InSubquerySql, w: Writer, e: CallExpr, a: (i: number) => string): string {
  const o = e.options ?? {};
  if (!w.relationSql) throw new Error('in_subquery needs a writer that writes relations');
  let value = sql.convert(`s.${sql.quote(String(o.column))}`, o.columnType as AplType, o.compareType as AplType);
  let subject = a(0);
  if (o.caseInsensitive) {
    value = sql.lower(value);
    subject = sql.lower(subject);
  }
  const test = sql.orFalse(`${subject} IN (SELECT ${value} FROM (${w.relationSql(o.rel as Rel)}) AS s)`);
  return o.negated ? `(NOT ${test})` : test;
}
