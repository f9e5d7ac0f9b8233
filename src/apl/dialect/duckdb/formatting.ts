// SQL that prints dates and durations the way APL does: RFC 3339 with nanoseconds, Go
// durations ("1m20s"), and Kusto's custom format_datetime/format_timespan patterns. The
// printers are ../base/formatting.ts; this file gives DuckDB's spellings.
import { quoteLiteral } from '../../../engines/duckdb/layout';
import { type FormattingSql, formatDateTimeSql as formatDateTime, formatTimespanSql as formatTimespan, goDurationSql as goDuration } from '../base/formatting';

/** RFC 3339 with trailing zeros of the fraction trimmed (Go's RFC3339Nano). */
export function rfc3339Sql(t: string): string {
  return `(rtrim(rtrim(strftime(${t}, '%Y-%m-%dT%H:%M:%S.%n'), '0'), '.') || 'Z')`;
}

const DUCKDB_FORMATTING: FormattingSql = {
  literal: quoteLiteral,
  text: (sql) => `CAST(${sql} AS VARCHAR)`,
  padded: (sql, width) => `lpad(CAST(${sql} AS VARCHAR), ${width}, '0')`,
  trimTrailingZeros: (sql) => `rtrim(${sql}, '0')`,
  quotient: (dividend, divisor) => `(${dividend} // ${divisor})`,
  concat: (pieces) => `concat(${pieces.join(', ')})`,
  year: (t) => `year(${t})`,
  month: (t) => `month(${t})`,
  day: (t) => `day(${t})`,
  hour: (t) => `hour(${t})`,
  minute: (t) => `minute(${t})`,
  second: (t) => `second(${t})`,
  nanosecondDigits: (t) => `strftime(${t}, '%n')`,
  meridiem: (t) => `strftime(${t}, '%p')`,
};

/** A nanosecond count printed as Go prints a time.Duration. */
export const goDurationSql = (x: string) => goDuration(DUCKDB_FORMATTING, x);

/** A TIMESTAMP_NS printed with a Kusto format_datetime pattern. */
export const formatDateTimeSql = (t: string, format: string) => formatDateTime(DUCKDB_FORMATTING, t, format);

/** Nanoseconds printed with a Kusto format_timespan pattern. */
export const formatTimespanSql = (x: string, format: string) => formatTimespan(DUCKDB_FORMATTING, x, format);
