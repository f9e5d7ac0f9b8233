// IP addresses in SQL. An IPv4 text ("10.1.2.3" or "10.1.2.3/24") reads as a struct of its
// value (BIGINT) and prefix; an IPv6 text as its 128 bits (as '0'/'1' text) and prefix.
// Comparisons mask both sides with the narrowest prefix in play. Text that is not an address
// gives null (or false/"" where the function's page says so), never an error.
import { quoteLiteral } from '../../../../engines/duckdb/layout';
import { literalString } from '../values';
import { jsonList } from './arrays';
import type { RuleTable } from './rule';

const OCTET = '[0-9]{1,3}';
const IPV4_TEXT = `(${OCTET})\\.(${OCTET})\\.(${OCTET})\\.(${OCTET})`;

/** `{v, p}` of an IPv4 text, or null. */
function ipv4(s: string): string {
  const m = `regexp_extract(trim(${s}), '^${IPV4_TEXT}(?:/([0-9]{1,2}))?$', ['a', 'b', 'c', 'd', 'p'])`;
  const octet = (x: string) => `TRY_CAST(m.${x} AS BIGINT)`;
  const prefix = `coalesce(TRY_CAST(nullif(m.p, '') AS INTEGER), 32)`;
  const valid = `m.a <> '' AND ${['a', 'b', 'c', 'd'].map((x) => `${octet(x)} <= 255`).join(' AND ')} AND ${prefix} <= 32`;
  return `list_transform([${m}], lambda m: CASE WHEN ${valid} THEN {'v': ${octet('a')} * 16777216 + ${octet('b')} * 65536 + ${octet('c')} * 256 + ${octet('d')}, 'p': ${prefix}} END)[1]`;
}

/** The value with all but its first `p` bits cleared (32-bit). */
const mask4 = (v: string, p: string) => `(${v} - ${v} % (CAST(1 AS BIGINT) << (32 - ${p})))`;

/** `{v, p}` of an IPv6 text (IPv4 texts map to ::ffff:a.b.c.d), or null; v holds the 128 bits. */
function ipv6(s: string): string {
  const addr = `split_part(trim(${s}), '/', 1)`;
  const prefix = `TRY_CAST(nullif(split_part(trim(${s}), '/', 2), '') AS INTEGER)`;
  // A trailing dotted IPv4 part becomes two hex groups.
  const tail = `list_transform([regexp_extract(a.t, '${IPV4_TEXT}$', ['a', 'b', 'c', 'd'])], lambda q: CASE WHEN q.a <> '' THEN regexp_replace(a.t, '${IPV4_TEXT}$', printf('%x:%x', CAST(q.a AS INTEGER) * 256 + CAST(q.b AS INTEGER), CAST(q.c AS INTEGER) * 256 + CAST(q.d AS INTEGER))) ELSE a.t END)[1]`;
  const text = `CASE WHEN contains(${addr}, ':') THEN ${addr} ELSE '::ffff:' || ${addr} END`;
  const side = (x: string) => `CASE WHEN ${x} = '' THEN [] ELSE string_split(${x}, ':') END`;
  const groups = `CASE WHEN contains(h, '::') THEN list_concat(${side(`split_part(h, '::', 1)`)}, list_transform(range(greatest(8 - len(${side(`split_part(h, '::', 1)`)}) - len(${side(`split_part(h, '::', 2)`)}), 0)), lambda z: '0'), ${side(`split_part(h, '::', 2)`)}) ELSE string_split(h, ':') END`;
  // The 128 bits as text: masking keeps a prefix, and texts of one length order like the numbers.
  const value = `array_to_string(list_transform(g, lambda x: lpad(bin(CAST(('0x' || x) AS INTEGER)), 16, '0')), '')`;
  const valid = `len(g) = 8 AND list_bool_and(list_transform(g, lambda x: regexp_full_match(x, '[0-9A-Fa-f]{1,4}'))) AND (len(string_split(h, '::')) <= 2)`;
  const ipv4Bits = `CASE WHEN contains(${addr}, ':') THEN 0 ELSE 96 END`;
  const p = `coalesce(${prefix} + ${ipv4Bits}, 128)`;
  return `list_transform([{'t': ${text}}], lambda a: list_transform([${tail}], lambda h: list_transform([${groups}], lambda g: CASE WHEN ${valid} AND ${p} <= 128 THEN {'v': ${value}, 'p': ${p}} END)[1])[1])[1]`;
}

const mask6 = (v: string, p: string) => `left(${v}, ${p})`;

/** `{v, p}` of a constant address, read here once instead of in every row. */
function constantAddress(version: 4 | 6, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const parsed = version === 4 ? parseIpv4Text(text) : parseIpv6Text(text);
  if (!parsed) return 'NULL';
  return version === 4 ? `{'v': CAST(${parsed.value} AS BIGINT), 'p': ${parsed.prefix}}` : `{'v': '${parsed.value}', 'p': ${parsed.prefix}}`;
}

function parseIpv4Text(text: string): { value: string; prefix: number } | undefined {
  const m = /^\s*(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const prefix = m[5] === undefined ? 32 : Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  return { value: String(octets.reduce((acc, o) => acc * 256 + o, 0)), prefix };
}

/** The 128 bits of an IPv6 text as '0'/'1' text (IPv4 maps to ::ffff:a.b.c.d), and its prefix. */
function parseIpv6Text(text: string): { value: string; prefix: number } | undefined {
  const [address = '', rest] = text.trim().split('/', 2);
  let prefix = rest === undefined ? 128 : Number(rest);
  let groups: string[];
  const v4 = parseIpv4Text(address);
  if (v4 && !address.includes(':')) {
    groups = ['0', '0', '0', '0', '0', 'ffff', ...[Math.floor(Number(v4.value) / 65536), Number(v4.value) % 65536].map((g) => g.toString(16))];
    if (rest !== undefined) prefix += 96;
  } else {
    let hex = address;
    const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hex);
    if (tail) {
      const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
      hex = hex.slice(0, tail.index) + `${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
    }
    const halves = hex.split('::');
    if (halves.length > 2) return undefined;
    const side = (s: string) => (s === '' ? [] : s.split(':'));
    groups = halves.length === 2 ? [...side(halves[0]!), ...Array(Math.max(8 - side(halves[0]!).length - side(halves[1]!).length, 0)).fill('0'), ...side(halves[1]!)] : side(hex);
  }
  if (groups.length !== 8 || groups.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g)) || !(prefix >= 0 && prefix <= 128) || !Number.isInteger(prefix)) return undefined;
  return { value: groups.map((g) => parseInt(g, 16).toString(2).padStart(16, '0')).join(''), prefix };
}

function compareSql(version: 4 | 6, a: string, b: string, prefix: string, constants: [string | undefined, string | undefined] = [undefined, undefined]): string {
  const parse = version === 4 ? ipv4 : ipv6;
  const max = version === 4 ? 32 : 128;
  const left = constantAddress(version, constants[0]) ?? parse(a);
  const right = constantAddress(version, constants[1]) ?? parse(b);
  const masked = (x: string) => (version === 4 ? mask4(`${x}.v`, 'least(x.p, y.p, t.prefix)') : mask6(`${x}.v`, 'least(x.p, y.p, t.prefix)'));
  const body = `CASE WHEN x IS NULL OR y IS NULL OR t.prefix < 0 OR t.prefix > ${max} THEN NULL WHEN ${masked('x')} > ${masked('y')} THEN 1 WHEN ${masked('x')} < ${masked('y')} THEN -1 ELSE 0 END`;
  return `list_transform([{'x': ${left}, 'y': ${right}, 'prefix': ${prefix}}], lambda t: list_transform([t.x], lambda x: list_transform([t.y], lambda y: ${body})[1])[1])[1]`;
}

const BEFORE = '(?:^|[^0-9A-Za-z.])';
const AFTER = '(?:$|[^0-9A-Za-z.]|\\.(?:$|[^0-9]))';
const escapeRe = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
const quote = quoteLiteral;

/** An IPv4 address appears in the text as a whole token. */
function hasIpv4Sql(text: string, ip: string, constant: string | undefined): string {
  if (constant !== undefined) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(constant.trim()) || constant.trim().split('.').some((o) => Number(o) > 255)) return 'FALSE';
    return `coalesce(regexp_matches(${text}, ${quote(BEFORE + escapeRe(constant.trim()) + AFTER)}), false)`;
  }
  const valid = `regexp_full_match(trim(${ip}), '${IPV4_TEXT}') AND ${ipv4(ip)} IS NOT NULL`;
  return `coalesce(${valid} AND regexp_matches(${text}, concat('${BEFORE}', regexp_escape(trim(${ip})), '${AFTER.replaceAll("'", "''")}')), false)`;
}

/** An address in the text starts with the prefix ("192.168." or a whole address). */
function hasIpv4PrefixSql(text: string, prefix: string, constant: string | undefined): string {
  if (constant !== undefined) {
    const p = constant.trim();
    const dots = (p.match(/\./g) ?? []).length;
    const valid = /^(\d{1,3}\.){1,3}$/.test(p) || /^\d{1,3}(\.\d{1,3}){3}$/.test(p);
    if (!valid || p.split('.').some((o) => o !== '' && Number(o) > 255)) return 'FALSE';
    const rest = p.endsWith('.') ? OCTET + `\\.${OCTET}`.repeat(3 - dots) : '';
    return `coalesce(regexp_matches(${text}, ${quote(BEFORE + escapeRe(p) + rest + AFTER)}), false)`;
  }
  const p = `trim(${prefix})`;
  const dots = `(length(${p}) - length(replace(${p}, '.', '')))`;
  const rest = `CASE WHEN ends_with(${p}, '.') THEN concat('${OCTET}', repeat('\\.${OCTET}', CAST(3 - ${dots} AS BIGINT))) ELSE '' END`;
  const valid = `(regexp_full_match(${p}, '(?:${OCTET}\\.){1,3}') OR regexp_full_match(${p}, '${IPV4_TEXT}'))`;
  return `coalesce(${valid} AND regexp_matches(${text}, concat('${BEFORE}', regexp_escape(${p}), ${rest}, '${AFTER.replaceAll("'", "''")}')), false)`;
}

/** An address in the text falls in the range. */
function textInRangeSql(text: string, range: string, constant?: string): string {
  const found = `regexp_extract_all(${text}, '${BEFORE}(${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET})${AFTER.replaceAll("'", "''")}', 1)`;
  return `coalesce(list_bool_or(list_transform(${found}, lambda ip: ${compareSql(4, 'ip', range, '32', [undefined, constant])} = 0)), false)`;
}

/** has_any_ipv4's test of one item: a range when it has a prefix, else an address. */
function ipv4ItemSql(text: string, item: string, constant: string | undefined): string {
  if (constant !== undefined) return constant.includes('/') ? textInRangeSql(text, quote(constant), constant) : hasIpv4Sql(text, item, constant);
  return `CASE WHEN contains(${item}, '/') THEN ${textInRangeSql(text, item)} ELSE ${hasIpv4Sql(text, item, undefined)} END`;
}

/** A test over every string item of a dynamic array, true when any holds. */
const anyItem = (array: string, test: (item: string) => string) =>
  `coalesce(list_bool_or(list_transform(list_filter(${jsonList(array)}, lambda e: json_type(e) = 'VARCHAR'), lambda e: list_transform([json_extract_string(e, '$')], lambda item: ${test('item')})[1])), false)`;

export const IP_RULES: RuleTable = {
  parse_ipv4: (_w, _e, a) =>
    `list_transform([${ipv4(a(0))}], lambda x: CASE WHEN x IS NOT NULL AND ${a(1)} BETWEEN 0 AND 32 THEN ${mask4('x.v', `least(x.p, ${a(1)})`)} END)[1]`,
  format_ipv4: (_w, e, a) => {
    const masked = mask4(a(0), a(1));
    const dotted = `concat(${masked} // 16777216, '.', ${masked} // 65536 % 256, '.', ${masked} // 256 % 256, '.', ${masked} % 256)`;
    const text = e.options?.withPrefix ? `concat(${dotted}, '/', ${a(1)})` : dotted;
    // A value that is not an address formats as the empty string, as Axiom documents.
    return `CASE WHEN ${a(0)} BETWEEN 0 AND 4294967295 AND ${a(1)} BETWEEN 0 AND 32 THEN ${text} ELSE '' END`;
  },
  ipv4_compare: (_w, e, a) => compareSql(4, a(0), a(1), a(2), [literalString(e.args[0]!), literalString(e.args[1]!)]),
  ipv6_compare: (_w, e, a) => compareSql(6, a(0), a(1), a(2), [literalString(e.args[0]!), literalString(e.args[1]!)]),
  ipv4_is_private: (_w, _e, a) =>
    `list_transform([${ipv4(a(0))}], lambda x: CASE WHEN x IS NOT NULL THEN x.v BETWEEN 167772160 AND 184549375 OR x.v BETWEEN 2886729728 AND 2887778303 OR x.v BETWEEN 3232235520 AND 3232301055 END)[1]`,
  ipv4_netmask_suffix: (_w, _e, a) => `CAST(${ipv4(a(0))}.p AS BIGINT)`,
  has_ipv4: (_w, e, a) => hasIpv4Sql(a(0), a(1), literalString(e.args[1]!)),
  has_ipv4_prefix: (_w, e, a) => hasIpv4PrefixSql(a(0), a(1), literalString(e.args[1]!)),
  has_ipv4_or_range: (_w, e, a) => ipv4ItemSql(a(0), a(1), literalString(e.args[1]!)),
  has_any_ipv4: (_w, _e, a) => anyItem(a(1), (item) => ipv4ItemSql(a(0), item, undefined)),
  has_any_ipv4_prefix: (_w, _e, a) => anyItem(a(1), (item) => hasIpv4PrefixSql(a(0), item, undefined)),
  ipv4_in_any_range: (_w, _e, a) => anyItem(a(1), (item) => `${compareSql(4, a(0), item, '32')} = 0`),
  ipv6_in_any_range: (_w, _e, a) => anyItem(a(1), (item) => `${compareSql(6, a(0), item, '128')} = 0`),
  // A GeoIP lookup is a binary search in the MMDB file: a vectorized UDF (execution/udfs.ts).
  geo_info: (_w, _e, a) => `CAST(apl_geo_info(${a(0)}) AS JSON)`,
};
