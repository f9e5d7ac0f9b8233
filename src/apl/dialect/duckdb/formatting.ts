// SQL that prints dates and durations the way APL does: RFC 3339 with nanoseconds, Go
// durations ("1m20s"), and Kusto's custom format_datetime/format_timespan patterns.
import { quoteLiteral } from '../../../events/layout';

/** RFC 3339 with trailing zeros of the fraction trimmed (Go's RFC3339Nano). */
export function rfc3339Sql(t: string): string {
  return `(rtrim(rtrim(strftime(${t}, '%Y-%m-%dT%H:%M:%S.%n'), '0'), '.') || 'Z')`;
}

const fraction = (whole: string, rest: string, digits: number) =>
  `concat(CAST(${whole} AS VARCHAR), CASE WHEN ${rest} = 0 THEN '' ELSE '.' || rtrim(lpad(CAST(${rest} AS VARCHAR), ${digits}, '0'), '0') END)`;

/** A nanosecond count printed as Go prints a time.Duration. */
export function goDurationSql(x: string): string {
  const abs = `abs(${x})`;
  const sign = `CASE WHEN ${x} < 0 THEN '-' ELSE '' END`;
  const hours = `(${abs} // 3600000000000)`;
  const minutes = `((${abs} // 60000000000) % 60)`;
  const seconds = fraction(`((${abs} // 1000000000) % 60)`, `(${abs} % 1000000000)`, 9);
  return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${x} = 0 THEN '0s'
    WHEN ${abs} < 1000 THEN concat(${sign}, CAST(${abs} AS VARCHAR), 'ns')
    WHEN ${abs} < 1000000 THEN concat(${sign}, ${fraction(`(${abs} // 1000)`, `(${abs} % 1000)`, 3)}, 'µs')
    WHEN ${abs} < 1000000000 THEN concat(${sign}, ${fraction(`(${abs} // 1000000)`, `(${abs} % 1000000)`, 6)}, 'ms')
    WHEN ${hours} > 0 THEN concat(${sign}, CAST(${hours} AS VARCHAR), 'h', CAST(${minutes} AS VARCHAR), 'm', ${seconds}, 's')
    WHEN ${minutes} > 0 THEN concat(${sign}, CAST(${minutes} AS VARCHAR), 'm', ${seconds}, 's')
    ELSE concat(${sign}, ${seconds}, 's') END`;
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

const str = (sql: string) => `CAST(${sql} AS VARCHAR)`;
const pad = (sql: string, width: number) => `lpad(CAST(${sql} AS VARCHAR), ${width}, '0')`;

export function formatDateTimeSql(t: string, format: string): string {
  const nanos = `strftime(${t}, '%n')`;
  const pieces = tokens(format, 'dfFhHmMstyz').map(({ letter, count, text }) => {
    if (text !== undefined) return quoteLiteral(text);
    switch (letter) {
      case 'y':
        return count >= 4 ? pad(`year(${t})`, count) : count === 2 ? pad(`year(${t}) % 100`, 2) : str(`year(${t}) % 100`);
      case 'M':
        return count >= 2 ? pad(`month(${t})`, 2) : str(`month(${t})`);
      case 'd':
        return count >= 2 ? pad(`day(${t})`, 2) : str(`day(${t})`);
      case 'H':
        return count >= 2 ? pad(`hour(${t})`, 2) : str(`hour(${t})`);
      case 'h':
        return count >= 2 ? pad(`(hour(${t}) + 11) % 12 + 1`, 2) : str(`(hour(${t}) + 11) % 12 + 1`);
      case 'm':
        return count >= 2 ? pad(`minute(${t})`, 2) : str(`minute(${t})`);
      case 's':
        return count >= 2 ? pad(`second(${t})`, 2) : str(`second(${t})`);
      case 'f':
        return `left(${nanos}, ${Math.min(count, 9)})`;
      case 'F':
        return `rtrim(left(${nanos}, ${Math.min(count, 9)}), '0')`;
      case 't':
        return count >= 2 ? `strftime(${t}, '%p')` : `left(strftime(${t}, '%p'), 1)`;
      default:
        return quoteLiteral(letter!.repeat(count));
    }
  });
  return `CASE WHEN ${t} IS NULL THEN NULL ELSE concat(${pieces.join(', ')}) END`;
}

export function formatTimespanSql(x: string, format: string): string {
  const abs = `abs(${x})`;
  const parts: Record<string, string> = {
    d: `(${abs} // 86400000000000)`,
    h: `((${abs} // 3600000000000) % 24)`,
    m: `((${abs} // 60000000000) % 60)`,
    s: `((${abs} // 1000000000) % 60)`,
  };
  const nanos = `lpad(CAST(${abs} % 1000000000 AS VARCHAR), 9, '0')`;
  const pieces = tokens(format, 'dhHmsfF').map(({ letter, count, text }) => {
    if (text !== undefined) return quoteLiteral(text);
    const key = letter === 'H' ? 'h' : letter!;
    if (key === 'f') return `left(${nanos}, ${Math.min(count, 9)})`;
    if (key === 'F') return `rtrim(left(${nanos}, ${Math.min(count, 9)}), '0')`;
    return count >= 2 ? pad(parts[key]!, count) : str(parts[key]!);
  });
  return `CASE WHEN ${x} IS NULL THEN NULL ELSE concat(CASE WHEN ${x} < 0 THEN '-' ELSE '' END, ${pieces.join(', ')}) END`;
}
