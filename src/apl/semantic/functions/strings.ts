// String functions: length, case, slicing, concatenation, search and replace, regexes, trims,
// URLs and paths, CSV, base64, byte sizes, quoting and code points. Argument orders are the
// ones Axiom documents (search or pattern first, text last: `countof('/', uri)`,
// `replace_regex(regex, rewrite, text)`).
import type { AplType, TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { call, constantString, intLiteral, stringLiteral } from '../typed';
import { PARSE_TYPES } from '../type-names';
import { type ScalarFamily, type ScalarRule, unary } from './rule';

/** Every argument converted to string, in the given order, for canonical call `fn`. */
const strings =
  (fn: string, min: number, max: number, returns: AplType, order?: number[]): ScalarRule =>
  (site) => {
    site.arity(min, max);
    const indexes = order ?? site.args.map((_, i) => i);
    return call(fn, indexes.map((i) => site.arg(i, 'string')), returns);
  };

/** `(pattern, text)` functions: the canonical call takes the text first. */
const patternThenText = (fn: string, returns: AplType, options?: Record<string, unknown>): ScalarRule => (site) => {
  site.arity(2);
  return call(fn, [site.arg(1, 'string'), site.arg(0, 'string')], returns, options);
};

/** An optional int argument, or its default. */
function optionalInt(site: CallSite, index: number, fallback: number): TExpr {
  return index < site.count ? site.arg(index, 'int') : intLiteral(fallback);
}

/** `trim(cutset, text)` and friends: characters of the cutset are removed at the ends. */
const cutset =
  (side: 'both' | 'start' | 'end'): ScalarRule =>
  (site) => {
    site.arity(2);
    return call('trim_chars', [site.arg(1, 'string'), site.arg(0, 'string')], 'string', { side });
  };

const regexTrim =
  (side: 'both' | 'start' | 'end'): ScalarRule =>
  (site) => {
    site.arity(2);
    return call('trim_regex', [site.arg(1, 'string'), site.arg(0, 'string')], 'string', { side });
  };

/** `replace_regex(regex, rewrite, text)`: `$1` (or `\1`) in the rewrite refers to a group. */
const replaceRegex: ScalarRule = (site) => {
  site.arity(3);
  return call('replace_regex', [site.arg(2, 'string'), site.arg(0, 'string'), site.arg(1, 'string')], 'string');
};

const BYTE_UNITS = ['BYTES', 'B', 'KB', 'KIB', 'MB', 'MIB', 'GB', 'GIB', 'TB', 'TIB', 'PB', 'PIB', 'EB', 'EIB', 'ZB', 'ZIB', 'YB', 'YIB'];

function byteBase(site: CallSite, index: number): number {
  const base = index < site.count ? site.constNumber(index) : 2;
  if (base !== 2 && base !== 10) throw site.error('the base must be 2 or 10', index);
  return base;
}

export const STRING_FUNCTIONS: ScalarFamily = {
  strlen: unary('strlen', 'string', 'int'),
  string_size: unary('string_size', 'string', 'int'),
  tolower: unary('tolower', 'string', 'string'),
  toupper: unary('toupper', 'string', 'string'),
  totitle: unary('totitle', 'string', 'string'),
  reverse: unary('reverse', 'string', 'string'),
  trim_space: unary('trim_space', 'string', 'string'),
  url_encode: unary('url_encode', 'string', 'string'),
  url_decode: unary('url_decode', 'string', 'string'),
  base64_encode_tostring: unary('base64_encode', 'string', 'string'),
  base64_decode_tostring: unary('base64_decode', 'string', 'string'),
  base64_decode_toarray: unary('base64_decode_bytes', 'string', 'dynamic'),
  base64_encode_fromarray: unary('base64_encode_bytes', 'dynamic', 'string'),
  quote: unary('quote', 'string', 'string'),
  regex_quote: unary('regex_quote', 'string', 'string'),
  strip_ansi_escapes: unary('strip_ansi_escapes', 'string', 'string'),
  isascii: unary('isascii', 'string', 'bool'),
  unicode_codepoints_from_string: unary('codepoints_from_string', 'string', 'dynamic'),
  unicode_codepoints_to_string: unary('codepoints_to_string', 'dynamic', 'string'),
  parse_csv: unary('parse_csv', 'string', 'dynamic'),
  parse_path: unary('parse_path', 'string', 'dynamic'),
  parse_url: unary('parse_url', 'string', 'dynamic'),
  parse_urlquery: unary('parse_urlquery', 'string', 'dynamic'),
  format_url: unary('format_url', 'dynamic', 'string'),
  substring: (site) => {
    site.arity(2, 3);
    const args = [site.arg(0, 'string'), site.arg(1, 'int')];
    if (site.count > 2) args.push(site.arg(2, 'int'));
    return call('substring', args, 'string');
  },
  strcat: strings('strcat', 1, 64, 'string'),
  strcat_delim: strings('strcat_delim', 2, 65, 'string'),
  strcmp: strings('strcmp', 2, 2, 'int'),
  split: (site) => {
    site.arity(2, 3);
    const args = [site.arg(0, 'string'), site.arg(1, 'string')];
    if (site.count > 2) args.push(site.arg(2, 'int'));
    return call('split', args, 'dynamic');
  },
  replace_string: strings('replace_string', 3, 3, 'string', [2, 0, 1]),
  replace_regex: replaceRegex,
  replace: replaceRegex,
  translate: strings('translate', 3, 3, 'string', [2, 0, 1]),
  extract: (site) => {
    site.arity(3, 4);
    const group = site.constNumber(1);
    if (!Number.isInteger(group) || group < 0) throw site.error('the capture group must be a whole number >= 0', 1);
    const extracted = call('extract', [site.arg(2, 'string'), site.arg(0, 'string')], 'string', { group });
    if (site.count === 4) {
      const target = typeOfTypeLiteral(site, 3);
      return target === 'string' ? extracted : call('convert', [extracted], target);
    }
    return extracted;
  },
  extract_all: (site) => {
    site.arity(2, 3);
    const text = site.arg(site.count - 1, 'string');
    const regex = site.arg(0, 'string');
    return call('extract_all', [text, regex], 'dynamic', site.count === 3 ? { groups: captureGroupList(site, 1) } : {});
  },
  indexof: (site) => {
    site.arity(2, 5);
    const args = [site.arg(0, 'string'), site.arg(1, 'string'), optionalInt(site, 2, 0), optionalInt(site, 3, -1), optionalInt(site, 4, 1)];
    return call('indexof', args, 'int');
  },
  indexof_regex: (site) => {
    site.arity(2, 5);
    // indexof_regex(text, regex, start, occurrence, length)
    const args = [site.arg(0, 'string'), site.arg(1, 'string'), optionalInt(site, 2, 0), optionalInt(site, 4, -1), optionalInt(site, 3, 1)];
    return call('indexof_regex', args, 'int');
  },
  trim: cutset('both'),
  trim_start: cutset('start'),
  trim_end: cutset('end'),
  trim_regex: regexTrim('both'),
  trim_start_regex: regexTrim('start'),
  trim_end_regex: regexTrim('end'),
  strrep: (site) => {
    site.arity(2, 3);
    const args = [site.arg(0, 'string'), site.arg(1, 'int'), site.count > 2 ? site.arg(2, 'string') : stringLiteral('')];
    return call('strrep', args, 'string');
  },
  countof: (site) => {
    site.arity(2, 3);
    const kind = site.count > 2 ? site.constString(2) : 'normal';
    if (kind !== 'normal' && kind !== 'regex') throw site.error('kind must be "normal" or "regex"', 2);
    return call(kind === 'regex' ? 'countof_regex' : 'countof', [site.arg(1, 'string'), site.arg(0, 'string')], 'int');
  },
  countof_regex: patternThenText('countof_regex', 'int'),
  format_bytes: (site) => {
    site.arity(1, 4);
    const precision = site.count > 1 ? site.constNumber(1) : 0;
    if (!Number.isInteger(precision) || precision < 0 || precision > 20) throw site.error('the precision must be a whole number from 0 to 20', 1);
    const units = site.count > 2 ? site.constString(2) : '';
    if (units !== '' && !BYTE_UNITS.includes(units.toUpperCase())) throw site.error(`units must be one of Bytes, KB, KiB, MB, MiB, GB, GiB, TB, TiB, PB, PiB, EB, EiB, ZB, ZiB, YB, YiB`, 2);
    return call('format_bytes', [site.arg(0, 'real')], 'string', { precision, units, base: byteBase(site, 3) });
  },
  parse_bytes: (site) => {
    site.arity(1, 2);
    return call('parse_bytes', [site.arg(0, 'string')], 'int', { base: byteBase(site, 1) });
  },
};

/** The capture groups of `extract_all(regex, dynamic([1, 2]), text)`. */
function captureGroupList(site: CallSite, index: number): number[] {
  const arg = site.raw(index);
  const value = arg.kind === 'literal' && arg.value.type === 'dynamic' ? arg.value.value : undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((g) => typeof g !== 'number' || !Number.isInteger(g) || g < 0)) {
    throw site.error('the capture groups must be a dynamic array of whole numbers such as dynamic([1, 2])', index);
  }
  return value as number[];
}

/** The type named by `typeof(long)` (or a string such as 'long'). */
export function typeOfTypeLiteral(site: CallSite, index: number): AplType {
  const name = constantString(site.raw(index));
  const type = name === undefined ? undefined : PARSE_TYPES[name];
  if (!type) throw site.error('expects a type such as typeof(long)', index);
  return type;
}

