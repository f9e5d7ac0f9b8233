// IP functions: IPv4 addresses as longs, masks and prefixes ("10.0.0.0/8"), comparisons and
// range tests, IPv4 addresses found in text, private ranges, IPv6 comparisons and ranges,
// and GeoIP. Most are compositions of a few canonical calls: ipv4_is_match is
// ipv4_compare(...) == 0, a constant list of ranges is an `or` of single tests.
import type { TExpr } from '../plan';
import type { CallSite } from '../call-site';
import { boolLiteral, call, intLiteral, literal, nullOf } from '../typed';
import type { ScalarFamily, ScalarRule } from './rule';

const ANY_PREFIX = 32;
const ANY_PREFIX_V6 = 128;

/** A prefix argument when given, else the widest one (the addresses' own prefixes still apply). */
const prefixArg = (site: CallSite, index: number, widest: number): TExpr => (index < site.count ? site.arg(index, 'int') : intLiteral(widest));

const compare = (version: 4 | 6, a: TExpr, b: TExpr, prefix: TExpr) => call(version === 4 ? 'ipv4_compare' : 'ipv6_compare', [a, b, prefix], 'int');

const isZero = (expr: TExpr) => call('eq', [expr, intLiteral(0)], 'bool');

/** The string items of a constant dynamic array, or undefined when the list is computed. */
function constantItems(expr: TExpr): string[] | undefined {
  if (expr.kind !== 'literal' || expr.value.type !== 'dynamic' || !Array.isArray(expr.value.value)) return undefined;
  return expr.value.value.every((item) => typeof item === 'string') ? (expr.value.value as string[]) : undefined;
}

/**
 * `f(value, dynamic([...]))` or `f(value, item1, item2, ...)`: one test per item, or'ed when
 * the items are constants, else a canonical call over the array.
 */
function anyOf(site: CallSite, single: (value: TExpr, item: TExpr) => TExpr, overArray: string): TExpr {
  site.arity(2, 64);
  const value = site.arg(0, 'string');
  let items: TExpr[];
  if (site.count === 2 && site.raw(1).type === 'dynamic') {
    const constants = constantItems(site.raw(1));
    if (!constants) return call(overArray, [value, site.raw(1)], 'bool');
    items = constants.map((item) => literal({ type: 'string', value: item }));
  } else items = site.args.slice(1).map((_, i) => site.arg(i + 1, 'string'));
  if (items.length === 0) return boolLiteral(false);
  return items.map((item) => single(value, item)).reduce((a, b) => call('or', [a, b], 'bool'));
}

const inRange = (version: 4 | 6) => (value: TExpr, range: TExpr) => isZero(compare(version, value, range, intLiteral(version === 4 ? ANY_PREFIX : ANY_PREFIX_V6)));

/** An IPv4 item of has_any_ipv4: an address to find in the text, or a range one found address falls in. */
const textHasIpv4 = (text: TExpr, item: TExpr) => call('has_ipv4_or_range', [text, item], 'bool');

const ipv6Match: ScalarRule = (site) => {
  site.arity(2, 3);
  return isZero(compare(6, site.arg(0, 'string'), site.arg(1, 'string'), prefixArg(site, 2, ANY_PREFIX_V6)));
};

export const IP_FUNCTIONS: ScalarFamily = {
  parse_ipv4: (site) => {
    site.arity(1);
    return call('parse_ipv4', [site.arg(0, 'string'), intLiteral(ANY_PREFIX)], 'int');
  },
  parse_ipv4_mask: (site) => {
    site.arity(2);
    return call('parse_ipv4', [site.arg(0, 'string'), site.arg(1, 'int')], 'int');
  },
  format_ipv4: (site) => {
    site.arity(1, 2);
    const prefix = prefixArg(site, 1, ANY_PREFIX);
    const ip = site.raw(0).type === 'string' || site.raw(0).type === 'dynamic' ? call('parse_ipv4', [site.arg(0, 'string'), prefix], 'int') : site.arg(0, 'int');
    return call('format_ipv4', [ip, prefix], 'string', { withPrefix: false });
  },
  format_ipv4_mask: (site) => {
    site.arity(1, 2);
    const prefix = prefixArg(site, 1, ANY_PREFIX);
    const ip = site.raw(0).type === 'string' || site.raw(0).type === 'dynamic' ? call('parse_ipv4', [site.arg(0, 'string'), prefix], 'int') : site.arg(0, 'int');
    return call('format_ipv4', [ip, prefix], 'string', { withPrefix: true });
  },
  ipv4_compare: (site) => {
    site.arity(2, 3);
    return compare(4, site.arg(0, 'string'), site.arg(1, 'string'), prefixArg(site, 2, ANY_PREFIX));
  },
  ipv4_is_match: (site) => {
    site.arity(2, 3);
    return isZero(compare(4, site.arg(0, 'string'), site.arg(1, 'string'), prefixArg(site, 2, ANY_PREFIX)));
  },
  ipv4_is_in_range: (site) => {
    site.arity(2);
    return inRange(4)(site.arg(0, 'string'), site.arg(1, 'string'));
  },
  ipv4_is_in_any_range: (site) => anyOf(site, inRange(4), 'ipv4_in_any_range'),
  ipv4_is_private: (site) => {
    site.arity(1);
    return call('ipv4_is_private', [site.arg(0, 'string')], 'bool');
  },
  ipv4_netmask_suffix: (site) => {
    site.arity(1);
    return call('ipv4_netmask_suffix', [site.arg(0, 'string')], 'int');
  },
  has_ipv4: (site) => {
    site.arity(2);
    return call('has_ipv4', [site.arg(0, 'string'), site.arg(1, 'string')], 'bool');
  },
  has_ipv4_prefix: (site) => {
    site.arity(2);
    return call('has_ipv4_prefix', [site.arg(0, 'string'), site.arg(1, 'string')], 'bool');
  },
  has_any_ipv4: (site) => anyOf(site, textHasIpv4, 'has_any_ipv4'),
  has_any_ipv4_prefix: (site) => anyOf(site, (text, prefix) => call('has_ipv4_prefix', [text, prefix], 'bool'), 'has_any_ipv4_prefix'),
  ipv6_compare: (site) => {
    site.arity(2, 3);
    return compare(6, site.arg(0, 'string'), site.arg(1, 'string'), prefixArg(site, 2, ANY_PREFIX_V6));
  },
  ipv6_is_match: ipv6Match,
  ipv6_is_in_range: (site) => {
    site.arity(2);
    return inRange(6)(site.arg(0, 'string'), site.arg(1, 'string'));
  },
  ipv6_is_in_any_range: (site) => anyOf(site, inRange(6), 'ipv6_in_any_range'),
  geo_info_from_ip_address: (site) => {
    site.arity(1);
    const arg = site.raw(0);
    if (arg.type === 'null') return nullOf('dynamic');
    return call('geo_info', [site.arg(0, 'string')], 'dynamic');
  },
};
