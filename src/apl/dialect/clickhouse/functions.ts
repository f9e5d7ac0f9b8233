// ClickHouse SQL for every canonical call of the typed plan (operators, conversions, functions),
// giving the answers the DuckDB dialect gives. Where ClickHouse's own behaviour differs (division
// by zero is null, ties round away from zero, functions returning arrays refuse null input),
// the rule says so.
import type { AplType, TExpr } from '../../semantic/plan';
import { type ExprWriter, literalString, nullableType } from './expressions';
import { asDateTime, floorDiv, formatDateTimeSql, formatTimespanSql, goDurationSql, rfc3339Sql } from './formatting';
import { captureGroups, escapeRegex, termRegex, WORD } from './regex';
import { unsupportedOnClickHouse } from './unsupported';

type CallExpr = Extract<TExpr, { kind: 'call' }>;
type Rule = (w: ExprWriter, e: CallExpr, a: (i: number) => string) => string;

const NANOS: Record<string, bigint> = {
  nanosecond: 1n,
  microsecond: 1_000n,
  millisecond: 1_000_000n,
  second: 1_000_000_000n,
  minute: 60_000_000_000n,
  hour: 3_600_000_000_000n,
  day: 86_400_000_000_000n,
  week: 604_800_000_000_000n,
};
const MONTHS: Record<string, number> = { month: 1, quarter: 3, year: 12 };

/** `value` where every argument is non-null, else null (for functions that return arrays). */
export function whenNotNull(args: string[], value: string): string {
  if (args.length === 0) return value;
  return `if(${args.map((arg) => `${arg} IS NULL`).join(' OR ')}, NULL, ${value})`;
}

/** The text without its Nullable wrapper, for functions that refuse null input. */
export const notNull = (x: string) => `assumeNotNull(${x})`;

/** Rounds half away from zero, as DuckDB's round and casts do (ClickHouse rounds exact ties to even). */
export function roundSql(x: string, digits = '0'): string {
  const p = `pow(10, ${digits})`;
  const scaled = `(${x} * ${p})`;
  return `if(abs(${scaled} - trunc(${scaled})) = 0.5, (trunc(${scaled}) + sign(${x})) / ${p}, round(${x}, toInt32(${digits})))`;
}

/** A double as Int64 the way DuckDB casts it: rounded, null when out of range. */
export const doubleToInt = (x: string) => `accurateCastOrNull(${roundSql(x)}, 'Int64')`;

/** A regex operand: constant patterns are inlined so ClickHouse compiles them once. */
function regexArg(w: ExprWriter, expr: TExpr, sql: () => string): string {
  const text = literalString(expr);
  return text === undefined ? sql() : w.constant(text);
}

function negatable(e: CallExpr, subject: string, positive: string): string {
  // Kusto treats a missing string as empty, so negated string operators keep null rows.
  return e.options?.negated ? `(${subject} IS NULL OR NOT ${positive})` : positive;
}

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

// ---- JSON text (dynamic values) ---------------------------------------------------------------

/** The type of a JSON text: Null, String, Int64, UInt64, Double, Bool, Array, Object (null for SQL NULL). */
export const jsonType = (x: string) => `toString(JSONType(${x}))`;

/** The text of a JSON value as DuckDB's json_extract_string gives it: strings unquoted, JSON null as NULL. */
export function jsonText(x: string): string {
  return `multiIf(${jsonType(x)} = 'String', JSONExtractString(${x}), ${jsonType(x)} = 'Null', NULL, ${x})`;
}

/** A JSON value for a key of a bag (or an index of an array, 0-based), or null when absent. */
export function jsonMember(x: string, key: string): string {
  return `nullIf(JSONExtractRaw(${x}, ${key}), '')`;
}

/** A list of JSON texts as one JSON array text. */
export const jsonArrayOf = (list: string) => `concat('[', arrayStringConcat(${list}, ','), ']')`;

// ---- conversions --------------------------------------------------------------------------

const trimmed = (s: string) => `replaceRegexpAll(${s}, '^\\\\s+|\\\\s+$', '')`;

function stringTo(to: AplType, s: string): string {
  switch (to) {
    case 'int':
      return `if(match(${s}, '^\\\\s*[+-]?\\\\d+\\\\s*$'), toInt64OrNull(${trimmed(s)}), NULL)`;
    case 'real':
      return `toFloat64OrNull(${trimmed(s)})`;
    case 'bool':
      return `multiIf(lower(${trimmed(s)}) IN ('true', '1'), true, lower(${trimmed(s)}) IN ('false', '0'), false, NULL)`;
    case 'datetime':
      return `toUnixTimestamp64Nano(parseDateTime64BestEffortOrNull(${s}, 9, 'UTC'))`;
    case 'timespan':
      return timespanOfText(s);
    case 'dynamic':
      return `toJSONString(${s})`;
    default:
      return s;
  }
}

/** Text as a timespan: `[-][d.]hh:mm[:ss[.fffffff]]`, or amounts with units (`1.5h`, `1h30m`, `90 seconds`). */
function timespanOfText(s: string): string {
  const clock = `extractGroups(${notNull(s)}, '^\\\\s*(-?)(?:(\\\\d+)\\\\.)?(\\\\d+):(\\\\d+)(?::(\\\\d+)(?:\\\\.(\\\\d{1,9}))?)?\\\\s*$')`;
  const fromClock = `arrayMap(g -> if(empty(g) OR g[3] = '', NULL, (if(g[1] = '-', -1, 1)) * (toInt64OrZero(g[2]) * 86400000000000 + toInt64(g[3]) * 3600000000000 + toInt64(g[4]) * 60000000000 + toInt64OrZero(g[5]) * 1000000000 + toInt64OrZero(rightPad(g[6], 9, '0')))), [${clock}])[1]`;
  const units = 'weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|milliseconds?|millis?|ms|microseconds?|us|µs|nanoseconds?|ns|seconds?|secs?|s|m';
  const amount = `\\s*([+-]?\\d+(?:\\.\\d*)?)\\s*(${units})\\s*`;
  const perUnit = `multiIf(g[2] IN ('w', 'week', 'weeks'), 604800e9, g[2] IN ('d', 'day', 'days'), 86400e9, g[2] IN ('h', 'hr', 'hrs', 'hour', 'hours'), 3600e9, g[2] IN ('m', 'min', 'mins', 'minute', 'minutes'), 60e9, g[2] IN ('s', 'sec', 'secs', 'second', 'seconds'), 1e9, g[2] IN ('ms', 'milli', 'millis', 'millisecond', 'milliseconds'), 1e6, g[2] IN ('us', 'µs', 'microsecond', 'microseconds'), 1e3, 1)`;
  const pairs = `extractAllGroupsVertical(${notNull(s)}, '${amount}')`;
  const fromUnit = `if(match(${s}, '^(?:${amount})+$'), accurateCastOrNull(round(arraySum(arrayMap(g -> toFloat64(g[1]) * ${perUnit}, ${pairs}))), 'Int64'), NULL)`;
  return `if(${s} IS NULL, NULL, coalesce(${fromClock}, ${fromUnit}))`;
}

/** A real printed as APL prints it: whole numbers without a fraction. */
function realText(x: string): string {
  return `if(isFinite(${x}) AND ${x} = trunc(${x}) AND abs(${x}) < 1e15, toString(toInt64(${x})), toString(${x}))`;
}

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export function convertSql(x: string, from: AplType, to: AplType, explicit: boolean): string {
  if (from === to) return x;
  if (from === 'null') return `CAST(${x} AS ${nullableType(to)})`;
  if (to === 'string') {
    const text = (() => {
      switch (from) {
        case 'real':
          return realText(x);
        case 'bool':
          return `if(${x}, 'true', 'false')`;
        case 'datetime':
          return rfc3339Sql(x);
        case 'timespan':
          return goDurationSql(x);
        case 'dynamic':
          return jsonText(x);
        default:
          return `toString(${x})`;
      }
    })();
    // tostring(null) is the empty string.
    return explicit ? `ifNull(${text}, '')` : text;
  }
  if (to === 'dynamic') {
    switch (from) {
      case 'string':
        return explicit ? `if(isValidJSON(${x}), ${x}, toJSONString(${x}))` : `toJSONString(${x})`;
      case 'datetime':
        return `toJSONString(${rfc3339Sql(x)})`;
      case 'bool':
        return `if(${x}, 'true', 'false')`;
      case 'real':
        return `if(isFinite(${x}), toString(${x}), NULL)`;
      default:
        return `toString(${x})`;
    }
  }
  if (from === 'dynamic') {
    const text = jsonText(x);
    if (to === 'int') {
      return `multiIf(${jsonType(x)} IN ('Int64', 'UInt64'), toInt64OrNull(${x}), ${jsonType(x)} = 'Double', accurateCastOrNull(trunc(toFloat64OrNull(${x})), 'Int64'), ${jsonType(x)} = 'Bool', if(${x} = 'true', toInt64(1), toInt64(0)), ${jsonType(x)} = 'String', ${stringTo('int', text)}, NULL)`;
    }
    return stringTo(to, text);
  }
  if (from === 'string') return stringTo(to, x);
  switch (to) {
    case 'int':
      if (from === 'real') return `accurateCastOrNull(trunc(${x}), 'Int64')`;
      return `toInt64(${x})`;
    case 'real':
      return `toFloat64(${x})`;
    case 'bool':
      return `(${x} != 0)`;
    case 'timespan':
      if (from === 'real') return `accurateCastOrNull(trunc(${x}), 'Int64')`;
      return `toInt64(${x})`;
    case 'datetime':
      return `CAST(NULL AS Nullable(Int64))`;
    default:
      return `CAST(${x} AS ${nullableType(to)})`;
  }
}

// ---- dates ------------------------------------------------------------------------------------

/** Nanoseconds of a Date32 or DateTime64 value. */
const nanosOf = (date: string) => `toUnixTimestamp64Nano(toDateTime64(${date}, 9, 'UTC'))`;

function periodStart(unit: string, t: string): string {
  const day = `toDate32(${asDateTime(t)})`;
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      return `toStartOfWeek(${day}, 0)`;
    case 'month':
      return `toStartOfMonth(${day})`;
    default:
      return `toStartOfYear(${day})`;
  }
}

const ADD_UNITS: Record<string, string> = { day: 'addDays', week: 'addWeeks', month: 'addMonths', year: 'addYears' };

function datePartSql(part: string, t: string): string {
  const d = asDateTime(t);
  const subsecond = `((${t} % 1000000000 + 1000000000) % 1000000000)`;
  switch (part) {
    case 'millisecond':
      return `intDiv(${subsecond}, 1000000)`;
    case 'microsecond':
      return `intDiv(${subsecond}, 1000)`;
    case 'nanosecond':
      return subsecond;
    case 'week_of_year':
      return `toInt64(toISOWeek(${d}))`;
    case 'year':
      return `toInt64(toYear(${d}))`;
    case 'quarter':
      return `toInt64(toQuarter(${d}))`;
    case 'month':
      return `toInt64(toMonth(${d}))`;
    case 'day':
      return `toInt64(toDayOfMonth(${d}))`;
    case 'dayofyear':
      return `toInt64(toDayOfYear(${d}))`;
    case 'dayofweek':
      return `toInt64(toDayOfWeek(${d}, 2))`;
    case 'hour':
      return `toInt64(toHour(${d}))`;
    case 'minute':
      return `toInt64(toMinute(${d}))`;
    case 'second':
      return `toInt64(toSecond(${d}))`;
    default:
      throw new Error(`the ClickHouse dialect has no date part ${part}`);
  }
}

const URL_PATTERN = `^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://(?:([^:@/]*)(?::([^@/]*))?@)?([^:/?#]*)(?::(\\d+))?)?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$`;

/** A query string's parameters as a JSON object of decoded texts. */
function queryParametersSql(q: string): string {
  const pairs = `arrayFilter(kv -> kv != '', splitByChar('&', ifNull(${q}, '')))`;
  const entries = `arrayMap(kv -> concat(toJSONString(decodeURLComponent(splitByChar('=', kv)[1])), ':', toJSONString(decodeURLComponent(splitByChar('=', kv)[2]))), ${pairs})`;
  return `concat('{', arrayStringConcat(${entries}, ','), '}')`;
}

function formatBytesSql(x: string, precision: number, units: string | undefined): string {
  const names = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const fmt = (k: number) => `printf('%.${precision}f ${names[k]}', ${x} / ${1024 ** k}.0)`;
  if (units) return fmt(Math.max(0, ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'].indexOf(units)));
  const cases = names.slice(0, -1).map((_, k) => `abs(${x}) < ${1024 ** (k + 1)}.0, ${fmt(k)}`);
  return `multiIf(${x} IS NULL, NULL, ${cases.join(', ')}, ${fmt(names.length - 1)})`;
}

/** Division whose zero divisor gives null, as in DuckDB (ClickHouse would give inf or fail). */
const safeDivisor = (b: string) => `if(${b} = 0, NULL, ${b})`;

const RULES: Record<string, Rule> = {
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
    return `(toFloat64(${a(0)}) / ${safeDivisor(a(1))})`;
  },
  mod: (_w, _e, a) => `(${a(0)} % ${safeDivisor(a(1))})`,
  neg: (_w, _e, a) => `(-${a(0)})`,

  // ---- conversions ----
  cast: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, false),
  convert: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, true),

  // ---- strings ----
  strlen: (_w, _e, a) => `toInt64(lengthUTF8(${a(0)}))`,
  tolower: (_w, _e, a) => `lowerUTF8(${a(0)})`,
  toupper: (_w, _e, a) => `upperUTF8(${a(0)})`,
  reverse: (_w, _e, a) => `reverseUTF8(${a(0)})`,
  trim_space: (_w, _e, a) => trimmed(a(0)),
  url_encode: (_w, _e, a) => `encodeURLComponent(${a(0)})`,
  url_decode: (_w, _e, a) => `decodeURLComponent(${a(0)})`,
  base64_encode: (_w, _e, a) => `base64Encode(${a(0)})`,
  base64_decode: (_w, _e, a) => `base64Decode(${a(0)})`,
  substring: (_w, e, a) =>
    e.args.length > 2 ? `substringUTF8(${a(0)}, greatest(${a(1)}, 0) + 1, greatest(${a(2)}, 0))` : `substringUTF8(${a(0)}, greatest(${a(1)}, 0) + 1)`,
  strcat: (_w, e, a) => `concat(${e.args.map((_, i) => `ifNull(${a(i)}, '')`).join(', ')}, '')`,
  strcat_delim: (_w, e, a) => whenNotNull([a(0)], `arrayStringConcat([${e.args.slice(1).map((_, i) => `ifNull(${a(i + 1)}, '')`).join(', ')}], ${notNull(a(0))})`),
  strcmp: (_w, _e, a) => `multiIf(${a(0)} < ${a(1)}, -1, ${a(0)} > ${a(1)}, 1, ${a(0)} = ${a(1)}, 0, NULL)`,
  split: (_w, e, a) => {
    const parts = `splitByString(${notNull(a(1))}, ${notNull(a(0))})`;
    const list = e.args.length > 2 ? `arraySlice(${parts}, ${a(2)} + 1, if(${a(2)} + 1 >= 1 AND ${a(2)} < length(${parts}), 1, 0))` : parts;
    return whenNotNull(e.args.map((_, i) => a(i)), `toJSONString(${list})`);
  },
  replace_string: (_w, _e, a) => `replaceAll(${a(0)}, ${a(1)}, ${a(2)})`,
  replace_regex: (w, e, a) => `replaceRegexpAll(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))}, ${a(2)})`,
  extract: (w, e, a) => {
    const regex = regexArg(w, e.args[1]!, () => a(1));
    return `if(match(${a(0)}, ${regex}), regexpExtract(${a(0)}, ${regex}, ${Number(e.options?.group ?? 0)}), NULL)`;
  },
  extract_all: (w, e, a) => {
    const text = literalString(e.args[1]!);
    const regex = regexArg(w, e.args[1]!, () => a(1));
    const groups = text === undefined ? 1 : captureGroups(text);
    const subject = notNull(a(0));
    if (groups <= 1) return whenNotNull([a(0)], `toJSONString(extractAll(${subject}, ${regex}))`);
    return whenNotNull([a(0)], `toJSONString(extractAllGroupsVertical(${subject}, ${regex}))`);
  },
  indexof: (_w, _e, a) => {
    const rest = `substringUTF8(${a(0)}, ${a(2)} + 1)`;
    return `multiIf(${a(0)} IS NULL OR ${a(1)} IS NULL, NULL, ${a(2)} < 0 OR ${a(2)} > lengthUTF8(${a(0)}), toInt64(-1), positionUTF8(${rest}, ${a(1)}) = 0, toInt64(-1), toInt64(positionUTF8(${rest}, ${a(1)}) - 1 + ${a(2)}))`;
  },
  trim_regex: (w, e, a) => {
    const text = literalString(e.args[1]!);
    const side = e.options?.side;
    const leading = text !== undefined ? w.constant(`^(?:${text})+`) : `concat('^(?:', ${a(1)}, ')+')`;
    const trailing = text !== undefined ? w.constant(`(?:${text})+$`) : `concat('(?:', ${a(1)}, ')+$')`;
    let sql = a(0);
    if (side !== 'end') sql = `replaceRegexpOne(${sql}, ${leading}, '')`;
    if (side !== 'start') sql = `replaceRegexpOne(${sql}, ${trailing}, '')`;
    return sql;
  },
  strrep: (w, _e, a) =>
    `if(${a(1)} <= 0, '', ${w.lengthGuarded(`toFloat64(length(concat(${a(0)}, ${a(2)}))) * ${a(1)}`, `concat(repeat(concat(${a(0)}, ${a(2)}), toUInt64(greatest(${a(1)} - 1, 0))), ${a(0)})`)})`,
  countof: (w, e, a) =>
    e.options?.regex
      ? whenNotNull([a(0)], `toInt64(length(extractAll(${notNull(a(0))}, ${regexArg(w, e.args[1]!, () => a(1))})))`)
      : `if(length(${a(1)}) = 0, toInt64(0), toInt64(intDiv(length(${a(0)}) - length(replaceAll(${a(0)}, ${a(1)}, '')), length(${a(1)}))))`,
  parse_url: (w, _e, a) => {
    const groups = `extractGroups(${notNull(a(0))}, ${w.constant(URL_PATTERN)})`;
    const field = (name: string, i: number) => `'"${name}":', toJSONString(u[${i}])`;
    const object = `concat('{', ${field('Scheme', 1)}, ',', ${field('Host', 4)}, ',', ${field('Port', 5)}, ',', ${field('Path', 6)}, ',', ${field('Username', 2)}, ',', ${field('Password', 3)}, ',"Query Parameters":', ${queryParametersSql('u[7]')}, ',', ${field('Fragment', 8)}, '}')`;
    return whenNotNull([a(0)], `arrayMap(u -> ${object}, [${groups}])[1]`);
  },
  parse_urlquery: (_w, _e, a) => `concat('{"Query Parameters":', ${queryParametersSql(`replaceRegexpOne(${a(0)}, '^\\\\?+', '')`)}, '}')`,
  format_bytes: (_w, e, a) => formatBytesSql(a(0), Number(e.options?.precision ?? 0), e.options?.units as string | undefined),
  format_datetime: (_w, e, a) => formatDateTimeSql(a(0), String(e.options?.format)),
  format_timespan: (_w, e, a) => formatTimespanSql(a(0), String(e.options?.format)),
  format_url: (_w, _e, a) => {
    const get = (key: string) => jsonText(`JSONExtractRaw(${a(0)}, '${key}')`);
    return `concat(ifNull(concat(${get('scheme')}, '://'), ''), if(${get('user')} IS NOT NULL, concat(${get('user')}, ifNull(concat(':', ${get('password')}), ''), '@'), ''), ifNull(${get('host')}, ''), ifNull(concat(':', ${get('port')}), ''), ifNull(${get('path')}, ''), ifNull(concat('#', ${get('fragment')}), ''))`;
  },
  gettype_dynamic: (_w, _e, a) =>
    `multiIf(${jsonType(a(0))} = 'String', 'string', ${jsonType(a(0))} IN ('Int64', 'UInt64'), 'long', ${jsonType(a(0))} = 'Double', 'real', ${jsonType(a(0))} = 'Bool', 'bool', ${jsonType(a(0))} = 'Array', 'array', ${jsonType(a(0))} = 'Object', 'dictionary', 'null')`,

  // ---- null and emptiness ----
  isnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NULL OR ${jsonType(a(0))} = 'Null')` : `(${a(0)} IS NULL)`),
  isnotnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NOT NULL AND ${jsonType(a(0))} != 'Null')` : `(${a(0)} IS NOT NULL)`),
  isempty: (_w, e, a) => emptiness(e.args[0]!.type, a(0)),
  isnotempty: (_w, e, a) => `(NOT ${emptiness(e.args[0]!.type, a(0))})`,

  // ---- conditionals ----
  iff: (_w, _e, a) => `if(${a(0)}, ${a(1)}, ${a(2)})`,
  case: (_w, e, a) => {
    const parts: string[] = [];
    for (let i = 0; i + 1 < e.args.length; i += 2) parts.push(`${a(i)}, ${a(i + 1)}`);
    return `multiIf(${parts.join(', ')}, ${a(e.args.length - 1)})`;
  },
  coalesce: (_w, e, a) => {
    const values = e.args.map((_, i) => (e.type === 'string' && i < e.args.length - 1 ? `nullIf(${a(i)}, '')` : a(i)));
    return `coalesce(${values.join(', ')})`;
  },
  // Nulls are left out, as DuckDB's least and greatest do: each argument stands in for a null one.
  min_of: (_w, e, a) => leastOrGreatest('least', e, a),
  max_of: (_w, e, a) => leastOrGreatest('greatest', e, a),

  // ---- math ----
  abs: (_w, _e, a) => `abs(${a(0)})`,
  floor: (_w, e, a) => (e.type === 'int' ? a(0) : `floor(${a(0)})`),
  ceiling: (_w, e, a) => (e.type === 'int' ? a(0) : `ceil(${a(0)})`),
  sign: (_w, _e, a) => `sign(${a(0)})`,
  round: (_w, _e, a) => roundSql(a(0), a(1)),
  log: (_w, _e, a) => `multiIf(${a(0)} > 0, log(${a(0)}), ${a(0)} = 0, -inf, NULL)`,
  log10: (_w, _e, a) => `multiIf(${a(0)} > 0, log10(${a(0)}), ${a(0)} = 0, -inf, NULL)`,
  log2: (_w, _e, a) => `multiIf(${a(0)} > 0, log2(${a(0)}), ${a(0)} = 0, -inf, NULL)`,
  sqrt: (_w, _e, a) => `if(${a(0)} >= 0, sqrt(${a(0)}), NULL)`,
  exp: (_w, _e, a) => `exp(${a(0)})`,
  exp2: (_w, _e, a) => `pow(2, ${a(0)})`,
  exp10: (_w, _e, a) => `pow(10, ${a(0)})`,
  pow: (_w, _e, a) => `pow(${a(0)}, ${a(1)})`,
  isnan: (_w, _e, a) => `isNaN(${a(0)})`,
  isinf: (_w, _e, a) => `isInfinite(${a(0)})`,
  isfinite: (_w, _e, a) => `isFinite(${a(0)})`,
  bin_datetime: (_w, e, a) => {
    const span = e.args[1]!;
    const size = span.kind === 'literal' && span.value.type === 'timespan' ? span.value.nanos.toString() : `(${a(1)})`;
    return `(${a(0)} - ((${a(0)} % ${size}) + ${size}) % ${size})`;
  },
  bin_number: (_w, e, a) => {
    if (e.type === 'real') return `(floor(${a(0)} / ${safeDivisor(a(1))}) * ${a(1)})`;
    return `(${a(0)} - ((${a(0)} % ${safeDivisor(a(1))}) + ${a(1)}) % ${a(1)})`;
  },

  // ---- datetime ----
  period_boundary: (_w, e, a) => {
    const unit = String(e.options?.unit);
    const start = periodStart(unit, a(0));
    const add = ADD_UNITS[unit]!;
    const shifted = nanosOf(`${add}(${start}, ${a(1)})`);
    if (!e.options?.end) return shifted;
    // The last tick (100 ns) of the period, as Kusto's endof* functions return.
    return `(${nanosOf(`${add}(${start}, ${a(1)} + 1)`)} - 100)`;
  },
  datetime_part: (_w, e, a) => datePartSql(String(e.options?.part), a(0)),
  datetime_add: (_w, e, a) => {
    const part = String(e.options?.part);
    const months = MONTHS[part];
    if (months !== undefined) return `toUnixTimestamp64Nano(addMonths(${asDateTime(a(1))}, ${a(0)} * ${months}))`;
    return `(${a(1)} + ${a(0)} * ${NANOS[part]!.toString()})`;
  },
  datetime_diff: (_w, e, a) => {
    const part = String(e.options?.part);
    if (MONTHS[part] !== undefined) return `toInt64(dateDiff('${part}', ${asDateTime(a(1))}, ${asDateTime(a(0))}))`;
    if (part === 'week') {
      // Weeks start on Sunday; 1970-01-01 was a Thursday.
      const shift = (t: string) => `(${t} + ${4n * NANOS.day!})`;
      return `(${floorDiv(shift(a(0)), NANOS.week!)} - ${floorDiv(shift(a(1)), NANOS.week!)})`;
    }
    const unit = NANOS[part]!;
    return `(${floorDiv(a(0), unit)} - ${floorDiv(a(1), unit)})`;
  },
  unixtime_todatetime: (_w, e, a) => {
    const factor = String(e.options?.nanosPerUnit);
    if (e.args[0]!.type === 'int') return `(${a(0)} * ${factor})`;
    return `accurateCastOrNull(${roundSql(`(${a(0)} * ${factor})`)}, 'Int64')`;
  },

  // ---- dynamic ----
  dyn_get: (w, e, a) => {
    const path = (e.options?.path as (string | number)[]).map((s) => (typeof s === 'number' ? String(s + 1) : w.constant(String(s))));
    return `nullIf(JSONExtractRaw(${a(0)}, ${path.join(', ')}), '')`;
  },
  dyn_index: (_w, e, a) => {
    if (e.args[1]!.type === 'string') return jsonMember(a(0), a(1));
    return `if(${a(1)} < 0, NULL, ${jsonMember(a(0), `${a(1)} + 1`)})`;
  },
  array_length: (_w, _e, a) => `if(${jsonType(a(0))} = 'Array', toInt64(JSONLength(${a(0)})), NULL)`,
  pack_array: (_w, e, a) => `concat('[', ${e.args.map((_, i) => `ifNull(${a(i)}, 'null')`).join(", ',', ")}, ']')`,
  bag_pack: (w, e, a) => {
    const keys = e.options?.keys as string[];
    if (keys.length === 0) return `'{}'`;
    const entries = keys.map((key, i) => `${w.constant(JSON.stringify(key) + ':')}, ifNull(${a(i)}, 'null')`);
    return `concat('{', ${entries.join(", ',', ")}, '}')`;
  },
  struct_field: (_w, e, a) => `tupleElement(${a(0)}, ${Number(String(e.options?.field).slice(1)) + 1})`,
  parse_group: (w, e, a) => {
    const regex = w.constant(String(e.options?.regex));
    return `if(match(${a(0)}, ${regex}), regexpExtract(${a(0)}, ${regex}, ${Number(e.options?.group)}), NULL)`;
  },

  // ---- hashes ----
  hash: (_w, e, a) => (e.args.length > 1 ? `reinterpretAsInt64(xxHash64(${a(0)}, ${a(1)}))` : `reinterpretAsInt64(xxHash64(${a(0)}))`),
  hash_digest: (_w, e, a) => {
    const functions: Record<string, string> = { md5: 'MD5', sha1: 'SHA1', sha256: 'SHA256', sha512: 'SHA512' };
    return `lower(hex(${functions[String(e.options?.algorithm)]}(${a(0)})))`;
  },
};

function leastOrGreatest(fn: 'least' | 'greatest', e: CallExpr, a: (i: number) => string): string {
  const args = e.args.map((_, i) => a(i));
  if (args.length === 1) return args[0]!;
  return `${fn}(${args.map((arg, i) => `coalesce(${[arg, ...args.filter((_, j) => j !== i)].join(', ')})`).join(', ')})`;
}

function anyOrAll(w: ExprWriter, e: CallExpr, a: (i: number) => string, joiner: string): string {
  const cs = Boolean(e.options?.caseSensitive);
  const rule = termOperator('has', cs);
  const terms = e.args.slice(1);
  if (terms.length === 0) return joiner === ' OR ' ? 'false' : 'true';
  const parts = terms.map((term, i) => rule(w, { kind: 'call', fn: 'has', args: [e.args[0]!, term], type: 'bool' }, (j) => (j === 0 ? a(0) : a(i + 1))));
  return `(${parts.join(joiner)})`;
}

function emptiness(type: AplType, x: string): string {
  if (type === 'string') return `(${x} IS NULL OR ${x} = '')`;
  if (type === 'dynamic') return `(${x} IS NULL OR ${jsonType(x)} = 'Null' OR ${x} IN ('""', '[]', '{}'))`;
  return `(${x} IS NULL)`;
}

export function callSql(w: ExprWriter, e: CallExpr): string {
  const rule = RULES[e.fn];
  if (!rule) throw unsupportedOnClickHouse(e.fn);
  const cache = new Map<number, string>();
  const arg = (i: number) => {
    let sql = cache.get(i);
    if (sql === undefined) {
      sql = w.write(e.args[i]!);
      cache.set(i, sql);
    }
    return sql;
  };
  return rule(w, e, arg);
}
