// String functions: length, case, slicing, concatenation, search and replace, regexes,
// URLs, base64 and formatting of bytes.
import type { AplType } from '../plan';
import type { CallSite } from '../call-site';
import { call, constantString, intLiteral, literal } from '../typed';
import { type ScalarFamily, strings, unary } from './rule';

export const STRING_FUNCTIONS: ScalarFamily = {
  strlen: unary('strlen', 'string', 'int'),
  tolower: unary('tolower', 'string', 'string'),
  toupper: unary('toupper', 'string', 'string'),
  reverse: unary('reverse', 'string', 'string'),
  trim_space: unary('trim_space', 'string', 'string'),
  url_encode: unary('url_encode', 'string', 'string'),
  url_decode: unary('url_decode', 'string', 'string'),
  base64_encode_tostring: unary('base64_encode', 'string', 'string'),
  base64_decode_tostring: unary('base64_decode', 'string', 'string'),
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
  replace_string: strings('replace_string', 3, 3, 'string'),
  replace_regex: strings('replace_regex', 3, 3, 'string'),
  // Kusto's older spelling takes the text last: replace(regex, rewrite, text).
  replace: (site) => {
    site.arity(3);
    return call('replace_regex', [site.arg(2, 'string'), site.arg(0, 'string'), site.arg(1, 'string')], 'string');
  },
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
    return call('extract_all', [text, regex], 'dynamic');
  },
  indexof: (site) => {
    site.arity(2, 3);
    const args = [site.arg(0, 'string'), site.arg(1, 'string'), site.count > 2 ? site.arg(2, 'int') : intLiteral(0)];
    return call('indexof', args, 'int');
  },
  trim: (site) => {
    site.arity(2);
    return call('trim_regex', [site.arg(1, 'string'), site.arg(0, 'string')], 'string', { side: 'both' });
  },
  trim_start: (site) => {
    site.arity(2);
    return call('trim_regex', [site.arg(1, 'string'), site.arg(0, 'string')], 'string', { side: 'start' });
  },
  trim_end: (site) => {
    site.arity(2);
    return call('trim_regex', [site.arg(1, 'string'), site.arg(0, 'string')], 'string', { side: 'end' });
  },
  strrep: (site) => {
    site.arity(2, 3);
    const args = [site.arg(0, 'string'), site.arg(1, 'int'), site.count > 2 ? site.arg(2, 'string') : literal({ type: 'string', value: '' })];
    return call('strrep', args, 'string');
  },
  countof: (site) => {
    site.arity(2, 3);
    const kind = site.count > 2 ? site.constString(2) : 'normal';
    if (kind !== 'normal' && kind !== 'regex') throw site.error('kind must be "normal" or "regex"', 2);
    return call('countof', [site.arg(0, 'string'), site.arg(1, 'string')], 'int', { regex: kind === 'regex' });
  },
  parse_url: unary('parse_url', 'string', 'dynamic'),
  parse_urlquery: unary('parse_urlquery', 'string', 'dynamic'),
  format_bytes: (site) => {
    site.arity(1, 3);
    const precision = site.optionalConstNumber(1, 0);
    const units = site.count > 2 ? site.constString(2).toUpperCase() : undefined;
    if (units !== undefined && !['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'].includes(units)) throw site.error('units must be one of B, KB, MB, GB, TB, PB, EB', 2);
    return call('format_bytes', [site.arg(0, 'real')], 'string', { precision, units });
  },
  format_url: unary('format_url', 'dynamic', 'string'),
};

/** The type named by `typeof(long)` (or a string such as 'long'). */
export function typeOfTypeLiteral(site: CallSite, index: number): AplType {
  const arg = site.raw(index);
  // extract(..., typeof(long)) arrives as a call name; accept a string too.
  const name = constantString(arg) ?? (arg.kind === 'call' && arg.fn === 'typeof' ? String(arg.options?.name) : undefined);
  const types: Record<string, AplType> = { string: 'string', int: 'int', long: 'int', real: 'real', double: 'real', bool: 'bool', boolean: 'bool', datetime: 'datetime', timespan: 'timespan', dynamic: 'dynamic' };
  const type = name === undefined ? undefined : types[name];
  if (!type) throw site.error('expects a type such as typeof(long)', index);
  return type;
}
