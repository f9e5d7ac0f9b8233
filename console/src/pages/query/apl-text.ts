// Pieces of APL the page writes itself: a filter appended to the query, and the queries for the
// events around one event. Names and values are quoted, never pasted in as they are.

/** A field reference: `name` when it is a plain identifier, else `['odd name']`. */
export function fieldRef(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

/** A dataset reference, always bracketed. */
export function datasetRef(name: string): string {
  return `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

/** An APL literal for a value of a result row. */
export function literal(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  if (typeof value === 'boolean') return String(value);
  return `dynamic(${JSON.stringify(value)})`;
}

/** The query with `| where field op value` appended (`isnull`/`isnotnull` for a missing value). */
export function withFilter(apl: string, field: string, value: unknown, op: '==' | '!='): string {
  const ref = fieldRef(field);
  const clause = value === null || value === undefined ? `${op === '==' ? 'isnull' : 'isnotnull'}(${ref})` : `${ref} ${op} ${literal(value)}`;
  return `${apl.trimEnd()}\n| where ${clause}`;
}

/** The events at or before the time (newest first), and after it (oldest first). */
export function surroundingQueries(dataset: string, time: string, count = 10): { before: string; after: string } {
  // An RFC 3339 time from the server is written as a datetime literal; anything else is converted.
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(time) ? `datetime(${time})` : `todatetime(${JSON.stringify(time)})`;
  return {
    before: `${datasetRef(dataset)} | where _time <= ${at} | sort by _time desc | take ${count + 1}`,
    after: `${datasetRef(dataset)} | where _time > ${at} | sort by _time asc | take ${count}`,
  };
}
