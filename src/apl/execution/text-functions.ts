// The functions APL needs that SQL cannot express, as plain JavaScript over one text: SHA-512
// (DuckDB has no such digest), canonical JSON (sorting the keys of objects at every depth needs
// recursion), GeoIP lookups (a binary search in an MMDB file) and the SQL parser of
// parse_sql/format_sql. DuckDB runs them as functions inside its engine
// (src/engines/duckdb/udfs.ts); for ClickHouse the server applies them (./server-functions.ts).
import { createHash } from 'node:crypto';
import { type GeoInfo, geoInfo } from './geoip';
import { formatSql, parseSql } from './sql-model';

/** A function of one text to one text; null in, null out; a value it cannot handle gives null. */
export interface TextFunction {
  name: string;
  apply(text: string): string | null;
}

/** Stringifies JSON with the keys of every object in order (dynamic_to_json). */
export function canonicalJson(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    return v;
  };
  return JSON.stringify(sorted(value));
}

/** The JSON text of each location answer, made once per answer. */
const geoJson = new WeakMap<GeoInfo, string>();

export const TEXT_FUNCTIONS: TextFunction[] = [
  { name: 'apl_sha512', apply: (text) => createHash('sha512').update(text).digest('hex') },
  { name: 'apl_json_canonical', apply: canonicalJson },
  {
    name: 'apl_parse_sql',
    apply: (text) => {
      const model = parseSql(text);
      return model ? JSON.stringify(model) : null;
    },
  },
  { name: 'apl_format_sql', apply: (text) => formatSql(JSON.parse(text)) },
  {
    name: 'apl_geo_info',
    apply: (text) => {
      const info = geoInfo(text);
      if (!info) return null;
      let json = geoJson.get(info);
      if (json === undefined) {
        json = JSON.stringify(info);
        geoJson.set(info, json);
      }
      return json;
    },
  },
];
