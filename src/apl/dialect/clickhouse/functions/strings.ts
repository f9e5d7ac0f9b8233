// String functions: slicing, concatenation, search and replace, regexes, trims, URLs, base64
// and byte sizes.
import { captureGroups } from '../regex';
import { trimmed } from './conversion';
import { jsonText } from './json';
import { notNull, regexArg, type RuleTable, whenNotNull } from './rule';
import { literalString } from '../expressions';

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

export const STRING_RULES: RuleTable = {
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
  format_url: (_w, _e, a) => {
    const get = (key: string) => jsonText(`JSONExtractRaw(${a(0)}, '${key}')`);
    return `concat(ifNull(concat(${get('scheme')}, '://'), ''), if(${get('user')} IS NOT NULL, concat(${get('user')}, ifNull(concat(':', ${get('password')}), ''), '@'), ''), ifNull(${get('host')}, ''), ifNull(concat(':', ${get('port')}), ''), ifNull(${get('path')}, ''), ifNull(concat('#', ${get('fragment')}), ''))`;
  },
};
