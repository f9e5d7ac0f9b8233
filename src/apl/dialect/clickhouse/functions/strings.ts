// String functions: slicing, concatenation, search and replace, regexes, trims, URLs and
// paths, CSV, base64, byte sizes, quoting and code points. Text that cannot be decoded
// (base64, code points) gives null for its row instead of failing the query. Constant regexes
// and texts go through `w.constant`, which quotes them for ClickHouse.
import type { ExprWriter } from '../expressions';
import { literalString } from '../values';
import { captureGroups, overlapsItself, rewriteOf } from '../../regex';
import { trimmed } from './conversion';
import { jsonText, jsonType } from './json';
import { bindSql, notNull, regexArg, type RuleTable, whenNotNull } from './rule';

const URL_PATTERN = `^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://(?:([^:@/]*)(?::([^@/]*))?@)?([^:/?#]*)(?::(\\d+))?)?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$`;

/** A query string as a property bag of decoded keys and values (`+` is a space). */
function queryParametersSql(q: string): string {
  const pairs = `arrayFilter(kv -> kv != '', splitByChar('&', ifNull(${q}, '')))`;
  const decode = (part: string) => `toJSONString(decodeURLComponent(replaceAll(${part}, '+', ' ')))`;
  const entries = `arrayMap(kv -> concat(${decode(`splitByChar('=', kv)[1]`)}, ':', ${decode(`arrayElement(splitByChar('=', kv), 2)`)}), ${pairs})`;
  return `concat('{', arrayStringConcat(${entries}, ','), '}')`;
}

const BYTE_PREFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'];

/** The multiplier and printed name of a byte unit in a base. */
function byteUnit(unit: string, base: number): { factor: number; name: string } {
  const upper = unit.toUpperCase();
  if (upper === '' || upper === 'B' || upper === 'BYTES') return { factor: 1, name: 'Bytes' };
  const power = BYTE_PREFIXES.indexOf(upper[0]!);
  const binary = upper.endsWith('IB');
  const step = binary ? 1024 : base === 2 ? 1024 : 1000;
  const name = binary ? `${upper[0]}iB` : base === 10 && upper[0] === 'K' ? 'kB' : `${upper[0]}B`;
  return { factor: step ** Math.max(power, 0), name };
}

function formatBytesSql(x: string, precision: number, units: string, base: number): string {
  const fmt = (unit: string) => {
    const { factor, name } = byteUnit(unit, base);
    return `printf('%.${precision}f ${name}', toFloat64(${x}) / ${factor.toExponential()})`;
  };
  if (units) return fmt(units);
  const step = base === 2 ? 1024 : 1000;
  const cases = BYTE_PREFIXES.slice(0, -1).map((prefix, k) => `abs(${x}) < ${(step ** (k + 1)).toExponential()}, ${fmt(prefix ? `${prefix}B` : 'B')}`);
  return `multiIf(${x} IS NULL, NULL, ${cases.join(', ')}, ${fmt('YB')})`;
}

function parseBytesSql(w: ExprWriter, s: string, base: number): string {
  const step = base === 2 ? 1024 : 1000;
  const units = BYTE_PREFIXES.slice(1).flatMap((prefix, i) => [
    `'${prefix}', ${(step ** (i + 1)).toExponential()}`,
    `'${prefix}B', ${(step ** (i + 1)).toExponential()}`,
    `'${prefix}IB', ${(1024 ** (i + 1)).toExponential()}`,
  ]);
  const factor = `multiIf(upper(m[2]) IN ('', 'B', 'BYTES'), 1.0, ${units.map((pair) => `upper(m[2]) = ${pair}`).join(', ')}, NULL)`;
  const groups = `extractGroups(${notNull(s)}, ${w.constant('^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*$')})`;
  const value = `arrayMap(m -> if(empty(m), NULL, accurateCastOrNull(round(toFloat64(m[1]) * ${factor}), 'Int64')), [${groups}])[1]`;
  // Text that is not a size parses as 0, as Axiom documents.
  return `if(${s} IS NULL, NULL, ifNull(${value}, 0))`;
}

/** The ends of a path: scheme, root, directory, file name and extension (Kusto's parse_path). */
function parsePathSql(w: ExprWriter, p: string): string {
  const scheme = `ifNull(regexpExtract(${p}, ${w.constant('^([A-Za-z][A-Za-z0-9+.-]*)://')}, 1), '')`;
  const rest = `if(sc = '', ${p}, substring(${p}, length(sc) + 4))`;
  const dir = `regexpExtract(x.2, ${w.constant('^(.*?)([^/\\\\]*)$')}, 1)`;
  const file = `regexpExtract(x.2, ${w.constant('^(.*?)([^/\\\\]*)$')}, 2)`;
  const directory = `replaceRegexpOne(y.1, ${w.constant('[/\\\\]$')}, '')`;
  const filename = `replaceRegexpOne(y.2, ${w.constant(':[^:]*$')}, '')`;
  const root = `if(x.1 != '', regexpExtract(x.2, ${w.constant('^([^/\\\\]*)')}, 1), regexpExtract(x.2, ${w.constant('^([A-Za-z]:)')}, 1))`;
  const field = (name: string, value: string) => `${w.constant(`"${name}":`)}, toJSONString(${value})`;
  const object = `concat('{', ${[
    field('Scheme', 'x.1'),
    field('RootPath', root),
    field('DirectoryPath', directory),
    field('DirectoryName', `regexpExtract(${directory}, ${w.constant('([^/\\\\]*)$')}, 1)`),
    field('Filename', filename),
    field('Extension', `regexpExtract(${filename}, ${w.constant('\\.([^.]*)$')}, 1)`),
    field('AlternateDataStreamName', `regexpExtract(y.2, ${w.constant('^[^:]+:([^:]*)$')}, 1)`),
  ].join(", ',', ")}, '}')`;
  const inner = `arrayMap(y -> ${object}, [tuple(${dir}, ${file})])[1]`;
  return `if(${p} IS NULL, NULL, ${bindSql(scheme, 'sc', `arrayMap(x -> ${inner}, [tuple(sc, ${rest})])[1]`)})`;
}

/** The code point of one UTF-8 character (1 to 4 bytes). */
function codePointOf(c: string): string {
  const byte = (i: number) => `toInt64(reinterpretAsUInt8(substring(${c}, ${i}, 1)))`;
  const tail = (i: number) => `bitAnd(${byte(i)}, 63)`;
  return `multiIf(length(${c}) = 1, ${byte(1)}, length(${c}) = 2, bitAnd(${byte(1)}, 31) * 64 + ${tail(2)}, length(${c}) = 3, bitAnd(${byte(1)}, 15) * 4096 + ${tail(2)} * 64 + ${tail(3)}, bitAnd(${byte(1)}, 7) * 262144 + ${tail(2)} * 4096 + ${tail(3)} * 64 + ${tail(4)})`;
}

/** The UTF-8 text of one code point. */
function utf8Of(p: string): string {
  const cont = (shift: number) => `toUInt8(bitOr(128, bitAnd(bitShiftRight(${p}, ${shift}), 63)))`;
  return `multiIf(${p} < 128, char(toUInt8(${p})), ${p} < 2048, char(toUInt8(bitOr(192, bitShiftRight(${p}, 6))), ${cont(0)}), ${p} < 65536, char(toUInt8(bitOr(224, bitShiftRight(${p}, 12))), ${cont(6)}, ${cont(0)}), char(toUInt8(bitOr(240, bitShiftRight(${p}, 18))), ${cont(12)}, ${cont(6)}, ${cont(0)}))`;
}

/**
 * The integers of a JSON array (null elements and non-integers as null), empty when not an array.
 * The text is read without its Nullable wrapper: an array cannot be Nullable in ClickHouse, so a
 * nullable column (a stored array field) would fail the statement.
 */
const jsonIntegers = (x: string) => `JSONExtract(if(${jsonType(x)} = 'Array', ${notNull(x)}, '[]'), 'Array(Nullable(Int64))')`;

/** Occurrences of `t` in `s`, overlapping ones too, as Kusto counts them (bytes: UTF-8 matches align). */
function overlappingCount(s: string, t: string): string {
  return `toInt64(length(arrayFilter(i -> substring(${s}, i + 1, length(${t})) = ${t}, range(0, toUInt64(greatest(toInt64(length(${s})) - toInt64(length(${t})) + 1, 0))))))`;
}

export const STRING_RULES: RuleTable = {
  string_size: (_w, _e, a) => `toInt64(length(${a(0)}))`,
  totitle: (_w, _e, a) => `concat(upperUTF8(substringUTF8(${a(0)}, 1, 1)), substringUTF8(${a(0)}, 2))`,
  trim_space: (_w, _e, a) => trimmed(a(0)),
  url_encode: (_w, _e, a) => `encodeURLComponent(${a(0)})`,
  // Escapes that are incomplete, or decode to bytes that are not UTF-8, give null for the row.
  url_decode: (w, _e, a) =>
    bindSql(`decodeURLComponent(${a(0)})`, 'd', `if(countSubstrings(${a(0)}, '%') = countMatches(${a(0)}, ${w.constant('%[0-9A-Fa-f]{2}')}) AND isValidUTF8(d), d, NULL)`),
  base64_encode: (_w, _e, a) => `base64Encode(${a(0)})`,
  // Text that is not base64, or not UTF-8 once decoded, gives null for its row.
  base64_decode: (_w, _e, a) => bindSql(`tryBase64Decode(${a(0)})`, 'd', `if((d != '' OR ${a(0)} = '') AND isValidUTF8(d), d, NULL)`),
  base64_decode_bytes: (_w, _e, a) =>
    whenNotNull([a(0)], bindSql(`tryBase64Decode(${notNull(a(0))})`, 'd', `toJSONString(arrayMap(i -> toInt64(reinterpretAsUInt8(substring(d, i, 1))), range(1, length(d) + 1)))`)),
  base64_encode_bytes: (_w, _e, a) => {
    const valid = `${jsonType(a(0))} = 'Array' AND arrayAll(b -> b IS NOT NULL AND b >= 0 AND b <= 255, bytes)`;
    const body = `if(${valid}, base64Encode(arrayStringConcat(arrayMap(b -> char(toUInt8(assumeNotNull(b))), bytes))), '')`;
    return `if(${a(0)} IS NULL, NULL, ${bindSql(jsonIntegers(a(0)), 'bytes', body)})`;
  },
  quote: (w, _e, a) => {
    let text = a(0);
    for (const [from, to] of [['\\', '\\\\'], ['"', '\\"'], ['\n', '\\n'], ['\r', '\\r'], ['\t', '\\t']] as const) text = `replaceAll(${text}, ${w.constant(from)}, ${w.constant(to)})`;
    return `concat('"', ${text}, '"')`;
  },
  regex_quote: (_w, _e, a) => `regexpQuoteMeta(${a(0)})`,
  strip_ansi_escapes: (w, _e, a) => `replaceRegexpAll(${a(0)}, ${w.constant('\\x1b(?:\\[[0-9;?]*[ -/]*[@-~]|\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)|[@-Z\\\\-_])')}, '')`,
  codepoints_from_string: (w, _e, a) => whenNotNull([a(0)], `toJSONString(arrayMap(c -> ${codePointOf('c')}, extractAll(${notNull(a(0))}, ${w.constant('(?s).')})))`),
  codepoints_to_string: (_w, _e, a) => {
    const valid = `${jsonType(a(0))} = 'Array' AND arrayAll(p -> p IS NOT NULL AND p >= 0 AND p <= 1114111 AND NOT (p >= 55296 AND p <= 57343), points)`;
    return bindSql(jsonIntegers(a(0)), 'points', `if(${valid}, arrayStringConcat(arrayMap(p -> ${utf8Of('assumeNotNull(p)')}, points)), NULL)`);
  },
  strcat: (_w, e, a) => `concat(${e.args.map((_, i) => `ifNull(${a(i)}, '')`).join(', ')}, '')`,
  strcat_delim: (_w, e, a) => whenNotNull([a(0)], `arrayStringConcat([${e.args.slice(1).map((_, i) => `ifNull(${a(i + 1)}, '')`).join(', ')}], ${notNull(a(0))})`),
  split: (_w, e, a) => {
    const parts = `splitByString(${notNull(a(1))}, ${notNull(a(0))})`;
    const list = e.args.length > 2 ? `arraySlice(${parts}, ${a(2)} + 1, if(${a(2)} + 1 >= 1 AND ${a(2)} < length(${parts}), 1, 0))` : parts;
    return whenNotNull(e.args.map((_, i) => a(i)), `toJSONString(${list})`);
  },
  replace_regex: (w, e, a) => {
    const rewrite = literalString(e.args[2]!);
    const regex = regexArg(w, e.args[1]!, () => a(1));
    const computed =
      rewrite !== undefined
        ? w.constant(rewriteOf(rewrite))
        : `replaceRegexpAll(replaceRegexpAll(${a(2)}, ${w.constant('\\\\([^0-9\\\\]|$)')}, ${w.constant('\\\\\\\\\\1')}), ${w.constant('\\$([0-9])')}, ${w.constant('\\\\\\1')})`;
    return `replaceRegexpAll(${a(0)}, ${regex}, ${computed})`;
  },
  translate: (w, e, a) => {
    // The text first, then the search and replacement lists (as the semantic layer orders them).
    const search = literalString(e.args[1]!);
    const replacement = literalString(e.args[2]!);
    // ClickHouse takes constant lists; a short replacement list repeats its last character.
    if (search !== undefined && replacement !== undefined && replacement !== '') {
      const padded = replacement + replacement.at(-1)!.repeat(Math.max([...search].length - [...replacement].length, 0));
      return `translateUTF8(${a(0)}, ${w.constant(search)}, ${w.constant(padded)})`;
    }
    return `translateUTF8(${a(0)}, ${a(1)}, ${a(2)})`;
  },
  extract: (w, e, a) => {
    const regex = regexArg(w, e.args[1]!, () => a(1));
    return `if(match(${a(0)}, ${regex}), regexpExtract(${a(0)}, ${regex}, ${Number(e.options?.group ?? 0)}), NULL)`;
  },
  extract_all: (w, e, a) => {
    const text = literalString(e.args[1]!);
    const regex = regexArg(w, e.args[1]!, () => a(1));
    const subject = notNull(a(0));
    const asked = e.options?.groups as number[] | undefined;
    const groups = asked ?? (text === undefined ? [1] : captureGroups(text) === 0 ? [0] : Array.from({ length: captureGroups(text) }, (_, i) => i + 1));
    const all = `extractAllGroupsVertical(${subject}, ${regex})`;
    if (groups.length === 1) {
      const g = groups[0]!;
      const list = g === 0 ? `extractAll(${subject}, concat('(', ${regex}, ')'))` : `arrayMap(m -> m[${g}], ${all})`;
      return whenNotNull([a(0)], `toJSONString(${list})`);
    }
    return whenNotNull([a(0)], `toJSONString(arrayMap(m -> [${groups.map((g) => (g === 0 ? `''` : `m[${g}]`)).join(', ')}], ${all}))`);
  },
  indexof: (_w, _e, a) => {
    const [s, t] = [a(0), a(1)];
    const from = `if(${a(2)} < 0, greatest(toInt64(lengthUTF8(${s})) + ${a(2)}, 0), ${a(2)})`;
    const window = `substringUTF8(${s}, ${from} + 1, if(${a(3)} = -1, lengthUTF8(${s}), ${a(3)}))`;
    const hits = `arrayFilter(i -> substringUTF8(${window}, i + 1, lengthUTF8(${t})) = ${t}, range(0, toUInt64(greatest(toInt64(lengthUTF8(${window})) - toInt64(lengthUTF8(${t})) + 1, 0))))`;
    return `multiIf(${s} IS NULL OR ${t} IS NULL OR ${a(3)} < -1 OR ${a(4)} < 1, NULL, ${from} > lengthUTF8(${s}), toInt64(-1), toInt64(ifNull(${from} + arrayElementOrNull(${hits}, ${a(4)}), -1)))`;
  },
  indexof_regex: (w, e, a) => {
    const pattern = literalString(e.args[1]!);
    const window = `substringUTF8(${a(0)}, ${a(2)} + 1, if(${a(3)} = -1, lengthUTF8(${a(0)}), ${a(3)}))`;
    const occurrence = e.args[4]!;
    const n = occurrence.kind === 'literal' && occurrence.value.type === 'int' ? Number(occurrence.value.value) : undefined;
    // The text before the n-th match: n - 1 matches skipped lazily, then the shortest prefix.
    const regex =
      pattern !== undefined && n !== undefined
        ? w.constant(`(?s)^((?:.*?(?:${pattern})){${Math.max(n - 1, 0)}}.*?)(?:${pattern})`)
        : `concat('(?s)^((?:.*?(?:', ${a(1)}, ')){', toString(${a(4)} - 1), '}.*?)(?:', ${a(1)}, ')')`;
    const found = `if(match(${window}, ${regex}), ${a(2)} + lengthUTF8(regexpExtract(${window}, ${regex}, 1)), -1)`;
    return `if(${a(0)} IS NULL OR ${a(1)} IS NULL OR ${a(2)} < 0 OR ${a(4)} < 1 OR ${a(3)} < -1, NULL, toInt64(${found}))`;
  },
  trim_chars: (_w, e, a) => {
    const side = e.options?.side;
    const set = `concat('[', regexpQuoteMeta(${a(1)}), ']+')`;
    let sql = a(0);
    if (side !== 'end') sql = `replaceRegexpOne(${sql}, concat('^', ${set}), '')`;
    if (side !== 'start') sql = `replaceRegexpOne(${sql}, concat(${set}, '$'), '')`;
    return `if(${a(1)} = '', ${a(0)}, ${sql})`;
  },
  // At most 1024 repetitions, as Axiom documents.
  strrep: (w, _e, a) => {
    const times = `least(${a(1)}, 1024)`;
    return `if(${a(1)} <= 0, '', ${w.lengthGuarded(`toFloat64(length(concat(${a(0)}, ${a(2)}))) * ${times}`, `concat(repeat(concat(${a(0)}, ${a(2)}), toUInt64(greatest(${times} - 1, 0))), ${a(0)})`)})`;
  },
  countof: (_w, e, a) => {
    const term = literalString(e.args[1]!);
    // A term that cannot overlap itself ('/', 'error') is counted by what removing it removes.
    if (term !== undefined && term !== '' && !overlapsItself(term)) {
      return `toInt64(intDiv(length(${a(0)}) - length(replaceAll(${a(0)}, ${a(1)}, '')), ${Buffer.byteLength(term)}))`;
    }
    // Overlapping occurrences count, as in Kusto: countof('aa', 'aaaa') is 3.
    return `multiIf(${a(0)} IS NULL OR ${a(1)} IS NULL, NULL, length(${a(1)}) = 0, toInt64(0), ${overlappingCount(a(0), a(1))})`;
  },
  countof_regex: (w, e, a) => whenNotNull([a(0)], `toInt64(length(extractAll(${notNull(a(0))}, concat('(', ${regexArg(w, e.args[1]!, () => a(1))}, ')'))))`),
  parse_url: (w, _e, a) => {
    const groups = `extractGroups(${notNull(a(0))}, ${w.constant(URL_PATTERN)})`;
    const names: [string, number][] = [['scheme', 1], ['host', 4], ['port', 5], ['path', 6], ['username', 2], ['password', 3], ['query', 7], ['fragment', 8]];
    const fields = names.map(([name, i]) => `${w.constant(`"${name}":`)}, toJSONString(u[${i}])`);
    return whenNotNull([a(0)], `arrayMap(u -> concat('{', ${fields.join(", ',', ")}, '}'), [${groups}])[1]`);
  },
  parse_urlquery: (w, _e, a) => whenNotNull([a(0)], queryParametersSql(`replaceRegexpOne(${a(0)}, ${w.constant('^[^?]*\\?')}, '')`)),
  parse_path: (w, _e, a) => parsePathSql(w, a(0)),
  parse_csv: (w, _e, a) => {
    const fields = `extractAll(concat(${notNull(a(0))}, ','), ${w.constant('("(?:[^"]|"")*"|[^,"]*),')})`;
    const unquote = `if(startsWith(f, '"'), replaceAll(substring(f, 2, length(f) - 2), '""', '"'), f)`;
    return whenNotNull([a(0)], `toJSONString(arrayMap(f -> ${unquote}, ${fields}))`);
  },
  format_bytes: (_w, e, a) => formatBytesSql(a(0), Number(e.options?.precision ?? 0), String(e.options?.units ?? ''), Number(e.options?.base ?? 2)),
  parse_bytes: (w, e, a) => parseBytesSql(w, a(0), Number(e.options?.base ?? 2)),
  format_url: (_w, _e, a) => {
    const get = (key: string) => `nullIf(${jsonText(`JSONExtractRaw(${a(0)}, '${key}')`)}, '')`;
    const queryObject = `JSONExtractRaw(${a(0)}, 'query')`;
    const pairs = `arrayMap(kv -> concat(encodeURLComponent(kv.1), '=', encodeURLComponent(ifNull(${jsonText('kv.2')}, ''))), JSONExtractKeysAndValuesRaw(${queryObject}))`;
    const query = `if(${jsonType(queryObject)} = 'Object', arrayStringConcat(${pairs}, '&'), ${get('query')})`;
    const user = `coalesce(${get('user')}, ${get('username')})`;
    const parts = [
      `ifNull(concat(${get('scheme')}, '://'), '')`,
      `if(${user} IS NOT NULL, concat(${user}, ifNull(concat(':', ${get('password')}), ''), '@'), '')`,
      `ifNull(${get('host')}, '')`,
      `ifNull(concat(':', ${get('port')}), '')`,
      `ifNull(${get('path')}, '')`,
      `ifNull(concat('?', nullIf(${query}, '')), '')`,
      `ifNull(concat('#', ${get('fragment')}), '')`,
    ];
    return `if(${a(0)} IS NULL, NULL, concat(${parts.join(', ')}))`;
  },
};
