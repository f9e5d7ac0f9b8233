// The scalar function catalog: for each APL function, its arity and type rule. A rule checks
// and converts the arguments and returns a typed call whose canonical name the dialects know.
// Semantics follow Axiom's APL reference, and Kusto's where Axiom is silent.
import type { AplType, TExpr } from './plan';
import { CallSite } from './call-site';
import { NANOS_PER_DAY } from '../time';
import { call, constantString, convert, intLiteral, isNumeric, literal, nullOf } from './typed';

export type ScalarRule = (site: CallSite) => TExpr;

/** The common type of branches (iff, case, coalesce): numbers widen to real, mixes fall back to string. */
export function unify(exprs: TExpr[], site: CallSite): AplType {
  const types = [...new Set(exprs.map((e) => e.type).filter((t) => t !== 'null'))];
  if (types.length === 0) return 'null';
  if (types.length === 1) return types[0]!;
  if (types.every(isNumeric)) return 'real';
  if (types.includes('dynamic')) return 'dynamic';
  if (types.includes('string')) return 'string';
  throw site.error(`all values must have the same type, found ${types.join(' and ')}`);
}

const unary =
  (fn: string, param: AplType, returns: AplType): ScalarRule =>
  (site) => {
    site.arity(1);
    return call(fn, [site.arg(0, param)], returns);
  };

/** A string function: every argument converted to string, result of `returns`. */
const strings =
  (fn: string, min: number, max: number, returns: AplType): ScalarRule =>
  (site) => {
    site.arity(min, max);
    return call(fn, site.args.map((_, i) => site.arg(i, 'string')), returns);
  };

const math1 =
  (fn: string): ScalarRule =>
  (site) => {
    site.arity(1);
    return call(fn, [site.arg(0, 'real')], 'real');
  };

const DATE_PARTS = ['year', 'quarter', 'month', 'week_of_year', 'week', 'day', 'dayofyear', 'hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'];
const DIFF_PARTS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'];

function datePart(site: CallSite, index: number, allowed: string[]): string {
  const part = site.constString(index).toLowerCase();
  const normalized = part === 'weekofyear' ? 'week_of_year' : part;
  if (!allowed.includes(normalized)) throw site.error(`unknown date part "${part}"; use one of ${allowed.join(', ')}`, index);
  return normalized;
}

/** startof... and endof...: an optional second argument shifts by that many periods. */
const periodBoundary =
  (fn: string, unit: string, end: boolean): ScalarRule =>
  (site) => {
    site.arity(1, 2);
    const offset = site.count > 1 ? site.arg(1, 'int') : intLiteral(0);
    return call(fn, [site.arg(0, 'datetime'), offset], 'datetime', { unit, end });
  };

const conversion =
  (to: AplType): ScalarRule =>
  (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === to) return arg;
    if (arg.type === 'null') return nullOf(to);
    if (to === 'datetime' && (arg.type === 'int' || arg.type === 'real' || arg.type === 'bool' || arg.type === 'timespan')) return nullOf(to);
    return call('convert', [arg], to);
  };

const unixTime =
  (nanosPerUnit: bigint): ScalarRule =>
  (site) => {
    site.arity(1);
    return call('unixtime_todatetime', [site.number(0)], 'datetime', { nanosPerUnit });
  };

const hashOf =
  (algorithm: string): ScalarRule =>
  (site) => {
    site.arity(1);
    return call('hash_digest', [site.arg(0, 'string')], 'string', { algorithm });
  };

export const SCALAR_FUNCTIONS: Record<string, ScalarRule> = {
  // ---- strings ----
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
  format_datetime: (site) => {
    site.arity(2);
    return call('format_datetime', [site.arg(0, 'datetime')], 'string', { format: site.constString(1) });
  },
  format_timespan: (site) => {
    site.arity(2);
    return call('format_timespan', [site.arg(0, 'timespan')], 'string', { format: site.constString(1) });
  },
  format_url: unary('format_url', 'dynamic', 'string'),
  gettype: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'dynamic') return call('gettype_dynamic', [arg], 'string');
    const names: Record<AplType, string> = { bool: 'bool', int: 'long', real: 'real', string: 'string', datetime: 'datetime', timespan: 'timespan', dynamic: 'dynamic', null: 'null' };
    return literal({ type: 'string', value: names[arg.type] });
  },

  // ---- null and emptiness ----
  isnull: (site) => {
    site.arity(1);
    return call('isnull', [site.raw(0)], 'bool');
  },
  isnotnull: (site) => {
    site.arity(1);
    return call('isnotnull', [site.raw(0)], 'bool');
  },
  isempty: (site) => {
    site.arity(1);
    return call('isempty', [site.raw(0)], 'bool');
  },
  isnotempty: (site) => {
    site.arity(1);
    return call('isnotempty', [site.raw(0)], 'bool');
  },

  // ---- conditionals ----
  iff: (site) => {
    site.arity(3);
    const type = unify([site.raw(1), site.raw(2)], site);
    return call('iff', [site.arg(0, 'bool'), site.arg(1, type), site.arg(2, type)], type);
  },
  case: (site) => {
    site.arity(3, 255);
    if (site.count % 2 === 0) throw site.error('expects pairs of condition and value, then an else value');
    const values = site.args.filter((_, i) => i % 2 === 1 || i === site.count - 1);
    const type = unify(values, site);
    const args = site.args.map((_, i) => (i % 2 === 0 && i !== site.count - 1 ? site.arg(i, 'bool') : site.arg(i, type)));
    return call('case', args, type);
  },
  coalesce: (site) => {
    site.arity(1, 64);
    const type = unify(site.args, site);
    return call('coalesce', site.args.map((_, i) => site.arg(i, type)), type);
  },
  not: (site) => {
    site.arity(1);
    return call('not', [site.arg(0, 'bool')], 'bool');
  },
  min_of: (site) => {
    site.arity(1, 64);
    const type = unify(site.args, site);
    return call('min_of', site.args.map((_, i) => site.arg(i, type)), type);
  },
  max_of: (site) => {
    site.arity(1, 64);
    const type = unify(site.args, site);
    return call('max_of', site.args.map((_, i) => site.arg(i, type)), type);
  },

  // ---- math ----
  abs: (site) => {
    site.arity(1);
    const arg = site.raw(0).type === 'timespan' ? site.raw(0) : site.number(0);
    return call('abs', [arg], arg.type);
  },
  floor: (site) => {
    site.arity(1, 2);
    if (site.count === 2) return binRule(site);
    return call('floor', [site.number(0)], site.number(0).type);
  },
  ceiling: (site) => {
    site.arity(1);
    return call('ceiling', [site.number(0)], site.number(0).type);
  },
  round: (site) => {
    site.arity(1, 2);
    return call('round', [site.arg(0, 'real'), site.count > 1 ? site.arg(1, 'int') : intLiteral(0)], 'real');
  },
  sign: (site) => {
    site.arity(1);
    return call('sign', [site.number(0)], site.number(0).type);
  },
  log: math1('log'),
  log10: math1('log10'),
  log2: math1('log2'),
  sqrt: math1('sqrt'),
  exp: math1('exp'),
  exp2: math1('exp2'),
  exp10: math1('exp10'),
  pow: (site) => {
    site.arity(2);
    return call('pow', [site.arg(0, 'real'), site.arg(1, 'real')], 'real');
  },
  pi: (site) => {
    site.arity(0);
    return literal({ type: 'real', value: Math.PI });
  },
  isnan: unary('isnan', 'real', 'bool'),
  isinf: unary('isinf', 'real', 'bool'),
  isfinite: unary('isfinite', 'real', 'bool'),
  bin: (site) => binRule(site),
  bin_auto: (site) => {
    site.arity(1);
    const arg = site.arg(0, 'datetime');
    return call('bin_datetime', [arg, literal({ type: 'timespan', nanos: site.context.autoBinSpan })], 'datetime');
  },

  // ---- datetime ----
  now: (site) => {
    site.arity(0, 1);
    const now = literal({ type: 'datetime', nanos: site.context.nowNanos });
    return site.count ? call('add', [now, site.arg(0, 'timespan')], 'datetime') : now;
  },
  ago: (site) => {
    site.arity(1);
    return call('sub', [literal({ type: 'datetime', nanos: site.context.nowNanos }), site.arg(0, 'timespan')], 'datetime');
  },
  startofday: periodBoundary('period_boundary', 'day', false),
  startofweek: periodBoundary('period_boundary', 'week', false),
  startofmonth: periodBoundary('period_boundary', 'month', false),
  startofyear: periodBoundary('period_boundary', 'year', false),
  endofday: periodBoundary('period_boundary', 'day', true),
  endofweek: periodBoundary('period_boundary', 'week', true),
  endofmonth: periodBoundary('period_boundary', 'month', true),
  endofyear: periodBoundary('period_boundary', 'year', true),
  datetime_part: (site) => {
    site.arity(2);
    const part = datePart(site, 0, DATE_PARTS);
    return call('datetime_part', [site.arg(1, 'datetime')], 'int', { part: part === 'week' ? 'week_of_year' : part });
  },
  datetime_add: (site) => {
    site.arity(3);
    const part = datePart(site, 0, DIFF_PARTS);
    return call('datetime_add', [site.arg(1, 'int'), site.arg(2, 'datetime')], 'datetime', { part });
  },
  datetime_diff: (site) => {
    site.arity(3);
    const part = datePart(site, 0, DIFF_PARTS);
    return call('datetime_diff', [site.arg(1, 'datetime'), site.arg(2, 'datetime')], 'int', { part });
  },
  dayofmonth: (site) => partOf(site, 'day'),
  dayofyear: (site) => partOf(site, 'dayofyear'),
  dayofweek: (site) => partOf(site, 'dayofweek'),
  getmonth: (site) => partOf(site, 'month'),
  monthofyear: (site) => partOf(site, 'month'),
  getyear: (site) => partOf(site, 'year'),
  hourofday: (site) => partOf(site, 'hour'),
  week_of_year: (site) => partOf(site, 'week_of_year'),
  unixtime_seconds_todatetime: unixTime(1_000_000_000n),
  unixtime_milliseconds_todatetime: unixTime(1_000_000n),
  unixtime_microseconds_todatetime: unixTime(1_000n),
  unixtime_nanoseconds_todatetime: unixTime(1n),

  // ---- conversions ----
  tostring: conversion('string'),
  toint: conversion('int'),
  tolong: conversion('int'),
  toreal: conversion('real'),
  todouble: conversion('real'),
  tobool: conversion('bool'),
  toboolean: conversion('bool'),
  todatetime: conversion('datetime'),
  totimespan: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    const text = constantString(arg);
    if (text !== undefined) return conversion('timespan')(site);
    if (arg.type === 'int' || arg.type === 'real') return call('convert', [arg], 'timespan');
    return conversion('timespan')(site);
  },
  todynamic: conversion('dynamic'),
  parse_json: conversion('dynamic'),
  int: conversion('int'),
  long: conversion('int'),
  real: conversion('real'),
  double: conversion('real'),
  bool: conversion('bool'),
  boolean: conversion('bool'),
  string: conversion('string'),

  // ---- dynamic values ----
  array_length: unary('array_length', 'dynamic', 'int'),
  pack_array: (site) => {
    site.arity(1, 64);
    return call('pack_array', site.args.map((_, i) => site.arg(i, 'dynamic')), 'dynamic');
  },
  bag_pack: (site) => packRule(site),
  pack: (site) => packRule(site),

  // ---- hashes ----
  hash: (site) => {
    site.arity(1, 2);
    const args = [site.arg(0, 'string')];
    if (site.count > 1) args.push(site.arg(1, 'int'));
    return call('hash', args, 'int');
  },
  hash_md5: hashOf('md5'),
  hash_sha1: hashOf('sha1'),
  hash_sha256: hashOf('sha256'),
  hash_sha512: hashOf('sha512'),
};

SCALAR_FUNCTIONS.iif = SCALAR_FUNCTIONS.iff!;

function partOf(site: CallSite, part: string): TExpr {
  site.arity(1);
  return call('datetime_part', [site.arg(0, 'datetime')], 'int', { part });
}

function packRule(site: CallSite): TExpr {
  if (site.count % 2 !== 0) throw site.error('expects key, value pairs');
  const keys: string[] = [];
  const values: TExpr[] = [];
  for (let i = 0; i < site.count; i += 2) {
    keys.push(site.constString(i));
    values.push(site.arg(i + 1, 'dynamic'));
  }
  return call('bag_pack', values, 'dynamic', { keys });
}

/** bin(value, size): datetimes by timespans, numbers by numbers, timespans by timespans. */
export function binRule(site: CallSite): TExpr {
  site.arity(2);
  const value = site.raw(0);
  if (value.type === 'datetime' || (value.type === 'string' && site.raw(1).type === 'timespan')) {
    const span = site.arg(1, 'timespan');
    if (span.kind === 'literal' && span.value.type === 'timespan' && span.value.nanos <= 0n) throw site.error('the bin size must be positive', 1);
    return call('bin_datetime', [site.arg(0, 'datetime'), span], 'datetime');
  }
  if (value.type === 'timespan') return call('bin_number', [value, site.arg(1, 'timespan')], 'timespan');
  const number = site.number(0);
  const size = site.number(1);
  const type: AplType = number.type === 'int' && size.type === 'int' ? 'int' : 'real';
  return call('bin_number', [convert(number, type, site.pos, 'the value'), convert(size, type, site.pos, 'the bin size')], type);
}

function typeOfTypeLiteral(site: CallSite, index: number): AplType {
  const arg = site.raw(index);
  // extract(..., typeof(long)) arrives as a call name; accept a string too.
  const name = constantString(arg) ?? (arg.kind === 'call' && arg.fn === 'typeof' ? String(arg.options?.name) : undefined);
  const types: Record<string, AplType> = { string: 'string', int: 'int', long: 'int', real: 'real', double: 'real', bool: 'bool', boolean: 'bool', datetime: 'datetime', timespan: 'timespan', dynamic: 'dynamic' };
  const type = name === undefined ? undefined : types[name];
  if (!type) throw site.error('expects a type such as typeof(long)', index);
  return type;
}

/** The span `bin_auto` picks: a round span giving at most about 100 bins over the window. */
export function autoBinSpan(windowNanos: bigint | undefined): bigint {
  const steps = [1n, 5n, 10n, 15n, 30n, 60n, 300n, 600n, 900n, 1800n, 3600n, 10800n, 21600n, 43200n, 86400n, 604800n].map((s) => s * 1_000_000_000n);
  const window = windowNanos && windowNanos > 0n ? windowNanos : NANOS_PER_DAY;
  const wanted = window / 100n;
  return steps.find((step) => step >= wanted) ?? 30n * NANOS_PER_DAY;
}
