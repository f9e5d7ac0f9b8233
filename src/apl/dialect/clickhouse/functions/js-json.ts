// Reading JSON text in ClickHouse SQL as JavaScript's JSON.parse reads it, for rules that must
// answer as code running in JavaScript does (the GenAI message functions): which texts parse,
// members of objects (the last of duplicate keys, as JSON.parse keeps), JavaScript's trim(), and
// JSON.stringify of a string. ClickHouse's reader refuses a leading byte order mark JSON.parse
// refuses too, but also integers past 64 bits and numbers past the double range, which JSON.parse
// reads as rounded doubles and Infinity (written back as null), and escaped surrogates without
// their other half (U+FFFD once out of JavaScript): those are rewritten first. JSON nested deeper
// than ClickHouse reads fails the query instead of answering otherwise.
import { JSON_TOO_DEEP } from '../../dialect';

/** A string literal of ClickHouse SQL. */
export const sqlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The JSON type name of a JSON text (String, Array, Object, Null, Bool, Int64, UInt64, Double); Null for text that does not parse. */
export const jsonTypeOf = (json: string) => `toString(JSONType(${json}))`;
export const isJson = (json: string, type: 'String' | 'Array' | 'Object' | 'Null') => `(${jsonTypeOf(json)} = '${type}')`;

/** The string a JSON text holds, else null. */
export const jsonString = (json: string) => `if(${isJson(json, 'String')}, JSONExtractString(${json}), NULL)`;

/** `body(name)` with `name` bound to `value`, computed once (per element inside a lambda). */
export function bind(value: string, name: string, body: string): string {
  return `arrayMap(${name} -> ${body}, [${value}])[1]`;
}

// Lexes JSON text into string tokens, number tokens and everything else, covering every character.
const TOKENS = '(?s)"(?:[^"\\\\]|\\\\.)*"|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|[^"0-9-]+|.';

/**
 * A raw JSON value as ClickHouse writes it back, with its integers past 2^53 as JSON.parse reads
 * them, rounded to doubles (JSON.stringify writes such a double as digits alone). Past 2^63 the
 * digits get a point, or ClickHouse would refuse to read them again.
 */
export const readable = (raw: string) => {
  const digits = `toString(toFloat64(jt))`;
  const token = `if(match(jt, '^-?[0-9]{16,}$'), if(abs(toFloat64(jt)) < 9.2e18, ${digits}, concat(${digits}, '.0')), jt)`;
  return `if(match(${raw}, '[0-9]{16}'), arrayStringConcat(arrayMap(jt -> ${token}, extractAll(${raw}, ${sqlString(TOKENS)}))), ${raw})`;
};

/** The (key, raw value) pairs of an object's JSON text; empty for anything else. */
export const membersOf = (json: string) => `arrayMap(jm -> tuple(jm.1, ${readable('jm.2')}), JSONExtractKeysAndValuesRaw(${json}))`;

/** The raw JSON values of an array's JSON text; empty for anything else. */
export const elementsOf = (json: string) => `arrayMap(je -> ${readable('je')}, JSONExtractArrayRaw(${json}))`;

/** The raw JSON of a key among `members` (from membersOf), the last when the key repeats; '' when absent. */
export const member = (members: string, key: string) => `tupleElement(arrayLast(jkv -> jkv.1 = ${sqlString(key)}, ${members}), 2)`;

// JavaScript's String.prototype.trim() removes these (WhiteSpace and LineTerminator).
const JS_SPACE = '[\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]';

/** The text without JavaScript's whitespace at either end. */
export const jsTrim = (text: string) => `replaceRegexpAll(${text}, ${sqlString(`^${JS_SPACE}+|${JS_SPACE}+$`)}, '')`;

// A string token's escapes, one per unit, and the text between them.
const UNITS = '\\\\u[0-9a-fA-F]{4}|\\\\.|[^\\\\]+';
const high = (unit: string) => `match(${unit}, ${sqlString('^\\\\u[dD][89abAB]')})`;
const low = (unit: string) => `match(${unit}, ${sqlString('^\\\\u[dD][c-fC-F]')})`;

/**
 * A string token with each escaped surrogate that is not half of a pair written as U+FFFD,
 * which is what such a string becomes on its way out of JavaScript (TextEncoder).
 */
function pairedSurrogates(token: string): string {
  const paired = `(${high('ju')} AND ${low('ja[jn + 1]')}) OR (${low('ju')} AND ${high('ja[jn - 1]')})`;
  const unit = `if(${paired}, ju, if(${high('ju')} OR ${low('ju')}, ${sqlString('\\ufffd')}, ju))`;
  return bind(`extractAll(${token}, ${sqlString(UNITS)})`, 'ja', `arrayStringConcat(arrayMap((ju, jn) -> ${unit}, ja, arrayEnumerate(ja)))`);
}

/**
 * The text with what ClickHouse cannot read written as JSON.parse reads it: a number as a
 * double (spelt with a point, so it is read as one) or null past the double range, an escaped
 * surrogate without its other half as U+FFFD.
 */
function repaired(text: string): string {
  const spelt = `if(isFinite(jd), if(match(toString(jd), '[.e]'), toString(jd), concat(toString(jd), '.0')), 'null')`;
  const token = `multiIf(match(jt, '^-?[0-9]') AND NOT isValidJSON(jt), arrayMap(jd -> ${spelt}, [toFloat64OrZero(jt)])[1], match(jt, ${sqlString('^".*\\\\u[dD][89a-fA-F]')}), ${pairedSurrogates('jt')}, jt)`;
  return `arrayStringConcat(arrayMap(jt -> ${token}, extractAll(${text}, ${sqlString(TOKENS)})))`;
}

/** ClickHouse's JSON reader refuses values nested deeper than this. */
const READER_DEPTH = 1024;
const TOO_DEEP = `${JSON_TOO_DEEP} ${READER_DEPTH} levels ClickHouse reads`;

/** True when JSON text nests arrays and objects deeper than ClickHouse reads them (whether or not it is valid otherwise). */
function nestsPastReader(text: string): string {
  const tokens = `extractAll(${text}, ${sqlString('(?s)"(?:[^"\\\\]|\\\\.)*"|[\\[\\]{}]')})`;
  return `arrayMax(arrayCumSum(arrayMap(jb -> multiIf(jb = '[' OR jb = '{', 1, jb = ']' OR jb = '}', -1, 0), ${tokens}))) > ${READER_DEPTH}`;
}

/**
 * The JSON text ClickHouse can read for a text JSON.parse accepts, '' for one it refuses (so
 * the answer is never empty for a valid text). A leading byte order mark fails JSON.parse.
 * A text nested deeper than ClickHouse reads fails the query (a 400) rather than answer otherwise.
 */
export function jsParse(text: string, name: string): string {
  const f = `${name}_f`;
  const fixed = bind(repaired(name), f, `if(isValidJSON(${f}), ${f}, if(throwIf(${nestsPastReader(f)}, ${sqlString(TOO_DEEP)}) = 0, '', ''))`);
  return bind(text, name, `multiIf(startsWith(${name}, '\\xEF\\xBB\\xBF'), '', isValidJSON(${name}), ${name}, match(${name}, ${sqlString('[0-9]|\\\\u')}) OR countSubstrings(${name}, '[') + countSubstrings(${name}, '{') > ${READER_DEPTH}, ${fixed}, '')`);
}

/** JSON.stringify of a string. */
export const jsonOfString = (text: string) => `toJSONString(${text})`;

/** A list of JSON texts as one JSON array text. */
export const jsonArray = (list: string) => `concat('[', arrayStringConcat(${list}, ','), ']')`;
