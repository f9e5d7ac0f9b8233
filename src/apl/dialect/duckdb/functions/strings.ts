// String functions: slicing, concatenation, search and replace, regexes, URLs, base64 and
// formatting of bytes.
import { literalString } from '../expressions';
import { regexArg, type RuleTable } from './rule';

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

export const STRING_RULES: RuleTable = {
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
  strrep: (_w, _e, a) => `CASE WHEN ${a(1)} <= 0 THEN '' ELSE concat(repeat(concat(${a(0)}, ${a(2)}), CAST(${a(1)} - 1 AS BIGINT)), ${a(0)}) END`,
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
  format_url: (_w, _e, a) => {
    const get = (key: string) => `json_extract_string(${a(0)}, '$.${key}')`;
    return `concat(coalesce(${get('scheme')} || '://', ''), CASE WHEN ${get('user')} IS NOT NULL THEN ${get('user')} || coalesce(':' || ${get('password')}, '') || '@' ELSE '' END, coalesce(${get('host')}, ''), coalesce(':' || ${get('port')}, ''), coalesce(${get('path')}, ''), coalesce('#' || ${get('fragment')}, ''))`;
  },
};
