// Conversions between APL types: implicit ones (`cast`) and the to*() functions (`convert`),
// which give null for a value that does not convert instead of failing the query. Numbers,
// booleans and datetimes convert the same way on every engine; reading text and JSON, and
// writing JSON, are each engine's own (`ValueCodecs`).
import type { AplType } from '../../semantic/plan';
import type { RuleTable } from './rule';
import type { SqlSpelling } from './spelling';

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export type Converter = (x: string, from: AplType, to: AplType, explicit: boolean) => string;

/** How an engine reads and writes values as text and JSON. */
export interface ValueCodecs {
  /** The SQL type holding a value of an APL type (null allowed). */
  nullableType(type: AplType): string;
  /** A value's text as the engine prints it (numbers, text itself). */
  text(x: string): string;
  /** A bool as text in an implicit conversion: 'true', 'false', or null. */
  boolText(x: string): string;
  /** A datetime as RFC 3339 text. */
  datetimeText(x: string): string;
  /** A timespan as a Go duration ("1m20s"). */
  timespanText(x: string): string;
  /** The text of a JSON value: strings unquoted, JSON null as null. */
  jsonText(x: string): string;
  /** A value of type `from` as a dynamic (JSON) value. */
  toDynamic(x: string, from: AplType, explicit: boolean): string;
  /** A dynamic value as type `to`. */
  fromDynamic(x: string, to: AplType, explicit: boolean): string;
  /** Text read as type `to` (null where it does not parse). */
  fromText(x: string, to: AplType): string;
}

export function converter(sql: SqlSpelling, codecs: ValueCodecs): Converter {
  /** A real printed as APL prints it: whole numbers without a fraction. */
  const realText = (x: string) =>
    sql.iff(`${sql.call('isfinite', x)} AND ${x} = trunc(${x}) AND abs(${x}) < 1e15`, codecs.text(sql.toBigint(x)), codecs.text(x));

  function textOf(x: string, from: AplType, explicit: boolean): string {
    switch (from) {
      case 'real':
        return realText(x);
      case 'bool':
        // tostring(bool) of a missing value is "false"; a cast keeps null.
        return explicit ? sql.iff(x, `'true'`, `'false'`) : codecs.boolText(x);
      case 'datetime':
        return codecs.datetimeText(x);
      case 'timespan':
        return codecs.timespanText(x);
      case 'dynamic':
        return codecs.jsonText(x);
      default:
        return codecs.text(x);
    }
  }

  return function convertSql(x, from, to, explicit) {
    if (from === to) return x;
    if (from === 'null') return `CAST(${x} AS ${codecs.nullableType(to)})`;
    // tostring(null) is the empty string.
    if (to === 'string') return explicit ? sql.ifNull(textOf(x, from, explicit), `''`) : textOf(x, from, explicit);
    if (to === 'dynamic') return codecs.toDynamic(x, from, explicit);
    if (from === 'dynamic') return codecs.fromDynamic(x, to, explicit);
    if (from === 'string') return codecs.fromText(x, to);
    switch (to) {
      case 'int':
        if (from === 'real') return sql.toBigintOrNull(`trunc(${x})`);
        return sql.toBigint(from === 'datetime' ? sql.nanosOf(x) : x);
      case 'real':
        return sql.toDouble(from === 'datetime' ? sql.nanosOf(x) : x);
      case 'bool':
        // A datetime is true unless it is the epoch itself.
        return `(${from === 'datetime' ? sql.nanosOf(x) : x} ${sql.notEqual} 0)`;
      case 'timespan':
        if (from === 'real') return sql.toBigintOrNull(`trunc(${x})`);
        return sql.toBigint(x);
      case 'datetime':
        // Numbers are nanoseconds since the epoch.
        if (from === 'int') return sql.datetimeOfNanos(x);
        if (from === 'real') return sql.datetimeOfNanos(sql.toBigintOrNull(`trunc(${x})`));
        return `CAST(NULL AS ${codecs.nullableType('datetime')})`;
      default:
        return `CAST(${x} AS ${codecs.nullableType(to)})`;
    }
  };
}

/** The conversion rules every engine writes with its converter. */
export function conversionRules(convertSql: Converter): RuleTable {
  return {
    cast: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, false),
    convert: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, true),
  };
}
