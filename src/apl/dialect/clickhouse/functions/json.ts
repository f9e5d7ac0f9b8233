// Dynamic values are JSON text: reading their type, their text and their members.
/** The type of a JSON text: Null, String, Int64, UInt64, Double, Bool, Array, Object (null for SQL NULL). */
export const jsonType = (x: string) => `toString(JSONType(${x}))`;

/** The text of a JSON value as DuckDB's json_extract_string gives it: strings unquoted, JSON null as NULL. */
export function jsonText(x: string): string {
  return `multiIf(${jsonType(x)} = 'String', JSONExtractString(${x}), ${jsonType(x)} = 'Null', NULL, ${x})`;
}

/** A JSON value for a key of a bag (or an index of an array, 0-based), or null when absent. */
export function jsonMember(x: string, key: string): string {
  return `nullIf(JSONExtractRaw(${x}, ${key}), '')`;
}

/** A list of JSON texts as one JSON array text. */
export const jsonArrayOf = (list: string) => `concat('[', arrayStringConcat(${list}, ','), ']')`;
