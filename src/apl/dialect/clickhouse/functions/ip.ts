// IP addresses in SQL, read with ClickHouse's own address types. An IPv4 text ("10.1.2.3" or
// "10.1.2.3/24") reads as a tuple of its value (Int64, null when the text is no address) and
// prefix; an IPv6 text (IPv4 texts map to ::ffff:a.b.c.d) as its address and prefix, compared as
// the hex text of the masked address. Comparisons mask both sides with the narrowest prefix in
// play. Text that is not an address gives null (or false/"" where the function's page says
// so), never an error. GeoIP lookups need the MMDB reader: the server answers them
// (../server-calls.ts).
import { answeredByServer } from '../server-calls';
import { literalString } from '../values';
import { escapeRegex } from '../../regex';
import { jsonType } from './json';
import { bindSql, type RuleTable } from './rule';

const OCTET = '[0-9]{1,3}';
const IPV4_TEXT = `(${OCTET})\\.(${OCTET})\\.(${OCTET})\\.(${OCTET})`;

/** A JS regex text as a ClickHouse string literal. */
const literal = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** The address and prefix parts of an address text (prefix '' when absent). */
const parts = (s: string) => `splitByChar('/', trimBoth(ifNull(${s}, '')))`;

/** `(value, prefix)` of an IPv4 text; the value is null when the text is no IPv4 address or prefix. */
function ipv4(s: string): string {
  const body = `if(length(q) <= 2 AND match(q[1], ${literal(`^${IPV4_TEXT}$`)}) AND (length(q) = 1 OR match(q[2], '^[0-9]{1,2}$')) AND if(length(q) = 1, 32, toInt64OrZero(q[2])) <= 32, tuple(toInt64(toUInt32(toIPv4OrNull(q[1]))), if(length(q) = 1, toInt64(32), toInt64OrZero(q[2]))), tuple(CAST(NULL AS Nullable(Int64)), toInt64(0)))`;
  return `if(${s} IS NULL, tuple(CAST(NULL AS Nullable(Int64)), toInt64(0)), ${bindSql(parts(s), 'q', body)})`;
}

/** The value with all but its first `p` bits cleared (32-bit). */
const mask4 = (v: string, p: string) => `(${v} - ${v} % bitShiftLeft(toInt64(1), 32 - ${p}))`;

/** `(address, prefix)` of an IPv6 text; the address is null when the text is no address. */
function ipv6(s: string): string {
  const address = `toIPv6OrNull(q[1])`;
  const prefix = `if(length(q) = 1, toInt64(128), toInt64OrNull(q[2]) + if(position(q[1], ':') > 0, 0, 96))`;
  const body = `if(length(q) <= 2 AND (length(q) = 1 OR match(q[2], '^[0-9]{1,3}$')), tuple(${address}, ${prefix}), tuple(CAST(NULL AS Nullable(IPv6)), CAST(NULL AS Nullable(Int64))))`;
  return `if(${s} IS NULL, tuple(CAST(NULL AS Nullable(IPv6)), CAST(NULL AS Nullable(Int64))), ${bindSql(parts(s), 'q', body)})`;
}

const mask6 = (v: string, p: string) => `hex(IPv6CIDRToRange(assumeNotNull(${v}), toUInt8(${p})).1)`;

function compareSql(version: 4 | 6, a: string, b: string, prefix: string): string {
  const max = version === 4 ? 32 : 128;
  const m = `least(x.2, y.2, ${prefix})`;
  const masked = (t: string) => (version === 4 ? mask4(`${t}.1`, m) : mask6(`${t}.1`, m));
  const body = `multiIf(x.1 IS NULL OR y.1 IS NULL OR x.2 IS NULL OR y.2 IS NULL OR ${prefix} < 0 OR ${prefix} > ${max} OR ${m} > ${max}, NULL, ${masked('x')} > ${masked('y')}, 1, ${masked('x')} < ${masked('y')}, -1, 0)`;
  const parse = version === 4 ? ipv4 : ipv6;
  return bindSql(parse(a), 'x', bindSql(parse(b), 'y', body));
}

const BEFORE = '(?:^|[^0-9A-Za-z.])';
const AFTER = '(?:$|[^0-9A-Za-z.]|\\.(?:$|[^0-9]))';

/** An IPv4 address appears in the text as a whole token. */
function hasIpv4Sql(text: string, ip: string, constant: string | undefined): string {
  if (constant !== undefined) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(constant.trim()) || constant.trim().split('.').some((o) => Number(o) > 255)) return 'false';
    return `ifNull(match(${text}, ${literal(BEFORE + escapeRegex(constant.trim()) + AFTER)}), false)`;
  }
  const valid = `match(trimBoth(${ip}), ${literal(`^${IPV4_TEXT}$`)}) AND toIPv4OrNull(trimBoth(${ip})) IS NOT NULL`;
  return `ifNull(${valid} AND match(${text}, concat(${literal(BEFORE)}, regexpQuoteMeta(trimBoth(${ip})), ${literal(AFTER)})), false)`;
}

/** An address in the text starts with the prefix ("192.168." or a whole address). */
function hasIpv4PrefixSql(text: string, prefix: string, constant: string | undefined): string {
  if (constant !== undefined) {
    const p = constant.trim();
    const dots = (p.match(/\./g) ?? []).length;
    const valid = /^(\d{1,3}\.){1,3}$/.test(p) || /^\d{1,3}(\.\d{1,3}){3}$/.test(p);
    if (!valid || p.split('.').some((o) => o !== '' && Number(o) > 255)) return 'false';
    const rest = p.endsWith('.') ? OCTET + `\\.${OCTET}`.repeat(3 - dots) : '';
    return `ifNull(match(${text}, ${literal(BEFORE + escapeRegex(p) + rest + AFTER)}), false)`;
  }
  const p = `trimBoth(${prefix})`;
  const dots = `(length(${p}) - length(replaceAll(${p}, '.', '')))`;
  const rest = `if(endsWith(${p}, '.'), concat(${literal(OCTET)}, repeat(${literal(`\\.${OCTET}`)}, toUInt64(greatest(3 - ${dots}, 0)))), '')`;
  const valid = `(match(${p}, ${literal(`^(?:${OCTET}\\.){1,3}$`)}) OR match(${p}, ${literal(`^${IPV4_TEXT}$`)}))`;
  return `ifNull(${valid} AND match(${text}, concat(${literal(BEFORE)}, regexpQuoteMeta(${p}), ${rest}, ${literal(AFTER)})), false)`;
}

/** An address in the text falls in the range. */
function textInRangeSql(text: string, range: string): string {
  const found = `extractAll(ifNull(${text}, ''), ${literal(`${BEFORE}(${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET})${AFTER}`)})`;
  return `arrayExists(ip -> ifNull(${compareSql(4, 'ip', range, '32')} = 0, false), ${found})`;
}

/** has_any_ipv4's test of one item: a range when it has a prefix, else an address. */
function ipv4ItemSql(text: string, item: string, constant: string | undefined): string {
  if (constant !== undefined) return constant.includes('/') ? textInRangeSql(text, literal(constant)) : hasIpv4Sql(text, item, constant);
  return `if(position(${item}, '/') > 0, ${textInRangeSql(text, item)}, ${hasIpv4Sql(text, item, undefined)})`;
}

/** A test over every string item of a dynamic array, true when any holds. */
const anyItem = (array: string, test: (item: string) => string) =>
  `arrayExists(item -> ${test('item')}, arrayMap(e -> JSONExtractString(e), arrayFilter(e -> ${jsonType('e')} = 'String', JSONExtractArrayRaw(ifNull(${array}, '[]')))))`;

export const IP_RULES: RuleTable = {
  geo_info: answeredByServer,
  parse_ipv4: (_w, _e, a) => bindSql(ipv4(a(0)), 'x', `if(x.1 IS NOT NULL AND ${a(1)} BETWEEN 0 AND 32, ${mask4('x.1', `least(x.2, ${a(1)})`)}, NULL)`),
  format_ipv4: (_w, e, a) => {
    const masked = mask4(a(0), a(1));
    const dotted = `concat(toString(intDiv(${masked}, 16777216)), '.', toString(intDiv(${masked}, 65536) % 256), '.', toString(intDiv(${masked}, 256) % 256), '.', toString(${masked} % 256))`;
    const text = e.options?.withPrefix ? `concat(${dotted}, '/', toString(${a(1)}))` : dotted;
    // A value that is not an address formats as the empty string, as Axiom documents.
    return `if(${a(0)} BETWEEN 0 AND 4294967295 AND ${a(1)} BETWEEN 0 AND 32, ${text}, '')`;
  },
  ipv4_compare: (_w, _e, a) => compareSql(4, a(0), a(1), a(2)),
  ipv6_compare: (_w, _e, a) => compareSql(6, a(0), a(1), a(2)),
  ipv4_is_private: (_w, _e, a) =>
    bindSql(ipv4(a(0)), 'x', `if(x.1 IS NOT NULL, x.1 BETWEEN 167772160 AND 184549375 OR x.1 BETWEEN 2886729728 AND 2887778303 OR x.1 BETWEEN 3232235520 AND 3232301055, NULL)`),
  ipv4_netmask_suffix: (_w, _e, a) => bindSql(ipv4(a(0)), 'x', 'if(x.1 IS NOT NULL, x.2, NULL)'),
  has_ipv4: (_w, e, a) => hasIpv4Sql(a(0), a(1), literalString(e.args[1]!)),
  has_ipv4_prefix: (_w, e, a) => hasIpv4PrefixSql(a(0), a(1), literalString(e.args[1]!)),
  has_ipv4_or_range: (_w, e, a) => ipv4ItemSql(a(0), a(1), literalString(e.args[1]!)),
  has_any_ipv4: (_w, _e, a) => anyItem(a(1), (item) => ipv4ItemSql(a(0), item, undefined)),
  has_any_ipv4_prefix: (_w, _e, a) => anyItem(a(1), (item) => hasIpv4PrefixSql(a(0), item, undefined)),
  ipv4_in_any_range: (_w, _e, a) => anyItem(a(1), (item) => `ifNull(${compareSql(4, a(0), item, '32')} = 0, false)`),
  ipv6_in_any_range: (_w, _e, a) => anyItem(a(1), (item) => `ifNull(${compareSql(6, a(0), item, '128')} = 0, false)`),
};
