// ClickHouse SQL that prints dates and durations the way APL does: RFC 3339 with nanoseconds, Go
// durations ("1m20s"), and Kusto's custom format_datetime/format_timespan patterns. Datetimes
// are Int64 nanoseconds here (see expressions.ts).
import { quoteLiteral } from '../../../events/clickhouse/layout';

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

const fraction = (whole: string, rest: string, digits: number) =>
  `concat(toString(${whole}), if(${rest} = 0, '', concat('.', replaceRegexpOne(leftPad(toString(${rest}), ${digits}, '0'), '0+$', ''))))`;

/** A nanosecond count printed as Go prints a time.Duration. */
export function goDurationSql(x: string): string {
  const abs = `abs(${x})`;
  const sign = `if(${x} < 0, '-', '')`;
  const hours = `intDiv(${abs}, 3600000000000)`;
  const minutes = `(intDiv(${abs}, 60000000000) % 60)`;
  const seconds = fraction(`(intDiv(${abs}, 1000000000) % 60)`, `(${abs} % 1000000000)`, 9);
  return `multiIf(${x} IS NULL, NULL, ${x} = 0, '0s',
    ${abs} < 1000, concat(${sign}, toString(${abs}), 'ns'),
    ${abs} < 1000000, concat(${sign}, ${fraction(`intDiv(${abs}, 1000)`, `(${abs} % 1000)`, 3)}, 'µs'),
    ${abs} < 1000000000, concat(${sign}, ${fraction(`intDiv(${abs}, 1000000)`, `(${abs} % 1000000)`, 6)}, 'ms'),
    ${hours} > 0, concat(${sign}, toString(${hours}), 'h', toString(${minutes}), 'm', ${seconds}, 's'),
    ${minutes} > 0, concat(${sign}, toString(${minutes}), 'm', ${seconds}, 's'),
    concat(${sign}, ${seconds}, 's'))`;
}

/** Splits a Kusto format into runs of one specifier letter and literal text. */
function tokens(format: string, letters: string): { letter?: string; count: number; text?: string }[] {
  const result: { letter?: string; count: number; text?: string }[] = [];
  for (let i = 0; i < format.length; ) {
    const c = format[i]!;
    if (letters.includes(c)) {
      let j = i;
      while (format[j] === c) j++;
      result.push({ letter: c, count: j - i });
      i = j;
    } else if (c === '\\' && i + 1 < format.length) {
      result.push({ text: format[i + 1]!, count: 1 });
      i += 2;
    } else {
      result.push({ text: c, count: 1 });
      i++;
    }
  }
  return result;
}

const str = (sql: string) => `toString(${sql})`;
const pad = (sql: string, width: number) => `leftPad(toString(${sql}), ${width}, '0')`;

export function formatDateTimeSql(t: string, format: string): string {
  const d = asDateTime(t);
  const nanos = `leftPad(toString(${subsecond(t)}), 9, '0')`;
  const hour12 = `((toHour(${d}) + 11) % 12 + 1)`;
  const pieces = tokens(format, 'dfFhHmMstyz').map(({ letter, count, text }) => {
    if (text !== undefined) return quoteLiteral(text);
    switch (letter) {
      case 'y':
        return count >= 4 ? pad(`toYear(${d})`, count) : count === 2 ? pad(`toYear(${d}) % 100`, 2) : str(`toYear(${d}) % 100`);
      case 'M':
        return count >= 2 ? pad(`toMonth(${d})`, 2) : str(`toMonth(${d})`);
      case 'd':
        return count >= 2 ? pad(`toDayOfMonth(${d})`, 2) : str(`toDayOfMonth(${d})`);
      case 'H':
        return count >= 2 ? pad(`toHour(${d})`, 2) : str(`toHour(${d})`);
      case 'h':
        return count >= 2 ? pad(hour12, 2) : str(hour12);
      case 'm':
        return count >= 2 ? pad(`toMinute(${d})`, 2) : str(`toMinute(${d})`);
      case 's':
        return count >= 2 ? pad(`toSecond(${d})`, 2) : str(`toSecond(${d})`);
      case 'f':
        return `left(${nanos}, ${Math.min(count, 9)})`;
      case 'F':
        return `replaceRegexpOne(left(${nanos}, ${Math.min(count, 9)}), '0+$', '')`;
      case 't':
        return count >= 2 ? `formatDateTime(${d}, '%p', 'UTC')` : `left(formatDateTime(${d}, '%p', 'UTC'), 1)`;
      default:
        return quoteLiteral(letter!.repeat(count));
    }
  });
  return `if(${t} IS NULL, NULL, concat(${pieces.join(', ')}, ''))`;
}

export function formatTimespanSql(x: string, format: string): string {
  const abs = `abs(${x})`;
  const parts: Record<string, string> = {
    d: `intDiv(${abs}, 86400000000000)`,
    h: `(intDiv(${abs}, 3600000000000) % 24)`,
    m: `(intDiv(${abs}, 60000000000) % 60)`,
    s: `(intDiv(${abs}, 1000000000) % 60)`,
  };
  const nanos = `leftPad(toString(${abs} % 1000000000), 9, '0')`;
  const pieces = tokens(format, 'dhHmsfF').map(({ letter, count, text }) => {
    if (text !== undefined) return quoteLiteral(text);
    const key = letter === 'H' ? 'h' : letter!;
    if (key === 'f') return `left(${nanos}, ${Math.min(count, 9)})`;
    if (key === 'F') return `replaceRegexpOne(left(${nanos}, ${Math.min(count, 9)}), '0+$', '')`;
    return count >= 2 ? pad(parts[key]!, count) : str(parts[key]!);
  });
  return `if(${x} IS NULL, NULL, concat(if(${x} < 0, '-', ''), ${pieces.join(', ')}))`;
}
