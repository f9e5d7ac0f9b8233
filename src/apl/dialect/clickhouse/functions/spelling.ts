// How ClickHouse spells the pieces of the shared function rules: datetimes are Int64 epoch
// nanoseconds, dynamic values JSON text, regexes RE2 through match, and a zero divisor gives null
// (as in DuckDB) instead of an infinity or an error.
import type { ConstantWriter } from '../../functions/rule';
import { asDateTime, floorDiv, formatDateTimeSql, formatTimespanSql } from '../formatting';
import { type NeedlePlace, SqlSpelling } from '../../functions/spelling';
import { jsonType } from './json';
import { safeDivisor } from './rule';

/** ClickHouse's functions for the calendar parts of a DateTime64. */
const CALENDAR_PARTS: Readonly<Record<string, string>> = {
  week_of_year: 'toISOWeek',
  year: 'toYear',
  quarter: 'toQuarter',
  month: 'toMonth',
  day: 'toDayOfMonth',
  dayofyear: 'toDayOfYear',
  hour: 'toHour',
  minute: 'toMinute',
  second: 'toSecond',
};

/** A LIKE pattern matching `needle` literally at the given place (backslash escapes, as ClickHouse reads them). */
function likePattern(needle: string, place: NeedlePlace): string {
  const text = needle.replace(/[%_\\]/g, '\\$&');
  return place === 'contains' ? `%${text}%` : place === 'starts_with' ? `${text}%` : `%${text}`;
}

class ClickHouseSpelling extends SqlSpelling {
  protected override readonly names: Readonly<Record<string, string>> = {
    lower: 'lowerUTF8',
    starts_with: 'startsWith',
    ends_with: 'endsWith',
    upper: 'upperUTF8',
    length: 'lengthUTF8',
    reverse: 'reverseUTF8',
    substring: 'substringUTF8',
    replace: 'replaceAll',
    regexp_matches: 'match',
    regexp_escape: 'regexpQuoteMeta',
    nullif: 'nullIf',
    ln: 'log',
    gamma: 'tgamma',
    isfinite: 'isFinite',
    isnan: 'isNaN',
    isinf: 'isInfinite',
    random: 'randCanonical',
    json_array_length: 'JSONLength',
  };
  /** DuckDB's json_type names, as the semantic layer asks for them, in ClickHouse's JSONType names. */
  protected override readonly jsonKindNames: Readonly<Record<string, string>> = {
    ARRAY: 'Array',
    OBJECT: 'Object',
    VARCHAR: 'String',
    BIGINT: 'Int64',
    UBIGINT: 'UInt64',
    DOUBLE: 'Double',
    BOOLEAN: 'Bool',
    NULL: 'Null',
  };

  override readonly true = 'true';
  override readonly false = 'false';
  override readonly notEqual = '!=';

  // ClickHouse has IS DISTINCT FROM only in a join's condition.
  override isDistinctFrom(x: string, y: string): string {
    return `ifNull(${x} != ${y}, isNull(${x}) != isNull(${y}))`;
  }

  override nullUnless(condition: string, value: string): string {
    return `if(${condition}, ${value}, NULL)`;
  }

  override iff(condition: string, then: string, otherwise: string): string {
    return `if(${condition}, ${then}, ${otherwise})`;
  }

  override caseWhen(branches: readonly (readonly [string, string])[], otherwise: string | undefined): string {
    return `multiIf(${branches.map(([condition, value]) => `${condition}, ${value}`).join(', ')}, ${otherwise ?? 'NULL'})`;
  }

  override ifNull(x: string, fallback: string): string {
    return `ifNull(${x}, ${fallback})`;
  }

  override inList(subject: string, items: readonly string[]): string {
    // An equality per item: NULL items and NULL subjects behave as in DuckDB's IN.
    return `(${items.map((item) => `${subject} = ${item}`).join(' OR ')})`;
  }

  // Dynamic values are JSON text already.
  override asText(x: string): string {
    return x;
  }

  override toDouble(x: string): string {
    return `toFloat64(${x})`;
  }

  override toBigint(x: string): string {
    return `toInt64(${x})`;
  }

  override toBigintOrNull(x: string): string {
    return `accurateCastOrNull(${x}, 'Int64')`;
  }

  override toInt128(x: string): string {
    return `toInt128(${x})`;
  }

  override divisor(y: string): string {
    return safeDivisor(y);
  }

  intDiv(x: string, y: string): string {
    return `intDiv(${x}, ${y})`;
  }

  realMod(x: string, y: string): string {
    return `(${x} % ${safeDivisor(y)})`;
  }

  jsonType(x: string): string {
    return jsonType(x);
  }

  nanosOf(t: string): string {
    return t;
  }

  datetimeOfNanos(nanos: string): string {
    return `(${nanos})`;
  }

  floorDiv(nanos: string, unit: bigint): string {
    return floorDiv(nanos, unit);
  }

  calendarPart(part: string, t: string): string {
    // Days of the week count from Monday = 1, as Kusto's do.
    if (part === 'dayofweek') return `toInt64(toDayOfWeek(${asDateTime(t)}, 2))`;
    const fn = CALENDAR_PARTS[part];
    if (!fn) throw new Error(`the ClickHouse dialect has no date part ${part}`);
    return `toInt64(${fn}(${asDateTime(t)}))`;
  }

  calendarDiff(part: string, from: string, to: string): string {
    return `toInt64(dateDiff('${part}', ${asDateTime(from)}, ${asDateTime(to)}))`;
  }

  formatDateTime(t: string, format: string): string {
    return formatDateTimeSql(t, format);
  }

  formatTimespan(x: string, format: string): string {
    return formatTimespanSql(x, format);
  }

  contains(subject: string, needle: string): string {
    return `(position(${subject}, ${needle}) > 0)`;
  }

  containsIgnoringCase(w: ConstantWriter, subject: string, term: string): string {
    return `(positionCaseInsensitiveUTF8(${subject}, ${w.text(term)}) > 0)`;
  }

  likeIgnoringCase(w: ConstantWriter, subject: string, needle: string, place: NeedlePlace): string {
    return `ilike(${subject}, ${w.text(likePattern(needle, place))})`;
  }

  regexReplaceFirst(subject: string, pattern: string, replacement: string): string {
    return `replaceRegexpOne(${subject}, ${pattern}, ${replacement})`;
  }
}

export const CLICKHOUSE_SPELLING: SqlSpelling = new ClickHouseSpelling();
