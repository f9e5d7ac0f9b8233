// Conversions on ClickHouse: reading text and JSON text, writing JSON text, and the conversion
// functions of its own (the shared part is ../../functions/conversion.ts).
import type { AplType } from '../../../semantic/plan';
import { nullableType } from '../values';
import { goDurationSql, rfc3339Sql } from '../formatting';
import { jsonText, jsonType } from './json';
import { type Converter, conversionRules, converter, type ValueCodecs } from '../../functions/conversion';
import { bindSql, notNull, type RuleTable } from './rule';
import { CLICKHOUSE_SPELLING } from './spelling';

export const trimmed = (s: string) => `replaceRegexpAll(${s}, '^\\\\s+|\\\\s+$', '')`;

function stringTo(to: AplType, s: string): string {
  switch (to) {
    case 'int':
      return `if(match(${s}, '^\\\\s*[+-]?\\\\d+\\\\s*$'), toInt64OrNull(${trimmed(s)}), NULL)`;
    case 'real':
      return `toFloat64OrNull(${trimmed(s)})`;
    case 'bool':
      // The spellings Go's strconv.ParseBool accepts; anything else is null.
      return `multiIf(${s} IN ('true', 'True', 'TRUE', 't', 'T', '1'), true, ${s} IN ('false', 'False', 'FALSE', 'f', 'F', '0'), false, NULL)`;
    case 'datetime':
      return datetimeOfText(s);
    case 'timespan':
      return timespanOfText(s);
    case 'dynamic':
      return `toJSONString(${s})`;
    default:
      return s;
  }
}

/**
 * Text as a datetime: epoch digits (10 are seconds, 13 milliseconds, 16 microseconds, 19
 * nanoseconds), else ClickHouse's best-effort reading (ISO 8601, RFC 1123, US month-first dates
 * and the other common layouts); null when none fits.
 */
function datetimeOfText(text: string): string {
  const s = trimmed(text);
  const n = `toInt64OrNull(${s})`;
  const epoch = `multiIf(length(${s}) = 10, ${n} * 1000000000, length(${s}) = 13, ${n} * 1000000, length(${s}) = 16, ${n} * 1000, length(${s}) = 19, ${n}, NULL)`;
  const plain = `replaceRegexpOne(${s}, '\\\\s+(?:GMT|UTC)$', '')`;
  return `if(match(${s}, '^[0-9]+$'), ${epoch}, toUnixTimestamp64Nano(parseDateTime64BestEffortUSOrNull(${plain}, 9, 'UTC')))`;
}

/** Text as a timespan: `[-][d.]hh:mm[:ss[.fffffff]]`, or amounts with units (`1.5h`, `1h30m`, `90 seconds`). */
function timespanOfText(s: string): string {
  const clock = `extractGroups(${notNull(s)}, '^\\\\s*(-?)(?:(\\\\d+)\\\\.)?(\\\\d+):(\\\\d+)(?::(\\\\d+)(?:\\\\.(\\\\d{1,9}))?)?\\\\s*$')`;
  const fromClock = `arrayMap(g -> if(empty(g) OR g[3] = '', NULL, (if(g[1] = '-', -1, 1)) * (toInt64OrZero(g[2]) * 86400000000000 + toInt64(g[3]) * 3600000000000 + toInt64(g[4]) * 60000000000 + toInt64OrZero(g[5]) * 1000000000 + toInt64OrZero(rightPad(g[6], 9, '0')))), [${clock}])[1]`;
  const units = 'weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|milliseconds?|millis?|ms|microseconds?|us|µs|nanoseconds?|ns|seconds?|secs?|s|m';
  const amount = `\\s*([+-]?\\d+(?:\\.\\d*)?)\\s*(${units})\\s*`;
  const perUnit = `multiIf(g[2] IN ('w', 'week', 'weeks'), 604800e9, g[2] IN ('d', 'day', 'days'), 86400e9, g[2] IN ('h', 'hr', 'hrs', 'hour', 'hours'), 3600e9, g[2] IN ('m', 'min', 'mins', 'minute', 'minutes'), 60e9, g[2] IN ('s', 'sec', 'secs', 'second', 'seconds'), 1e9, g[2] IN ('ms', 'milli', 'millis', 'millisecond', 'milliseconds'), 1e6, g[2] IN ('us', 'µs', 'microsecond', 'microseconds'), 1e3, 1)`;
  const pairs = `extractAllGroupsVertical(${notNull(s)}, '${amount}')`;
  const fromUnit = `if(match(${s}, '^(?:${amount})+$'), accurateCastOrNull(round(arraySum(arrayMap(g -> toFloat64(g[1]) * ${perUnit}, ${pairs}))), 'Int64'), NULL)`;
  return `if(${s} IS NULL, NULL, coalesce(${fromClock}, ${fromUnit}))`;
}

/** A dynamic value (JSON text) as type `to`. */
function fromDynamic(x: string, to: AplType, explicit: boolean): string {
  const text = jsonText(x);
  const kind = jsonType(x);
  // Numbers in a dynamic value are epoch nanoseconds as datetimes, as for longs.
  if (to === 'datetime') return `if(${kind} IN ('Int64', 'UInt64', 'Double'), accurateCastOrNull(trunc(toFloat64OrNull(${x})), 'Int64'), ${stringTo(to, text)})`;
  if (to === 'bool') return `multiIf(${kind} = 'Bool', ${x} = 'true', ${kind} = 'String', ${stringTo('bool', text)}, ${kind} = 'Null', NULL, toFloat64OrNull(${x}) != 0)`;
  // todouble(true) is 1 as for a bool; implicit conversions leave a boolean out, as text.
  if (to === 'real' && explicit) return `if(${kind} = 'Bool', if(${x} = 'true', 1.0, 0.0), ${stringTo('real', text)})`;
  if (to === 'int') {
    return `multiIf(${kind} IN ('Int64', 'UInt64'), toInt64OrNull(${x}), ${kind} = 'Double', accurateCastOrNull(trunc(toFloat64OrNull(${x})), 'Int64'), ${kind} = 'Bool', if(${x} = 'true', toInt64(1), toInt64(0)), ${kind} = 'String', ${stringTo('int', text)}, NULL)`;
  }
  return stringTo(to, text);
}

/** A value of type `from` as JSON text. */
function toDynamic(x: string, from: AplType, explicit: boolean): string {
  switch (from) {
    case 'string':
      return explicit ? `if(isValidJSON(${x}), ${x}, toJSONString(${x}))` : `toJSONString(${x})`;
    case 'datetime':
      return `toJSONString(${rfc3339Sql(x)})`;
    case 'timespan':
      return `toJSONString(${goDurationSql(x)})`;
    case 'bool':
      return boolText(x);
    case 'real':
      return `if(isFinite(${x}), toString(${x}), NULL)`;
    default:
      return `toString(${x})`;
  }
}

/** A bool as text, null kept. */
const boolText = (x: string) => `multiIf(${x} IS NULL, NULL, ${x}, 'true', 'false')`;

const CLICKHOUSE_CODECS: ValueCodecs = {
  nullableType,
  text: (x) => `toString(${x})`,
  boolText,
  datetimeText: rfc3339Sql,
  timespanText: goDurationSql,
  jsonText,
  toDynamic,
  fromDynamic,
  fromText: (x, to) => stringTo(to, x),
};

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export const convertSql: Converter = converter(CLICKHOUSE_SPELLING, CLICKHOUSE_CODECS);

export const CONVERSION_RULES: RuleTable = {
  ...conversionRules(convertSql),
  json_parse_or_null: (_w, _e, a) => `if(isValidJSON(${a(0)}), ${a(0)}, NULL)`,
  toarray: (_w, _e, a) => {
    const values = `concat('[', arrayStringConcat(arrayMap(kv -> kv.2, JSONExtractKeysAndValuesRaw(${notNull(a(0))})), ','), ']')`;
    return `multiIf(${a(0)} IS NULL, '[]', ${jsonType(a(0))} = 'Array', ${a(0)}, ${jsonType(a(0))} = 'Object', ${values}, ${jsonType(a(0))} = 'Null', '[]', concat('[', ${a(0)}, ']'))`;
  },
  // ClickHouse writes whole bytes (0100); DuckDB, like Kusto, no leading zeros (100). The width
  // may be a column (leftPad wants a constant) and a null width pads nothing, as on DuckDB.
  tohex: (_w, _e, a) =>
    bindSql(`if(${a(0)} = 0, '0', trimLeft(lower(hex(${a(0)})), '0'))`, 'h', `concat(repeat('0', toUInt64(greatest(ifNull(${a(1)}, 0) - toInt64(length(h)), 0))), h)`),
};
