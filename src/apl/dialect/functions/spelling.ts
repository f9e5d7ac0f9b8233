// How an engine spells the pieces the shared function rules are built from. The base class writes
// portable SQL (CASE, COALESCE, CAST, IS DISTINCT FROM); each engine's subclass overrides what it
// writes differently (names of functions, casts, regexes, integer division, datetimes) and
// supplies what has no portable form. A rule written with these reads the same for every engine.
import type { ConstantWriter } from './rule';

/** Where a LIKE pattern anchors a needle. */
export type NeedlePlace = 'contains' | 'starts_with' | 'ends_with';

export abstract class SqlSpelling {
  /** Function names the engine spells differently from the portable name (`ln` → `log`). */
  protected readonly names: Readonly<Record<string, string>> = {};
  /** JSON kinds (named as `json_type` names them: ARRAY, OBJECT, VARCHAR, ...) as the engine names them. */
  protected readonly jsonKindNames: Readonly<Record<string, string>> = {};

  readonly true: string = 'TRUE';
  readonly false: string = 'FALSE';
  /** The inequality operator. */
  readonly notEqual: string = '<>';

  /** A call of a function under its portable name. */
  call(name: string, ...args: string[]): string {
    return `${this.names[name] ?? name}(${args.join(', ')})`;
  }

  /** `value` where `condition` holds, else null. */
  nullUnless(condition: string, value: string): string {
    return `CASE WHEN ${condition} THEN ${value} END`;
  }

  iff(condition: string, then: string, otherwise: string): string {
    return `CASE WHEN ${condition} THEN ${then} ELSE ${otherwise} END`;
  }

  /** The value of the first branch whose condition holds, else `otherwise` (null when undefined). */
  caseWhen(branches: readonly (readonly [string, string])[], otherwise: string | undefined): string {
    const whens = branches.map(([condition, value]) => `WHEN ${condition} THEN ${value}`).join(' ');
    return otherwise === undefined ? `CASE ${whens} END` : `CASE ${whens} ELSE ${otherwise} END`;
  }

  ifNull(x: string, fallback: string): string {
    return `coalesce(${x}, ${fallback})`;
  }

  isDistinctFrom(x: string, y: string): string {
    return `(${x} IS DISTINCT FROM ${y})`;
  }

  /** `subject` equal to one of `items` (each a SQL value), with SQL's IN semantics for nulls. */
  inList(subject: string, items: readonly string[]): string {
    return `(${subject} IN (${items.join(', ')}))`;
  }

  /** A value held as text (dynamic JSON) as a string. */
  asText(x: string): string {
    return `CAST(${x} AS VARCHAR)`;
  }

  toDouble(x: string): string {
    return `CAST(${x} AS DOUBLE)`;
  }

  toBigint(x: string): string {
    return `CAST(${x} AS BIGINT)`;
  }

  /** An integer widened to 128 bits, for products that may pass 64. */
  toInt128(x: string): string {
    return `CAST(${x} AS HUGEINT)`;
  }

  /** A number as a 64-bit integer, null where it does not fit. */
  toBigintOrNull(x: string): string {
    return `TRY_CAST(${x} AS BIGINT)`;
  }

  /** A divisor as written under `/` or `%`: engines that fail or give infinities on zero make it null. */
  divisor(y: string): string {
    return y;
  }

  /** Integer division, truncating toward zero. */
  abstract intDiv(x: string, y: string): string;

  /** The remainder of a real division. */
  abstract realMod(x: string, y: string): string;

  /** The type name of a JSON value, as `jsonKind` spells it. */
  abstract jsonType(x: string): string;

  /** A JSON kind (ARRAY, OBJECT, VARCHAR, BIGINT, UBIGINT, DOUBLE, BOOLEAN, NULL) as `jsonType` names it. */
  jsonKind(kind: string): string {
    return this.jsonKindNames[kind] ?? kind;
  }

  /** Epoch nanoseconds of a datetime. */
  abstract nanosOf(t: string): string;

  /** The datetime at a count of epoch nanoseconds. */
  abstract datetimeOfNanos(nanos: string): string;

  /** Floor division of nanoseconds by a fixed unit, correct before 1970 too. */
  abstract floorDiv(nanos: string, unit: bigint): string;

  /** A calendar part of a datetime (year, quarter, month, week_of_year, day, dayofyear, dayofweek, hour, minute, second) as a 64-bit integer. */
  abstract calendarPart(part: string, t: string): string;

  /** Whole calendar periods (month, quarter, year) from `from` to `to`. */
  abstract calendarDiff(part: string, from: string, to: string): string;

  /** A datetime printed with a Kusto format_datetime pattern. */
  abstract formatDateTime(t: string, format: string): string;

  /** A timespan printed with a Kusto format_timespan pattern. */
  abstract formatTimespan(x: string, format: string): string;

  /** True where `needle` occurs in `subject` (case-sensitive). */
  abstract contains(subject: string, needle: string): string;

  /** True where the constant `term` occurs in `subject`, ignoring case: the cheap test before a term regex. */
  abstract containsIgnoringCase(w: ConstantWriter, subject: string, term: string): string;

  /** True where the constant `needle` occurs in `subject` at `place`, ignoring case. */
  abstract likeIgnoringCase(w: ConstantWriter, subject: string, needle: string, place: NeedlePlace): string;

  /** True where `pattern` (RE2) matches part of `subject`; `perRow` marks a pattern computed per row. */
  regexMatches(subject: string, pattern: string, perRow = false): string {
    const test = this.call('regexp_matches', subject, pattern);
    return perRow ? this.perRowRegex(test) : test;
  }

  /** `subject` with the first match of `pattern` replaced. */
  abstract regexReplaceFirst(subject: string, pattern: string, replacement: string): string;

  /** SQL using a regex computed per row: engines that fail the query on a pattern that does not compile make it null instead. */
  perRowRegex(sql: string): string {
    return sql;
  }
}
