// What the ClickHouse dialect cannot write yet. A query that needs it fails as the caller's
// error (400) naming the function, on EVENT_STORE=clickhouse and chdb alike, instead of failing
// inside the server; the same query runs on the embedded default. Today: dynamic_to_json (keys
// sorted at every depth), geo_info_from_ip_address (a lookup in an MMDB file), parse_sql and
// format_sql (a SQL grammar) and genai_estimate_tokens (a tokenizer).
import { invalidInput } from '../../../errors';

/** The APL function a canonical call comes from, where the names differ. */
const APL_NAMES: Readonly<Record<string, string>> = {
  json_canonical: 'dynamic_to_json',
  geo_info: 'geo_info_from_ip_address',
};

/** Canonical calls several APL functions share: the error names them all. */
const APL_FAMILIES: Readonly<Record<string, string>> = {
};

/** The client error for a function (scalar or aggregation) the ClickHouse dialect lacks. */
export function unsupportedOnClickHouse(call: string) {
  const name = APL_NAMES[call] ?? call.replace(/^_+/, '');
  const family = APL_FAMILIES[call];
  const subject = family ? `${family} ${family.includes(' and ') || family.startsWith('the ') ? 'are' : 'is'}` : `${name}() is`;
  return invalidInput(
    `${subject} not supported yet with events in ClickHouse (EVENT_STORE=clickhouse or chdb); the embedded store (EVENT_STORE=duckdb) runs ${family && subject.endsWith('are') ? 'them' : 'it'}`,
    { function: name },
  );
}
