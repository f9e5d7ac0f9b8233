// SQL that prints dates and durations the way APL does, written once for every engine: Go
// durations ("1m20s") and Kusto's custom format_datetime/format_timespan patterns. An engine
// gives the few spellings that differ (text conversion, padding, integer division, calendar
// parts of its datetime representation); the layouts and the CASE logic are shared.
/** The engine's spellings the printers are built from. */
export interface FormattingSql {
  /** Literal text, quoted. */
  literal(text: string): string;
  /** A number as decimal text. */
  text(sql: string): string;
  /** A number as decimal text, left-padded with zeros to `width`. */
  padded(sql: string, width: number): string;
  /** Text without its trailing zeros. */
  trimTrailingZeros(sql: string): string;
  /** Integer division of non-negative numbers. */
  quotient(dividend: string, divisor: string): string;
  /** Text pieces joined (each piece is never null). */
  concat(pieces: string[]): string;
  /** Calendar parts of a datetime value (UTC). */
  year(t: string): string;
  month(t: string): string;
  day(t: string): string;
  hour(t: string): string;
  minute(t: string): string;
  second(t: string): string;
  /** The nanoseconds within the second as nine digits. */
  nanosecondDigits(t: string): string;
  /** 'AM' or 'PM'. */
  meridiem(t: string): string;
}

/** `whole` and, when `rest` is not zero, `.` and its `digits` digits without trailing zeros. */
function withFraction(f: FormattingSql, whole: string, rest: string, digits: number): string {
  return `concat(${f.text(whole)}, CASE WHEN ${rest} = 0 THEN '' ELSE '.' || ${f.trimTrailingZeros(f.padded(rest, digits))} END)`;
}

/** A nanosecond count printed as Go prints a time.Duration. */
export function goDurationSql(f: FormattingSql, x: string): string {
  const abs = `abs(${x})`;
  const sign = `CASE WHEN ${x} < 0 THEN '-' ELSE '' END`;
  const hours = f.quotient(abs, '3600000000000');
  const minutes = `(${f.quotient(abs, '60000000000')} % 60)`;
  const seconds = withFraction(f, `(${f.quotient(abs, '1000000000')} % 60)`, `(${abs} % 1000000000)`, 9);
  return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${x} = 0 THEN '0s'
    WHEN ${abs} < 1000 THEN concat(${sign}, ${f.text(abs)}, 'ns')
    WHEN ${abs} < 1000000 THEN concat(${sign}, ${withFraction(f, f.quotient(abs, '1000'), `(${abs} % 1000)`, 3)}, 'µs')
    WHEN ${abs} < 1000000000 THEN concat(${sign}, ${withFraction(f, f.quotient(abs, '1000000'), `(${abs} % 1000000)`, 6)}, 'ms')
    WHEN ${hours} > 0 THEN concat(${sign}, ${f.text(hours)}, 'h', ${f.text(minutes)}, 'm', ${seconds}, 's')
    WHEN ${minutes} > 0 THEN concat(${sign}, ${f.text(minutes)}, 'm', ${seconds}, 's')
    ELSE concat(${sign}, ${seconds}, 's') END`;
}

interface FormatToken {
  letter?: string;
  count: number;
  text?: string;
}

/** Splits a Kusto format into runs of one specifier letter and literal text. */
function tokens(format: string, letters: string): FormatToken[] {
  const result: FormatToken[] = [];
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

/** The first `count` digits of a fraction (`F`: without trailing zeros). */
function fractionDigits(f: FormattingSql, digits: string, letter: 'f' | 'F', count: number): string {
  const kept = `left(${digits}, ${Math.min(count, 9)})`;
  return letter === 'F' ? f.trimTrailingZeros(kept) : kept;
}

export function formatDateTimeSql(f: FormattingSql, t: string, format: string): string {
  const number = (sql: string, count: number) => (count >= 2 ? f.padded(sql, 2) : f.text(sql));
  const pieces = tokens(format, 'dfFhHmMstyz').map(({ letter, count, text }) => {
    if (text !== undefined) return f.literal(text);
    switch (letter) {
      case 'y':
        if (count >= 4) return f.padded(f.year(t), count);
        return count === 2 ? f.padded(`${f.year(t)} % 100`, 2) : f.text(`${f.year(t)} % 100`);
      case 'M':
        return number(f.month(t), count);
      case 'd':
        return number(f.day(t), count);
      case 'H':
        return number(f.hour(t), count);
      case 'h':
        return number(`(${f.hour(t)} + 11) % 12 + 1`, count);
      case 'm':
        return number(f.minute(t), count);
      case 's':
        return number(f.second(t), count);
      case 'f':
      case 'F':
        return fractionDigits(f, f.nanosecondDigits(t), letter, count);
      case 't':
        return count >= 2 ? f.meridiem(t) : `left(${f.meridiem(t)}, 1)`;
      default:
        return f.literal(letter!.repeat(count));
    }
  });
  return `CASE WHEN ${t} IS NULL THEN NULL ELSE ${f.concat(pieces)} END`;
}

export function formatTimespanSql(f: FormattingSql, x: string, format: string): string {
  const abs = `abs(${x})`;
  const parts: Record<string, string> = {
    d: f.quotient(abs, '86400000000000'),
    h: `(${f.quotient(abs, '3600000000000')} % 24)`,
    m: `(${f.quotient(abs, '60000000000')} % 60)`,
    s: `(${f.quotient(abs, '1000000000')} % 60)`,
  };
  const digits = f.padded(`${abs} % 1000000000`, 9);
  const pieces = tokens(format, 'dhHmsfF').map(({ letter, count, text }) => {
    if (text !== undefined) return f.literal(text);
    const key = letter === 'H' ? 'h' : letter!;
    if (key === 'f' || key === 'F') return fractionDigits(f, digits, key, count);
    return count >= 2 ? f.padded(parts[key]!, count) : f.text(parts[key]!);
  });
  return `CASE WHEN ${x} IS NULL THEN NULL ELSE ${f.concat([`CASE WHEN ${x} < 0 THEN '-' ELSE '' END`, ...pieces])} END`;
}
