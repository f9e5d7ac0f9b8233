// ClickHouse SQL that prints dates and durations the way APL does: RFC 3339 with nanoseconds, Go
// durations ("1m20s"), and Kusto's custom format_datetime/format_timespan patterns. Datetimes
// are Int64 nanoseconds here (see expressions.ts). The printers are ../base/formatting.ts; this
// file gives ClickHouse's spellings and its own RFC 3339 forms.
import { quoteLiteral } from '../../../engines/clickhouse/layout';
import { type FormattingSql, formatDateTimeSql as formatDateTime, formatTimespanSql as formatTimespan, goDurationSql as goDuration } from '../base/formatting';

/** Floor division of nanoseconds, correct before 1970 too. */
export const floorDiv = (x: string, unit: bigint | string) => `(intDiv(${x}, ${unit}) - if(((${x}) % ${unit}) < 0, 1, 0))`;

/** The non-negative nanoseconds within the second. */
const subsecond = (t: string) => `(((${t}) % 1000000000 + 1000000000) % 1000000000)`;

/** A nanosecond time as ClickHouse's DateTime64(9, 'UTC'), for calendar functions. */
export const asDateTime = (t: string) => `fromUnixTimestamp64Nano(${t}, 'UTC')`;

/** RFC 3339 with trailing zeros of the fraction trimmed (Go's RFC3339Nano). */
export function rfc3339Sql(t: string): string {
  const fraction = `leftPad(toString(${subsecond(t)}), 9, '0')`;
  return `if(${t} IS NULL, NULL, concat(formatDateTime(${asDateTime(t)}, '%Y-%m-%dT%H:%i:%S', 'UTC'), if(${subsecond(t)} = 0, '', concat('.', replaceRegexpOne(${fraction}, '0+$', ''))), 'Z'))`;
}

/** DuckDB's text for a TIMESTAMP_NS ("2024-05-01 00:00:01.5"), which its JSON conversion of lists writes. */
export function timestampTextSql(t: string): string {
  const fraction = `leftPad(toString(${subsecond(t)}), 9, '0')`;
  return `if(${t} IS NULL, NULL, concat(formatDateTime(${asDateTime(t)}, '%Y-%m-%d %H:%i:%S', 'UTC'), if(${subsecond(t)} = 0, '', concat('.', replaceRegexpOne(${fraction}, '0+$', '')))))`;
}

const CLICKHOUSE_FORMATTING: FormattingSql = {
  literal: quoteLiteral,
  text: (sql) => `toString(${sql})`,
  padded: (sql, width) => `leftPad(toString(${sql}), ${width}, '0')`,
  trimTrailingZeros: (sql) => `replaceRegexpOne(${sql}, '0+$', '')`,
  quotient: (dividend, divisor) => `intDiv(${dividend}, ${divisor})`,
  // concat needs two arguments at least.
  concat: (pieces) => `concat(${[...pieces, "''"].join(', ')})`,
  year: (t) => `toYear(${asDateTime(t)})`,
  month: (t) => `toMonth(${asDateTime(t)})`,
  day: (t) => `toDayOfMonth(${asDateTime(t)})`,
  hour: (t) => `toHour(${asDateTime(t)})`,
  minute: (t) => `toMinute(${asDateTime(t)})`,
  second: (t) => `toSecond(${asDateTime(t)})`,
  nanosecondDigits: (t) => `leftPad(toString(${subsecond(t)}), 9, '0')`,
  meridiem: (t) => `formatDateTime(${asDateTime(t)}, '%p', 'UTC')`,
};

/** A nanosecond count printed as Go prints a time.Duration. */
export const goDurationSql = (x: string) => goDuration(CLICKHOUSE_FORMATTING, x);

/** A nanosecond time printed with a Kusto format_datetime pattern. */
export const formatDateTimeSql = (t: string, format: string) => formatDateTime(CLICKHOUSE_FORMATTING, t, format);

/** Nanoseconds printed with a Kusto format_timespan pattern. */
export const formatTimespanSql = (x: string, format: string) => formatTimespan(CLICKHOUSE_FORMATTING, x, format);
