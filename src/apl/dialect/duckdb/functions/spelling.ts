// How DuckDB spells the pieces of the shared function rules: datetimes are TIMESTAMP_NS, dynamic
// values JSON, regexes RE2 through regexp_matches, `//` divides integers.
import type { ConstantWriter } from '../../functions/rule';
import { formatDateTimeSql, formatTimespanSql } from '../formatting';
import { type NeedlePlace, SqlSpelling } from '../../functions/spelling';

/** A LIKE pattern matching `needle` literally at the given place, and whether it needed escapes. */
function likePattern(needle: string, place: NeedlePlace): { pattern: string; escaped: boolean } {
  const escaped = /[%_\\]/.test(needle);
  const text = escaped ? needle.replace(/[%_\\]/g, '\\$&') : needle;
  const pattern = place === 'contains' ? `%${text}%` : place === 'starts_with' ? `${text}%` : `%${text}`;
  return { pattern, escaped };
}

class DuckDBSpelling extends SqlSpelling {
  protected override readonly names: Readonly<Record<string, string>> = { nullif: 'NULLIF' };

  intDiv(x: string, y: string): string {
    return `(${x} // ${y})`;
  }

  realMod(x: string, y: string): string {
    return `fmod(${x}, ${y})`;
  }

  jsonType(x: string): string {
    return `json_type(${x})`;
  }

  nanosOf(t: string): string {
    return `epoch_ns(${t})`;
  }

  datetimeOfNanos(nanos: string): string {
    return `make_timestamp_ns(${nanos})`;
  }

  floorDiv(nanos: string, unit: bigint): string {
    return `((${nanos}) // ${unit} - CASE WHEN (${nanos}) % ${unit} < 0 THEN 1 ELSE 0 END)`;
  }

  calendarPart(part: string, t: string): string {
    return part === 'week_of_year' ? `CAST(weekofyear(${t}) AS BIGINT)` : `CAST(${part}(${t}) AS BIGINT)`;
  }

  calendarDiff(part: string, from: string, to: string): string {
    return `date_diff('${part}', CAST(${from} AS TIMESTAMP), CAST(${to} AS TIMESTAMP))`;
  }

  formatDateTime(t: string, format: string): string {
    return formatDateTimeSql(t, format);
  }

  formatTimespan(x: string, format: string): string {
    return formatTimespanSql(x, format);
  }

  contains(subject: string, needle: string): string {
    return `contains(${subject}, ${needle})`;
  }

  containsIgnoringCase(w: ConstantWriter, subject: string, term: string): string {
    return `contains(lower(${subject}), ${w.text(term.toLowerCase())})`;
  }

  likeIgnoringCase(w: ConstantWriter, subject: string, needle: string, place: NeedlePlace): string {
    // ILIKE with a constant pattern is DuckDB's fastest case-insensitive substring test.
    const { pattern, escaped } = likePattern(needle, place);
    return `(${subject} ILIKE ${w.text(pattern)}${escaped ? ` ESCAPE '\\'` : ''})`;
  }

  regexReplaceFirst(subject: string, pattern: string, replacement: string): string {
    return `regexp_replace(${subject}, ${pattern}, ${replacement})`;
  }

  // A pattern computed per row that does not compile gives null in that row.
  override perRowRegex(sql: string): string {
    return `try(${sql})`;
  }
}

export const DUCKDB_SPELLING: SqlSpelling = new DuckDBSpelling();
