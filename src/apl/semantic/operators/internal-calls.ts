// The calls tabular operators put into the typed plan that are not APL functions. Every dialect
// writes each of them (the DuckDB one in dialect/duckdb/operator-calls.ts; a test checks that
// none is missing), so a new dialect starts from this list.
export const INTERNAL_CALLS: Record<string, string> = {
  bin_index: 'make-series: floor((value - origin) / step) as a long; args value, origin, step (all long or all real)',
  kv_extract:
    'parse-kv: the value of options.key in the text argument, by options.pairDelimiter/kvDelimiter (with quotes, escapes, greedy) or any non-alphanumeric delimiter, or by options.regex (groups: key, value); null when the key is absent',
  redact: 'redact: the text with each match of options.rules[].pattern (or of its groups where rules[].groups says) replaced by options.token (per character when one character long) or an 8-character hash (options.hash)',
  valid_or: 'extend-valid: the first argument where it is valid for its type (non-empty string, bag or array; non-zero finite number; true; non-null), else the second',
  pack_present: 'find: a property bag of options.keys to the arguments, leaving out null values',
  in_subquery: 'in over a table: whether the argument equals (options.caseInsensitive: ignoring case; options.negated: is not among) a value of column options.column of the plan options.rel, converted from options.columnType to options.compareType; never null',
};
