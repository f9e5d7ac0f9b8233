// String functions: slicing, concatenation, search and replace, regexes, trims, URLs and
// paths, CSV, base64, byte sizes, quoting and code points. Text that cannot be decoded
// (base64, URL escapes) gives null for its row instead of failing the query.
import { captureGroups, overlapsItself, rewriteOf } from '../../regex';
import { literalString } from '../values';
import { regexArg, type RuleTable } from './rule';

const URL_PATTERN = `^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://(?:([^:@/]*)(?::([^@/]*))?@)?([^:/?#]*)(?::(\\d+))?)?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$`;

/** A query string as a property bag of decoded keys and values. */
function queryParametersSql(q: string): string {
  const pairs = `list_filter(string_split(coalesce(${q}, ''), '&'), lambda kv: kv <> '')`;
  const decode = (part: string) => `coalesce(try(url_decode(replace(${part}, '+', ' '))), ${part})`;
  return `CAST(to_json(map_from_entries(list_transform(${pairs}, lambda kv: {'k': ${decode(`split_part(kv, '=', 1)`)}, 'v': ${decode(`split_part(kv, '=', 2)`)}}))) AS JSON)`;
}

const BYTE_PREFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'];

/** The multiplier and printed name of a byte unit in a base. */
function byteUnit(unit: string, base: number): { factor: string; name: string } {
  const upper = unit.toUpperCase();
  if (upper === '' || upper === 'B' || upper === 'BYTES') return { factor: '1.0', name: 'Bytes' };
  const power = BYTE_PREFIXES.indexOf(upper[0]!);
  const binary = upper.endsWith('IB');
  const step = binary ? 1024 : base === 2 ? 1024 : 1000;
  const name = binary ? `${upper[0]}iB` : base === 10 && upper[0] === 'K' ? 'kB' : `${upper[0]}B`;
  return { factor: `${step}.0 ^ ${power}`, name };
}

function formatBytesSql(x: string, precision: number, units: string, base: number): string {
  const fmt = (unit: string) => {
    const { factor, name } = byteUnit(unit, base);
    return `printf('%.${precision}f ${name}', ${x} / (${factor}))`;
  };
  if (units) return fmt(units);
  const step = base === 2 ? 1024 : 1000;
  const cases = BYTE_PREFIXES.slice(0, -1).map((prefix, k) => `WHEN abs(${x}) < ${step}.0 ^ ${k + 1} THEN ${fmt(prefix ? `${prefix}B` : 'B')}`);
  return `CASE WHEN ${x} IS NULL THEN NULL ${cases.join(' ')} ELSE ${fmt('YB')} END`;
}

function parseBytesSql(s: string, base: number): string {
  const match = `regexp_extract(${s}, '^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*$', ['n', 'u'])`;
  const whens = BYTE_PREFIXES.slice(1).flatMap((prefix, i) => [
    `WHEN '${prefix}' THEN ${base === 2 ? 1024 : 1000}.0 ^ ${i + 1}`,
    `WHEN '${prefix}B' THEN ${base === 2 ? 1024 : 1000}.0 ^ ${i + 1}`,
    `WHEN '${prefix}IB' THEN 1024.0 ^ ${i + 1}`,
  ]);
  const factor = `CASE upper(m.u) WHEN '' THEN 1.0 WHEN 'B' THEN 1.0 WHEN 'BYTES' THEN 1.0 ${whens.join(' ')} END`;
  const value = `list_transform([${match}], lambda m: TRY_CAST(round(TRY_CAST(m.n AS DOUBLE) * ${factor}) AS BIGINT))[1]`;
  // Text that is not a size parses as 0, as Axiom documents.
  return `CASE WHEN ${s} IS NULL THEN NULL ELSE coalesce(${value}, 0) END`;
}

/** The ends of a path: scheme, root, directory, file name and extension (Kusto's parse_path). */
function parsePathSql(p: string): string {
  const scheme = `coalesce(regexp_extract(${p}, '^([A-Za-z][A-Za-z0-9+.-]*)://', 1), '')`;
  const rest = `CASE WHEN ${scheme} = '' THEN ${p} ELSE substring(${p}, length(${scheme}) + 4) END`;
  const parts = `regexp_extract(x.rest, '^(.*?)([^/\\\\]*)$', ['dir', 'file'])`;
  const object = `json_object('Scheme', x.scheme,
    'RootPath', CASE WHEN x.scheme <> '' THEN regexp_extract(x.rest, '^([^/\\\\]*)', 1) ELSE coalesce(regexp_extract(x.rest, '^([A-Za-z]:)', 1), '') END,
    'DirectoryPath', regexp_replace(y.dir, '[/\\\\]$', ''),
    'DirectoryName', regexp_extract(regexp_replace(y.dir, '[/\\\\]$', ''), '([^/\\\\]*)$', 1),
    'Filename', regexp_replace(y.file, ':[^:]*$', ''),
    'Extension', coalesce(regexp_extract(regexp_replace(y.file, ':[^:]*$', ''), '\\.([^.]*)$', 1), ''),
    'AlternateDataStreamName', coalesce(regexp_extract(y.file, '^[^:]+:([^:]*)$', 1), ''))`;
  return `CASE WHEN ${p} IS NOT NULL THEN list_transform([{'scheme': ${scheme}, 'rest': ${rest}}], lambda x: list_transform([${parts}], lambda y: ${object})[1])[1] END`;
}

function parseCsvSql(s: string): string {
  const fields = `regexp_extract_all(${s} || ',', '("(?:[^"]|"")*"|[^,"]*),', 1)`;
  const unquote = `CASE WHEN starts_with(f, '"') THEN replace(substring(f, 2, length(f) - 2), '""', '"') ELSE f END`;
  return `to_json(list_transform(${fields}, lambda f: ${unquote}))`;
}

export const STRING_RULES: RuleTable = {
  string_size: (_w, _e, a) => `CAST(octet_length(encode(${a(0)})) AS BIGINT)`,
  totitle: (_w, _e, a) => `concat(upper(left(${a(0)}, 1)), substring(${a(0)}, 2))`,
  trim_space: (_w, _e, a) => `regexp_replace(${a(0)}, '^\\s+|\\s+$', '', 'g')`,
  url_encode: (_w, _e, a) => `url_encode(${a(0)})`,
  url_decode: (_w, _e, a) => `try(url_decode(${a(0)}))`,
  base64_encode: (_w, _e, a) => `to_base64(encode(${a(0)}))`,
  // Text that is not base64, or not UTF-8 once decoded, gives null for its row.
  base64_decode: (_w, _e, a) => `try(decode(from_base64(${a(0)})))`,
  base64_decode_bytes: (_w, _e, a) =>
    `CASE WHEN ${a(0)} IS NOT NULL THEN coalesce(to_json(list_transform([hex(try(from_base64(${a(0)})))], lambda h: list_transform(range(0, length(h), 2), lambda i: CAST(('0x' || substring(h, i + 1, 2)) AS INTEGER)))[1]), CAST('[]' AS JSON)) END`,
  base64_encode_bytes: (_w, _e, a) => {
    const bytes = `TRY_CAST(${a(0)} AS BIGINT[])`;
    const valid = `json_type(${a(0)}) = 'ARRAY' AND len(list_filter(${bytes}, lambda b: b IS NULL OR b < 0 OR b > 255)) = 0`;
    return `CASE WHEN ${a(0)} IS NULL THEN NULL WHEN ${valid} THEN to_base64(unhex(array_to_string(list_transform(${bytes}, lambda b: lpad(hex(b), 2, '0')), ''))) ELSE '' END`;
  },
  quote: (_w, _e, a) =>
    `CASE WHEN ${a(0)} IS NOT NULL THEN concat('"', replace(replace(replace(replace(replace(${a(0)}, '\\', '\\\\'), '"', '\\"'), chr(10), '\\n'), chr(13), '\\r'), chr(9), '\\t'), '"') END`,
  regex_quote: (_w, _e, a) => `regexp_replace(${a(0)}, '([\\\\^$.|?*+()\\[\\]{}-])', '\\\\\\1', 'g')`,
  strip_ansi_escapes: (_w, _e, a) => `regexp_replace(${a(0)}, '\\x1b(?:\\[[0-9;?]*[ -/]*[@-~]|\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)|[@-Z\\\\-_])', '', 'g')`,
  codepoints_from_string: (_w, _e, a) => `to_json(list_transform(regexp_extract_all(${a(0)}, '(?s).', 0), lambda c: unicode(c)))`,
  codepoints_to_string: (_w, _e, a) => {
    const points = `TRY_CAST(${a(0)} AS BIGINT[])`;
    const valid = `json_type(${a(0)}) = 'ARRAY' AND len(list_filter(${points}, lambda p: p IS NULL OR p < 0 OR p > 1114111 OR (p >= 55296 AND p <= 57343))) = 0`;
    return `CASE WHEN ${valid} THEN array_to_string(list_transform(${points}, lambda p: chr(CAST(p AS INTEGER))), '') END`;
  },
  strcat: (_w, e, a) => `concat(${e.args.map((_, i) => a(i)).join(', ')})`,
  strcat_delim: (_w, e, a) => `concat_ws(${a(0)}, ${e.args.slice(1).map((_, i) => `coalesce(${a(i + 1)}, '')`).join(', ')})`,
  split: (_w, e, a) =>
    e.args.length > 2
      ? `to_json(list_slice(string_split(${a(0)}, ${a(1)}), ${a(2)} + 1, ${a(2)} + 1))`
      : `to_json(string_split(${a(0)}, ${a(1)}))`,
  replace_regex: (w, e, a) => {
    const rewrite = literalString(e.args[2]!);
    const regex = regexArg(w, e.args[1]!, () => a(1));
    if (rewrite !== undefined && literalString(e.args[1]!) !== undefined) return `regexp_replace(${a(0)}, ${regex}, ${w.constant(rewriteOf(rewrite))}, 'g')`;
    // A pattern or rewrite computed per row: one that does not compile gives null for its row.
    const computed = rewrite !== undefined ? w.constant(rewriteOf(rewrite)) : `regexp_replace(regexp_replace(${a(2)}, '\\\\([^0-9\\\\]|$)', '\\\\\\\\\\1', 'g'), '\\$([0-9])', '\\\\\\1', 'g')`;
    return `try(regexp_replace(${a(0)}, ${regex}, ${computed}, 'g'))`;
  },
  translate: (_w, _e, a) =>
    // A replacement list shorter than the search list repeats its last character.
    `CASE WHEN ${a(2)} = '' THEN translate(${a(0)}, ${a(1)}, '') ELSE translate(${a(0)}, ${a(1)}, rpad(${a(2)}, CAST(greatest(length(${a(1)}), length(${a(2)})) AS INTEGER), right(${a(2)}, 1))) END`,
  extract: (w, e, a) => {
    const regex = regexArg(w, e.args[1]!, () => a(1));
    const sql = `CASE WHEN regexp_matches(${a(0)}, ${regex}) THEN regexp_extract(${a(0)}, ${regex}, ${Number(e.options?.group ?? 0)}) END`;
    // A pattern computed per row that does not compile gives null for that row.
    return literalString(e.args[1]!) !== undefined ? sql : `try(${sql})`;
  },
  extract_all: (w, e, a) => {
    const text = literalString(e.args[1]!);
    const regex = regexArg(w, e.args[1]!, () => a(1));
    const asked = e.options?.groups as number[] | undefined;
    if (text === undefined && !asked) return `to_json(coalesce(try(regexp_extract_all(${a(0)}, ${regex}, 1)), try(regexp_extract_all(${a(0)}, ${regex}, 0))))`;
    const groups = asked ?? (captureGroups(text!) === 0 ? [0] : Array.from({ length: captureGroups(text!) }, (_, i) => i + 1));
    if (groups.length === 1) return `to_json(${text === undefined ? 'try(' : ''}regexp_extract_all(${a(0)}, ${regex}, ${groups[0]})${text === undefined ? ')' : ''})`;
    const parts = groups.map((g) => `regexp_extract(m, ${regex}, ${g})`);
    return `to_json(list_transform(regexp_extract_all(${a(0)}, ${regex}, 0), lambda m: [${parts.join(', ')}]))`;
  },
  indexof: (_w, e, a) => {
    const [start, length, occurrence] = [e.args[2]!, e.args[3]!, e.args[4]!].map((x) => (x.kind === 'literal' && x.value.type === 'int' ? Number(x.value.value) : undefined));
    const from = `(CASE WHEN ${a(2)} < 0 THEN greatest(length(${a(0)}) + ${a(2)}, 0) ELSE ${a(2)} END)`;
    if (start === 0 && length === -1 && occurrence === 1) {
      return `CASE WHEN ${a(0)} IS NULL OR ${a(1)} IS NULL THEN NULL ELSE CAST(strpos(${a(0)}, ${a(1)}) - 1 AS BIGINT) END`;
    }
    const window = `substring(${a(0)}, ${from} + 1, CASE WHEN ${a(3)} = -1 THEN length(${a(0)}) ELSE ${a(3)} END)`;
    const hits = `list_filter(range(0, greatest(length(${window}) - length(${a(1)}) + 1, 0)), lambda i: substring(${window}, i + 1, length(${a(1)})) = ${a(1)})`;
    return `CASE WHEN ${a(0)} IS NULL OR ${a(1)} IS NULL OR ${a(3)} < -1 OR ${a(4)} < 1 THEN NULL WHEN ${from} > length(${a(0)}) THEN -1 ELSE CAST(coalesce(${from} + ${hits}[${a(4)}], -1) AS BIGINT) END`;
  },
  indexof_regex: (w, e, a) => {
    const pattern = literalString(e.args[1]!);
    const window = `substring(${a(0)}, ${a(2)} + 1, CASE WHEN ${a(3)} = -1 THEN length(${a(0)}) ELSE ${a(3)} END)`;
    const occurrence = e.args[4]!;
    const n = occurrence.kind === 'literal' && occurrence.value.type === 'int' ? Number(occurrence.value.value) : undefined;
    // The text before the n-th match: n - 1 matches skipped lazily, then the shortest prefix.
    const prefix = (p: string, count: string) => `concat('(?s)^((?:.*?(?:', ${p}, ')){', ${count}, '}.*?)(?:', ${p}, ')')`;
    const regex = pattern !== undefined && n !== undefined ? w.constant(`(?s)^((?:.*?(?:${pattern})){${Math.max(n - 1, 0)}}.*?)(?:${pattern})`) : prefix(a(1), `CAST(${a(4)} - 1 AS VARCHAR)`);
    const found = `try(CASE WHEN regexp_matches(${window}, ${regex}) THEN ${a(2)} + length(regexp_extract(${window}, ${regex}, 1)) ELSE -1 END)`;
    return `CASE WHEN ${a(0)} IS NULL OR ${a(1)} IS NULL OR ${a(2)} < 0 OR ${a(4)} < 1 OR ${a(3)} < -1 THEN NULL ELSE CAST(${found} AS BIGINT) END`;
  },
  trim_chars: (_w, e, a) => {
    const side = e.options?.side;
    const fn = side === 'start' ? 'ltrim' : side === 'end' ? 'rtrim' : 'trim';
    return `CASE WHEN ${a(1)} = '' THEN ${a(0)} ELSE ${fn}(${a(0)}, ${a(1)}) END`;
  },
  // At most 1024 repetitions, as Axiom documents, and no longer than the string limit.
  strrep: (w, _e, a) =>
    `CASE WHEN ${a(1)} <= 0 THEN '' ${w.lengthGuard(`CAST(strlen(concat(${a(0)}, ${a(2)})) AS DOUBLE) * least(${a(1)}, 1024)`)} ELSE concat(repeat(concat(${a(0)}, ${a(2)}), CAST(least(${a(1)}, 1024) - 1 AS BIGINT)), ${a(0)}) END`,
  countof: (_w, e, a) => {
    const term = literalString(e.args[1]!);
    // A term that cannot overlap itself ('/', 'error') is counted by what removing it removes.
    if (term !== undefined && term !== '' && !overlapsItself(term)) {
      return `CAST((length(${a(0)}) - length(replace(${a(0)}, ${a(1)}, ''))) // ${[...term].length} AS BIGINT)`;
    }
    // Overlapping occurrences count, as in Kusto: countof('aa', 'aaaa') is 3.
    return `CASE WHEN ${a(0)} IS NULL OR ${a(1)} IS NULL THEN NULL WHEN length(${a(1)}) = 0 THEN 0 ELSE CAST(len(list_filter(range(0, greatest(length(${a(0)}) - length(${a(1)}) + 1, 0)), lambda i: substring(${a(0)}, i + 1, length(${a(1)})) = ${a(1)})) AS BIGINT) END`;
  },
  countof_regex: (w, e, a) => {
    const sql = `CAST(len(regexp_extract_all(${a(0)}, ${regexArg(w, e.args[1]!, () => a(1))}, 0)) AS BIGINT)`;
    return literalString(e.args[1]!) !== undefined ? sql : `try(${sql})`;
  },
  parse_url: (w, _e, a) => {
    const names = ['scheme', 'user', 'password', 'host', 'port', 'path', 'query', 'fragment'];
    const struct = `regexp_extract(${a(0)}, ${w.constant(URL_PATTERN)}, [${names.map((n) => `'${n}'`).join(', ')}])`;
    const object = `json_object('scheme', u.scheme, 'host', u.host, 'port', u.port, 'path', u.path, 'username', u.user, 'password', u.password, 'query', u.query, 'fragment', u.fragment)`;
    return `CASE WHEN ${a(0)} IS NOT NULL THEN list_transform([${struct}], lambda u: ${object})[1] END`;
  },
  parse_urlquery: (_w, _e, a) => `CASE WHEN ${a(0)} IS NOT NULL THEN ${queryParametersSql(`regexp_replace(${a(0)}, '^[^?]*\\?', '')`)} END`,
  parse_path: (_w, _e, a) => parsePathSql(a(0)),
  parse_csv: (_w, _e, a) => `CASE WHEN ${a(0)} IS NOT NULL THEN ${parseCsvSql(a(0))} END`,
  format_bytes: (_w, e, a) => formatBytesSql(a(0), Number(e.options?.precision ?? 0), String(e.options?.units ?? ''), Number(e.options?.base ?? 2)),
  parse_bytes: (_w, e, a) => parseBytesSql(a(0), Number(e.options?.base ?? 2)),
  format_url: (_w, _e, a) => {
    const get = (key: string) => `nullif(json_extract_string(${a(0)}, '$.${key}'), '')`;
    const query = `CASE json_type(${a(0)}, '$.query') WHEN 'OBJECT' THEN array_to_string(list_transform(json_keys(${a(0)}, '$.query'), lambda k: url_encode(k) || '=' || url_encode(json_extract_string(${a(0)}, '$.query.' || to_json(k)))), '&') ELSE ${get('query')} END`;
    const user = `coalesce(${get('user')}, ${get('username')})`;
    return `CASE WHEN ${a(0)} IS NULL THEN NULL ELSE concat(coalesce(${get('scheme')} || '://', ''), CASE WHEN ${user} IS NOT NULL THEN ${user} || coalesce(':' || ${get('password')}, '') || '@' ELSE '' END, coalesce(${get('host')}, ''), coalesce(':' || ${get('port')}, ''), coalesce(${get('path')}, ''), coalesce('?' || nullif(${query}, ''), ''), coalesce('#' || ${get('fragment')}, '')) END`;
  },
};
