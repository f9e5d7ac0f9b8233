// SQL that reads datetimes and timespans from text the way APL's conversions do: many common
// date layouts (ISO 8601, RFC 1123, US and European dates, epoch digits), Go durations
// ("1h30m", "-1.5h", "300ms") and Kusto timespans ("1.02:03:04.5"). Text that matches none
// gives null.

/** Layouts tried after ISO 8601, without and with a zone (try_strptime takes several at once). */
const LAYOUTS = [
  '%Y/%m/%d %H:%M:%S', '%Y/%m/%d %H:%M', '%Y/%m/%d',
  '%m/%d/%Y %H:%M:%S', '%m/%d/%Y %H:%M', '%m/%d/%Y', '%m/%d/%Y %I:%M:%S %p', '%m/%d/%Y %I:%M %p',
  '%d.%m.%Y %H:%M:%S', '%d.%m.%Y',
  '%d %b %Y %H:%M:%S', '%d %b %Y', '%d %B %Y',
  '%b %d, %Y %H:%M:%S', '%b %d, %Y', '%B %d, %Y', '%b %d %Y', '%B %d %Y',
  '%a, %d %b %Y %H:%M:%S', '%a %b %d %H:%M:%S %Y', '%d/%b/%Y:%H:%M:%S',
  '%Y%m%d', '%Y%m%dT%H%M%S',
];
const ZONED_LAYOUTS = ['%a, %d %b %Y %H:%M:%S %z', '%d/%b/%Y:%H:%M:%S %z', '%a %b %d %H:%M:%S %z %Y', '%Y-%m-%d %H:%M:%S %z', '%d %b %Y %H:%M:%S %z'];

const list = (items: string[]) => `[${items.map((item) => `'${item}'`).join(', ')}]`;

/** Epoch digits: 10 are seconds, 13 milliseconds, 16 microseconds, 19 nanoseconds. */
function epochDigits(s: string): string {
  const n = `TRY_CAST(${s} AS BIGINT)`;
  return `CASE length(${s}) WHEN 10 THEN ${n} * 1000000000 WHEN 13 THEN ${n} * 1000000 WHEN 16 THEN ${n} * 1000 WHEN 19 THEN ${n} END`;
}

export function datetimeFromText(text: string): string {
  const s = `trim(${text})`;
  // ' GMT' and ' UTC' suffixes name the zone the layouts already assume.
  const plain = `regexp_replace(${s}, '\\s+(?:GMT|UTC)$', '')`;
  return `coalesce(
    TRY_CAST(${s} AS TIMESTAMP_NS),
    CASE WHEN regexp_full_match(${s}, '[0-9]+') THEN make_timestamp_ns(${epochDigits(s)}) END,
    CAST(try_strptime(${plain}, ${list(LAYOUTS)}) AS TIMESTAMP_NS),
    CAST(timezone('UTC', try_strptime(${s}, ${list(ZONED_LAYOUTS)})) AS TIMESTAMP_NS))`;
}

const GO_DURATION = `[-+]?(?:[0-9]*\\.?[0-9]+(?:ns|us|µs|ms|s|m|h|d))+`;
const KUSTO_TIMESPAN = `^(-?)(?:([0-9]+)\\.)?([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]{1,9}))?)?$`;
const UNIT_NANOS = `CASE u WHEN 'ns' THEN 1 WHEN 'us' THEN 1000 WHEN 'µs' THEN 1000 WHEN 'ms' THEN 1000000 WHEN 's' THEN 1000000000 WHEN 'm' THEN 60000000000 WHEN 'h' THEN 3600000000000 WHEN 'd' THEN 86400000000000 END`;

/** Nanoseconds of a Go duration, a Kusto timespan, or an interval DuckDB reads ('2 hours'). */
export function timespanFromText(text: string): string {
  const s = `trim(${text})`;
  const part = `([0-9]*\\.?[0-9]+)(ns|us|µs|ms|s|m|h|d)`;
  const numbers = `regexp_extract_all(${s}, '${part}', 1)`;
  const units = `regexp_extract_all(${s}, '${part}', 2)`;
  const go = `CAST(round(list_sum(list_transform(range(len(${numbers})), lambda i: list_transform([${units}[i + 1]], lambda u: CAST(${numbers}[i + 1] AS DOUBLE) * ${UNIT_NANOS})[1]))) AS BIGINT) * CASE WHEN starts_with(${s}, '-') THEN -1 ELSE 1 END`;
  const k = `regexp_extract(${s}, '${KUSTO_TIMESPAN}', ['sign', 'd', 'h', 'm', 's', 'f'])`;
  const kusto = `list_transform([${k}], lambda t: (coalesce(TRY_CAST(t.d AS BIGINT), 0) * 86400000000000 + CAST(t.h AS BIGINT) * 3600000000000 + CAST(t.m AS BIGINT) * 60000000000 + coalesce(TRY_CAST(t.s AS BIGINT), 0) * 1000000000 + coalesce(TRY_CAST(rpad(t.f, 9, '0') AS BIGINT), 0)) * CASE WHEN t.sign = '-' THEN -1 ELSE 1 END)[1]`;
  const interval = `CAST(round(epoch(TRY_CAST(${s} AS INTERVAL)) * 1000000000) AS BIGINT)`;
  return `CASE WHEN regexp_full_match(${s}, '${GO_DURATION}') THEN ${go}
    WHEN regexp_full_match(${s}, '${KUSTO_TIMESPAN}') THEN ${kusto}
    WHEN regexp_matches(${s}, '[A-Za-z]') THEN ${interval} END`;
}
