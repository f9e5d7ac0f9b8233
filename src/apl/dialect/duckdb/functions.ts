// DuckDB SQL for every canonical call of the typed plan (operators, conversions, functions).
import type { AplType, TExpr } from '../../semantic/plan';
import { formatDateTimeSql, formatTimespanSql, goDurationSql, rfc3339Sql } from './formatting';
import { type ExprWriter, literalString, SQL_TYPE } from './expressions';

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

/** Escapes a literal for use inside a regular expression (RE2). */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

const WORD = '\\pL\\pN';

/** The regex of Kusto's term operators for a constant term: word boundaries around the term. */
function termRegex(term: string, kind: 'has' | 'hasprefix' | 'hassuffix', caseSensitive: boolean): string {
  const boundaryBefore = kind !== 'hassuffix' && /^[\p{L}\p{N}]/u.test(term) ? `(?:^|[^${WORD}])` : '';
  const boundaryAfter = kind !== 'hasprefix' && /[\p{L}\p{N}]$/u.test(term) ? `(?:$|[^${WORD}])` : '';
  return `${caseSensitive ? '' : '(?i)'}${boundaryBefore}${escapeRegex(term)}${boundaryAfter}`;
}

/** A regex operand: constant patterns are inlined so DuckDB compiles them once. */
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
        const prefilter = caseSensitive ? `contains(${subject}, ${w.text(term)})` : `contains(lower(${subject}), ${w.text(term.toLowerCase())})`;
        positive = `(${prefilter} AND regexp_matches(${subject}, ${w.constant(termRegex(term, kind, caseSensitive))}))`;
      }
    } else {
      const before = kind === 'hassuffix' ? `''` : `'(?:^|[^${WORD}])'`;
      const after = kind === 'hasprefix' ? `''` : `'(?:$|[^${WORD}])'`;
      positive = `regexp_matches(${subject}, concat(${caseSensitive ? `''` : `'(?i)'`}, ${before}, regexp_escape(${a(1)}), ${after}))`;
    }
    return negatable(e, subject, positive);
  };
}

/** A LIKE pattern matching `needle` literally at the given place. */
function likePattern(needle: string, fn: 'contains' | 'starts_with' | 'ends_with'): { pattern: string; escaped: boolean } {
  const escaped = /[%_\\]/.test(needle);
  const text = escaped ? needle.replace(/[%_\\]/g, '\\$&') : needle;
  const pattern = fn === 'contains' ? `%${text}%` : fn === 'starts_with' ? `${text}%` : `%${text}`;
  return { pattern, escaped };
}

function substringOperator(fn: 'contains' | 'starts_with' | 'ends_with', caseSensitive: boolean): Rule {
  return (w, e, a) => {
    const subject = a(0);
    const needle = literalString(e.args[1]!);
    let positive: string;
    if (caseSensitive) positive = `${fn}(${subject}, ${a(1)})`;
    else if (needle !== undefined) {
      // ILIKE with a constant pattern is DuckDB's fastest case-insensitive substring test.
      const { pattern, escaped } = likePattern(needle, fn);
      positive = `(${subject} ILIKE ${w.text(pattern)}${escaped ? ` ESCAPE '\\'` : ''})`;
    } else positive = `${fn}(lower(${subject}), lower(${a(1)}))`;
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
    if (l.type === 'dynamic') return `(CAST(${a(0)} AS VARCHAR) ${op} CAST(${a(1)} AS VARCHAR))`;
    if (l.type !== 'string' || (op !== '=' && op !== '<>')) return `(${a(0)} ${op} ${a(1)})`;
    // Strings compare with Kusto's rule that null equals the empty string.
    if (isNonEmptyLiteral(r) || isNonEmptyLiteral(l)) return op === '=' ? `(${a(0)} = ${a(1)})` : `(${a(0)} IS DISTINCT FROM ${a(1)})`;
    if (isEmptyLiteral(r)) return `(coalesce(${a(0)}, '') ${op} '')`;
    if (isEmptyLiteral(l)) return `(coalesce(${a(1)}, '') ${op} '')`;
    return `(coalesce(${a(0)}, '') ${op} coalesce(${a(1)}, ''))`;
  };
}

/** Floor division of nanoseconds, correct before 1970 too. */
const floorDiv = (x: string, unit: bigint) => `((${x}) // ${unit} - CASE WHEN (${x}) % ${unit} < 0 THEN 1 ELSE 0 END)`;

// ---- conversions --------------------------------------------------------------------------

const STRICT_INTEGER = `'\\s*[+-]?\\d+\\s*'`;

function stringTo(to: AplType, s: string): string {
  switch (to) {
    case 'int':
      return `CASE WHEN regexp_full_match(${s}, ${STRICT_INTEGER}) THEN TRY_CAST(trim(${s}) AS BIGINT) END`;
    case 'real':
      return `TRY_CAST(${s} AS DOUBLE)`;
    case 'bool':
      return `CASE lower(trim(${s})) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE WHEN '1' THEN TRUE WHEN '0' THEN FALSE END`;
    case 'datetime':
      return `TRY_CAST(${s} AS TIMESTAMP_NS)`;
    case 'timespan':
      return `CAST(round(epoch(TRY_CAST(${s} AS INTERVAL)) * 1000000000) AS BIGINT)`;
    case 'dynamic':
      return `to_json(${s})`;
    default:
      return s;
  }
}

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export function convertSql(x: string, from: AplType, to: AplType, explicit: boolean): string {
  if (from === to) return x;
  if (from === 'null') return `CAST(${x} AS ${SQL_TYPE[to]})`;
  if (to === 'string') {
    const text = (() => {
      switch (from) {
        case 'int':
          return `CAST(${x} AS VARCHAR)`;
        case 'real':
          return `CASE WHEN isfinite(${x}) AND ${x} = trunc(${x}) AND abs(${x}) < 1e15 THEN CAST(CAST(${x} AS BIGINT) AS VARCHAR) ELSE CAST(${x} AS VARCHAR) END`;
        case 'bool':
          return explicit ? `CASE WHEN ${x} THEN 'true' ELSE 'false' END` : `CAST(${x} AS VARCHAR)`;
        case 'datetime':
          return rfc3339Sql(x);
        case 'timespan':
          return goDurationSql(x);
        case 'dynamic':
          return `json_extract_string(${x}, '$')`;
        default:
          return `CAST(${x} AS VARCHAR)`;
      }
    })();
    // tostring(null) is the empty string.
    return explicit ? `coalesce(${text}, '')` : text;
  }
  if (to === 'dynamic') {
    switch (from) {
      case 'string':
        return explicit ? `CASE WHEN json_valid(${x}) THEN CAST(${x} AS JSON) ELSE to_json(${x}) END` : `to_json(${x})`;
      case 'datetime':
        return `to_json(${rfc3339Sql(x)})`;
      default:
        return `to_json(${x})`;
    }
  }
  if (from === 'dynamic') {
    const text = `json_extract_string(${x}, '$')`;
    if (to === 'int') {
      return `CASE json_type(${x}) WHEN 'BIGINT' THEN TRY_CAST(${text} AS BIGINT) WHEN 'UBIGINT' THEN TRY_CAST(${text} AS BIGINT) WHEN 'DOUBLE' THEN TRY_CAST(trunc(TRY_CAST(${text} AS DOUBLE)) AS BIGINT) WHEN 'BOOLEAN' THEN CASE WHEN ${text} = 'true' THEN 1 ELSE 0 END WHEN 'VARCHAR' THEN ${stringTo('int', text)} END`;
    }
    return stringTo(to, text);
  }
  if (from === 'string') return stringTo(to, x);
  switch (to) {
    case 'int':
      if (from === 'real') return `TRY_CAST(trunc(${x}) AS BIGINT)`;
      if (from === 'datetime') return `epoch_ns(${x})`;
      return `CAST(${x} AS BIGINT)`;
    case 'real':
      if (from === 'datetime') return `CAST(epoch_ns(${x}) AS DOUBLE)`;
      return `CAST(${x} AS DOUBLE)`;
    case 'bool':
      return `(${x} <> 0)`;
    case 'timespan':
      if (from === 'real') return `TRY_CAST(trunc(${x}) AS BIGINT)`;
      return `CAST(${x} AS BIGINT)`;
    case 'datetime':
      return `CAST(NULL AS TIMESTAMP_NS)`;
    default:
      return `CAST(${x} AS ${SQL_TYPE[to]})`;
  }
}

// ---- dates ------------------------------------------------------------------------------------

function periodStart(unit: string, t: string): string {
  if (unit === 'week') return `CAST(date_trunc('week', CAST(${t} AS TIMESTAMP) + INTERVAL 1 DAY) - INTERVAL 1 DAY AS TIMESTAMP)`;
  return `CAST(date_trunc('${unit}', CAST(${t} AS TIMESTAMP)) AS TIMESTAMP)`;
}

const addUnits = (unit: string, ts: string, count: string) => `(${ts} + to_${unit}s(CAST(${count} AS INTEGER)))`;

function datePartSql(part: string, t: string): string {
  const subsecond = `((epoch_ns(${t}) % 1000000000 + 1000000000) % 1000000000)`;
  switch (part) {
    case 'millisecond':
      return `(${subsecond} // 1000000)`;
    case 'microsecond':
      return `(${subsecond} // 1000)`;
    case 'nanosecond':
      return subsecond;
    case 'week_of_year':
      return `CAST(weekofyear(${t}) AS BIGINT)`;
    default:
      return `CAST(${part}(${t}) AS BIGINT)`;
  }
}

function hashSql(x: string, salt?: string): string {
  const h = salt ? `hash(${x}, ${salt})` : `hash(${x})`;
  // DuckDB's hash is unsigned; Kusto's is a signed 64-bit integer with the same bits.
  return `CAST(CAST(${h} AS HUGEINT) - CASE WHEN ${h} >= 9223372036854775808 THEN CAST(18446744073709551616 AS HUGEINT) ELSE 0 END AS BIGINT)`;
}

const URL_PATTERN = `^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://(?:([^:@/]*)(?::([^@/]*))?@)?([^:/?#]*)(?::(\\d+))?)?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$`;

function queryParametersSql(q: string): string {
  return `to_json(map_from_entries(list_transform(list_filter(string_split(coalesce(${q}, ''), '&'), lambda kv: kv <> ''), lambda kv: {'k': url_decode(split_part(kv, '=', 1)), 'v': url_decode(split_part(kv, '=', 2))})))`;
}

function formatBytesSql(x: string, precision: number, units: string | undefined): string {
  const names = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const fmt = (k: number) => `printf('%.${precision}f ${names[k]}', ${x} / ${1024 ** k}.0)`;
  if (units) return fmt(Math.max(0, ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'].indexOf(units)));
  const cases = names.slice(0, -1).map((_, k) => `WHEN abs(${x}) < ${1024 ** (k + 1)}.0 THEN ${fmt(k)}`);
  return `CASE WHEN ${x} IS NULL THEN NULL ${cases.join(' ')} ELSE ${fmt(names.length - 1)} END`;
}

const RULES: Record<string, Rule> = {
  // ---- logic and comparison ----
  and: (_w, _e, a) => `(${a(0)} AND ${a(1)})`,
  or: (_w, _e, a) => `(${a(0)} OR ${a(1)})`,
  not: (_w, _e, a) => `(NOT ${a(0)})`,
  eq: comparison('='),
  ne: comparison('<>'),
  lt: comparison('<'),
  le: comparison('<='),
  gt: comparison('>'),
  ge: comparison('>='),
  eq_ci: (w, e, a) => {
    const right = literalString(e.args[1]!);
    const positive = right !== undefined ? `(lower(${a(0)}) = ${w.text(right.toLowerCase())})` : `(lower(${a(0)}) = lower(${a(1)}))`;
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
      return text !== undefined ? w.text(text.toLowerCase()) : `lower(${a(i + 1)})`;
    });
    const subject = ci ? `lower(${a(0)})` : a(0);
    if (items.length === 0) return e.options?.negated ? 'TRUE' : 'FALSE';
    const positive = `(${subject} IN (${items.join(', ')}))`;
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
  regex_match: (w, e, a) => negatable(e, a(0), `regexp_matches(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))})`),

  // ---- arithmetic ----
  add: (_w, e, a) => arithmetic(e, a, '+'),
  sub: (_w, e, a) => arithmetic(e, a, '-'),
  mul: (_w, e, a) => {
    if (e.type === 'timespan' && e.args[1]!.type === 'real') return `TRY_CAST(trunc(${a(0)} * ${a(1)}) AS BIGINT)`;
    return `(${a(0)} * ${a(1)})`;
  },
  div: (_w, e, a) => {
    if (e.type === 'int') return `(${a(0)} // ${a(1)})`;
    if (e.type === 'timespan') return `TRY_CAST(trunc(${a(0)} / ${a(1)}) AS BIGINT)`;
    return `(CAST(${a(0)} AS DOUBLE) / ${a(1)})`;
  },
  mod: (_w, e, a) => (e.type === 'real' ? `fmod(${a(0)}, ${a(1)})` : `(${a(0)} % ${a(1)})`),
  neg: (_w, _e, a) => `(-${a(0)})`,

  // ---- conversions ----
  cast: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, false),
  convert: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, true),

  // ---- strings ----
  strlen: (_w, _e, a) => `CAST(length(${a(0)}) AS BIGINT)`,
  tolower: (_w, _e, a) => `lower(${a(0)})`,
  toupper: (_w, _e, a) => `upper(${a(0)})`,
  reverse: (_w, _e, a) => `reverse(${a(0)})`,
  trim_space: (_w, _e, a) => `regexp_replace(${a(0)}, '^\\s+|\\s+$', '', 'g')`,
  url_encode: (_w, _e, a) => `url_encode(${a(0)})`,
  url_decode: (_w, _e, a) => `url_decode(${a(0)})`,
  base64_encode: (_w, _e, a) => `to_base64(encode(${a(0)}))`,
  base64_decode: (_w, _e, a) => `decode(from_base64(${a(0)}))`,
  substring: (_w, e, a) =>
    e.args.length > 2 ? `substring(${a(0)}, greatest(${a(1)}, 0) + 1, greatest(${a(2)}, 0))` : `substring(${a(0)}, greatest(${a(1)}, 0) + 1)`,
  strcat: (_w, e, a) => `concat(${e.args.map((_, i) => a(i)).join(', ')})`,
  strcat_delim: (_w, e, a) => `concat_ws(${a(0)}, ${e.args.slice(1).map((_, i) => `coalesce(${a(i + 1)}, '')`).join(', ')})`,
  strcmp: (_w, _e, a) => `CASE WHEN ${a(0)} < ${a(1)} THEN -1 WHEN ${a(0)} > ${a(1)} THEN 1 WHEN ${a(0)} = ${a(1)} THEN 0 END`,
  split: (_w, e, a) =>
    e.args.length > 2
      ? `to_json(list_slice(string_split(${a(0)}, ${a(1)}), ${a(2)} + 1, ${a(2)} + 1))`
      : `to_json(string_split(${a(0)}, ${a(1)}))`,
  replace_string: (_w, _e, a) => `replace(${a(0)}, ${a(1)}, ${a(2)})`,
  replace_regex: (w, e, a) => `regexp_replace(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))}, ${a(2)}, 'g')`,
  extract: (w, e, a) => {
    const regex = regexArg(w, e.args[1]!, () => a(1));
    return `CASE WHEN regexp_matches(${a(0)}, ${regex}) THEN regexp_extract(${a(0)}, ${regex}, ${Number(e.options?.group ?? 0)}) END`;
  },
  extract_all: (w, e, a) => {
    const text = literalString(e.args[1]!);
    const regex = regexArg(w, e.args[1]!, () => a(1));
    const groups = text === undefined ? 1 : captureGroups(text);
    if (groups <= 1) return `to_json(regexp_extract_all(${a(0)}, ${regex}, ${groups}))`;
    const parts = Array.from({ length: groups }, (_, i) => `regexp_extract(m, ${regex}, ${i + 1})`);
    return `to_json(list_transform(regexp_extract_all(${a(0)}, ${regex}, 0), lambda m: [${parts.join(', ')}]))`;
  },
  indexof: (_w, _e, a) => {
    const rest = `substring(${a(0)}, ${a(2)} + 1)`;
    return `CASE WHEN ${a(0)} IS NULL OR ${a(1)} IS NULL THEN NULL WHEN ${a(2)} < 0 OR ${a(2)} > length(${a(0)}) THEN -1 WHEN strpos(${rest}, ${a(1)}) = 0 THEN -1 ELSE CAST(strpos(${rest}, ${a(1)}) - 1 + ${a(2)} AS BIGINT) END`;
  },
  trim_regex: (w, e, a) => {
    const text = literalString(e.args[1]!);
    const side = e.options?.side;
    const leading = text !== undefined ? w.constant(`^(?:${text})+`) : `concat('^(?:', ${a(1)}, ')+')`;
    const trailing = text !== undefined ? w.constant(`(?:${text})+$`) : `concat('(?:', ${a(1)}, ')+$')`;
    let sql = a(0);
    if (side !== 'end') sql = `regexp_replace(${sql}, ${leading}, '')`;
    if (side !== 'start') sql = `regexp_replace(${sql}, ${trailing}, '')`;
    return sql;
  },
  strrep: (w, _e, a) =>
    `CASE WHEN ${a(1)} <= 0 THEN '' ${w.lengthGuard(`CAST(strlen(concat(${a(0)}, ${a(2)})) AS DOUBLE) * ${a(1)}`)} ELSE concat(repeat(concat(${a(0)}, ${a(2)}), CAST(${a(1)} - 1 AS BIGINT)), ${a(0)}) END`,
  countof: (w, e, a) =>
    e.options?.regex
      ? `CAST(len(regexp_extract_all(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))}, 0)) AS BIGINT)`
      : `CASE WHEN length(${a(1)}) = 0 THEN 0 ELSE CAST((length(${a(0)}) - length(replace(${a(0)}, ${a(1)}, ''))) // length(${a(1)}) AS BIGINT) END`,
  parse_url: (w, _e, a) => {
    const names = ['scheme', 'user', 'password', 'host', 'port', 'path', 'query', 'fragment'];
    const struct = `regexp_extract(${a(0)}, ${w.constant(URL_PATTERN)}, [${names.map((n) => `'${n}'`).join(', ')}])`;
    const object = `json_object('Scheme', u.scheme, 'Host', u.host, 'Port', u.port, 'Path', u.path, 'Username', u.user, 'Password', u.password, 'Query Parameters', CAST(${queryParametersSql('u.query')} AS JSON), 'Fragment', u.fragment)`;
    return `CASE WHEN ${a(0)} IS NOT NULL THEN list_transform([${struct}], lambda u: ${object})[1] END`;
  },
  parse_urlquery: (_w, _e, a) => `json_object('Query Parameters', CAST(${queryParametersSql(`ltrim(${a(0)}, '?')`)} AS JSON))`,
  format_bytes: (_w, e, a) => formatBytesSql(a(0), Number(e.options?.precision ?? 0), e.options?.units as string | undefined),
  format_datetime: (_w, e, a) => formatDateTimeSql(a(0), String(e.options?.format)),
  format_timespan: (_w, e, a) => formatTimespanSql(a(0), String(e.options?.format)),
  format_url: (_w, _e, a) => {
    const get = (key: string) => `json_extract_string(${a(0)}, '$.${key}')`;
    return `concat(coalesce(${get('scheme')} || '://', ''), CASE WHEN ${get('user')} IS NOT NULL THEN ${get('user')} || coalesce(':' || ${get('password')}, '') || '@' ELSE '' END, coalesce(${get('host')}, ''), coalesce(':' || ${get('port')}, ''), coalesce(${get('path')}, ''), coalesce('#' || ${get('fragment')}, ''))`;
  },
  gettype_dynamic: (_w, _e, a) =>
    `CASE json_type(${a(0)}) WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'long' WHEN 'UBIGINT' THEN 'long' WHEN 'DOUBLE' THEN 'real' WHEN 'BOOLEAN' THEN 'bool' WHEN 'ARRAY' THEN 'array' WHEN 'OBJECT' THEN 'dictionary' WHEN 'NULL' THEN 'null' ELSE 'null' END`,

  // ---- null and emptiness ----
  isnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NULL OR json_type(${a(0)}) = 'NULL')` : `(${a(0)} IS NULL)`),
  isnotnull: (_w, e, a) => (e.args[0]!.type === 'dynamic' ? `(${a(0)} IS NOT NULL AND json_type(${a(0)}) <> 'NULL')` : `(${a(0)} IS NOT NULL)`),
  isempty: (_w, e, a) => emptiness(e.args[0]!.type, a(0)),
  isnotempty: (_w, e, a) => `(NOT ${emptiness(e.args[0]!.type, a(0))})`,

  // ---- conditionals ----
  iff: (_w, _e, a) => `CASE WHEN ${a(0)} THEN ${a(1)} ELSE ${a(2)} END`,
  case: (_w, e, a) => {
    const parts: string[] = [];
    for (let i = 0; i + 1 < e.args.length; i += 2) parts.push(`WHEN ${a(i)} THEN ${a(i + 1)}`);
    return `CASE ${parts.join(' ')} ELSE ${a(e.args.length - 1)} END`;
  },
  coalesce: (_w, e, a) => {
    const values = e.args.map((_, i) => (e.type === 'string' && i < e.args.length - 1 ? `NULLIF(${a(i)}, '')` : a(i)));
    return `coalesce(${values.join(', ')})`;
  },
  min_of: (_w, e, a) => `least(${e.args.map((_, i) => a(i)).join(', ')})`,
  max_of: (_w, e, a) => `greatest(${e.args.map((_, i) => a(i)).join(', ')})`,

  // ---- math ----
  abs: (_w, _e, a) => `abs(${a(0)})`,
  floor: (_w, e, a) => (e.type === 'int' ? a(0) : `floor(${a(0)})`),
  ceiling: (_w, e, a) => (e.type === 'int' ? a(0) : `ceil(${a(0)})`),
  sign: (_w, _e, a) => `sign(${a(0)})`,
  round: (_w, _e, a) => `round(${a(0)}, CAST(${a(1)} AS INTEGER))`,
  log: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN ln(${a(0)}) WHEN ${a(0)} = 0 THEN CAST('-inf' AS DOUBLE) END`,
  log10: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN log10(${a(0)}) WHEN ${a(0)} = 0 THEN CAST('-inf' AS DOUBLE) END`,
  log2: (_w, _e, a) => `CASE WHEN ${a(0)} > 0 THEN log2(${a(0)}) WHEN ${a(0)} = 0 THEN CAST('-inf' AS DOUBLE) END`,
  sqrt: (_w, _e, a) => `CASE WHEN ${a(0)} >= 0 THEN sqrt(${a(0)}) END`,
  exp: (_w, _e, a) => `exp(${a(0)})`,
  exp2: (_w, _e, a) => `pow(2, ${a(0)})`,
  exp10: (_w, _e, a) => `pow(10, ${a(0)})`,
  pow: (_w, _e, a) => `pow(${a(0)}, ${a(1)})`,
  isnan: (_w, _e, a) => `isnan(${a(0)})`,
  isinf: (_w, _e, a) => `isinf(${a(0)})`,
  isfinite: (_w, _e, a) => `isfinite(${a(0)})`,
  bin_datetime: (_w, e, a) => {
    const span = e.args[1]!;
    const size = span.kind === 'literal' && span.value.type === 'timespan' ? span.value.nanos.toString() : `(${a(1)})`;
    const ns = `epoch_ns(${a(0)})`;
    return `make_timestamp_ns(${ns} - ((${ns} % ${size}) + ${size}) % ${size})`;
  },
  bin_number: (_w, e, a) => {
    if (e.type === 'real') return `(floor(${a(0)} / ${a(1)}) * ${a(1)})`;
    return `(${a(0)} - ((${a(0)} % ${a(1)}) + ${a(1)}) % ${a(1)})`;
  },

  // ---- datetime ----
  period_boundary: (_w, e, a) => {
    const unit = String(e.options?.unit);
    const start = periodStart(unit, a(0));
    const shifted = addUnits(unit, start, a(1));
    if (!e.options?.end) return `CAST(${shifted} AS TIMESTAMP_NS)`;
    // The last tick (100 ns) of the period, as Kusto's endof* functions return.
    return `make_timestamp_ns(epoch_ns(${addUnits(unit, start, `${a(1)} + 1`)}) - 100)`;
  },
  datetime_part: (_w, e, a) => datePartSql(String(e.options?.part), a(0)),
  datetime_add: (_w, e, a) => {
    const part = String(e.options?.part);
    const months = MONTHS[part];
    if (months !== undefined) {
      return `make_timestamp_ns(epoch_ns(CAST(${a(1)} AS TIMESTAMP) + to_months(CAST(${a(0)} * ${months} AS INTEGER))) + epoch_ns(${a(1)}) % 1000)`;
    }
    return `make_timestamp_ns(epoch_ns(${a(1)}) + ${a(0)} * ${NANOS[part]!.toString()})`;
  },
  datetime_diff: (_w, e, a) => {
    const part = String(e.options?.part);
    if (MONTHS[part] !== undefined) return `date_diff('${part}', CAST(${a(1)} AS TIMESTAMP), CAST(${a(0)} AS TIMESTAMP))`;
    if (part === 'week') {
      // Weeks start on Sunday; 1970-01-01 was a Thursday.
      const shift = (t: string) => `(epoch_ns(${t}) + ${4n * NANOS.day!})`;
      return `(${floorDiv(shift(a(0)), NANOS.week!)} - ${floorDiv(shift(a(1)), NANOS.week!)})`;
    }
    const unit = NANOS[part]!;
    return `(${floorDiv(`epoch_ns(${a(0)})`, unit)} - ${floorDiv(`epoch_ns(${a(1)})`, unit)})`;
  },
  unixtime_todatetime: (_w, e, a) => {
    const factor = String(e.options?.nanosPerUnit);
    if (e.args[0]!.type === 'int') return `make_timestamp_ns(${a(0)} * ${factor})`;
    return `make_timestamp_ns(TRY_CAST(round(${a(0)} * ${factor}) AS BIGINT))`;
  },

  // ---- dynamic ----
  dyn_get: (w, e, a) => {
    const path = (e.options?.path as (string | number)[]).map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1'));
    return `json_extract(${a(0)}, ${w.constant('/' + path.join('/'))})`;
  },
  dyn_index: (_w, e, a) => {
    if (e.args[1]!.type === 'string') return `json_extract(${a(0)}, concat('/', replace(replace(${a(1)}, '~', '~0'), '/', '~1')))`;
    return `json_extract(${a(0)}, concat('$[', CAST(${a(1)} AS VARCHAR), ']'))`;
  },
  array_length: (_w, _e, a) => `CASE WHEN json_type(${a(0)}) = 'ARRAY' THEN CAST(json_array_length(${a(0)}) AS BIGINT) END`,
  pack_array: (_w, e, a) => `json_array(${e.args.map((_, i) => a(i)).join(', ')})`,
  bag_pack: (w, e, a) => {
    const keys = e.options?.keys as string[];
    return `json_object(${keys.map((key, i) => `${w.constant(key)}, ${a(i)}`).join(', ')})`;
  },
  struct_field: (w, e, a) => `struct_extract(${a(0)}, ${w.constant(String(e.options?.field))})`,
  parse_group: (w, e, a) => {
    const regex = w.constant(String(e.options?.regex));
    return `CASE WHEN regexp_matches(${a(0)}, ${regex}) THEN regexp_extract(${a(0)}, ${regex}, ${Number(e.options?.group)}) END`;
  },

  // ---- hashes ----
  hash: (_w, e, a) => hashSql(a(0), e.args.length > 1 ? a(1) : undefined),
  hash_digest: (_w, e, a) => {
    const algorithm = String(e.options?.algorithm);
    return algorithm === 'sha512' ? `apl_sha512(${a(0)})` : `${algorithm}(${a(0)})`;
  },
};

function arithmetic(e: CallExpr, a: (i: number) => string, op: '+' | '-'): string {
  const [l, r] = e.args as [TExpr, TExpr];
  if (e.type === 'datetime') return `make_timestamp_ns(epoch_ns(${a(0)}) ${op} ${a(1)})`;
  if (l.type === 'datetime' && r.type === 'datetime') return `(epoch_ns(${a(0)}) - epoch_ns(${a(1)}))`;
  return `(${a(0)} ${op} ${a(1)})`;
}

function anyOrAll(w: ExprWriter, e: CallExpr, a: (i: number) => string, joiner: string): string {
  const cs = Boolean(e.options?.caseSensitive);
  const rule = termOperator('has', cs);
  const terms = e.args.slice(1);
  if (terms.length === 0) return joiner === ' OR ' ? 'FALSE' : 'TRUE';
  const parts = terms.map((term, i) => rule(w, { kind: 'call', fn: 'has', args: [e.args[0]!, term], type: 'bool' }, (j) => (j === 0 ? a(0) : a(i + 1))));
  return `(${parts.join(joiner)})`;
}

function emptiness(type: AplType, x: string): string {
  if (type === 'string') return `(${x} IS NULL OR ${x} = '')`;
  if (type === 'dynamic') return `(${x} IS NULL OR json_type(${x}) = 'NULL' OR CAST(${x} AS VARCHAR) IN ('""', '[]', '{}'))`;
  return `(${x} IS NULL)`;
}

/** How many capture groups a regex has (for extract_all's result shape). */
function captureGroups(regex: string): number {
  let count = 0;
  for (let i = 0; i < regex.length; i++) {
    if (regex[i] === '\\') {
      i++;
      continue;
    }
    if (regex[i] === '(' && (regex[i + 1] !== '?' || regex[i + 2] === 'P' || regex[i + 2] === '<')) count++;
  }
  return count;
}

export function callSql(w: ExprWriter, e: CallExpr): string {
  const rule = RULES[e.fn];
  if (!rule) throw new Error(`the DuckDB dialect has no rule for ${e.fn}`);
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
