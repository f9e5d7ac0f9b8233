// Conversions between APL types: implicit ones (`cast`) and the to*() functions (`convert`),
// which give null for a value that does not convert instead of failing the query.
import type { AplType } from '../../../semantic/plan';
import { nullableType } from '../expressions';
import { goDurationSql, rfc3339Sql } from '../formatting';
import { jsonText, jsonType } from './json';
import { notNull, type RuleTable } from './rule';

export const trimmed = (s: string) => `replaceRegexpAll(${s}, '^\\\\s+|\\\\s+$', '')`;

function stringTo(to: AplType, s: string): string {
  switch (to) {
    case 'int':
      return `if(match(${s}, '^\\\\s*[+-]?\\\\d+\\\\s*$'), toInt64OrNull(${trimmed(s)}), NULL)`;
    case 'real':
      return `toFloat64OrNull(${trimmed(s)})`;
    case 'bool':
      return `multiIf(lower(${trimmed(s)}) IN ('true', '1'), true, lower(${trimmed(s)}) IN ('false', '0'), false, NULL)`;
    case 'datetime':
      return `toUnixTimestamp64Nano(parseDateTime64BestEffortOrNull(${s}, 9, 'UTC'))`;
    case 'timespan':
      return timespanOfText(s);
    case 'dynamic':
      return `toJSONString(${s})`;
    default:
      return s;
  }
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

/** A real printed as APL prints it: whole numbers without a fraction. */
function realText(x: string): string {
  return `if(isFinite(${x}) AND ${x} = trunc(${x}) AND abs(${x}) < 1e15, toString(toInt64(${x})), toString(${x}))`;
}

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export function convertSql(x: string, from: AplType, to: AplType, explicit: boolean): string {
  if (from === to) return x;
  if (from === 'null') return `CAST(${x} AS ${nullableType(to)})`;
  if (to === 'string') {
    const text = (() => {
      switch (from) {
        case 'real':
          return realText(x);
        case 'bool':
          return `if(${x}, 'true', 'false')`;
        case 'datetime':
          return rfc3339Sql(x);
        case 'timespan':
          return goDurationSql(x);
        case 'dynamic':
          return jsonText(x);
        default:
          return `toString(${x})`;
      }
    })();
    // tostring(null) is the empty string.
    return explicit ? `ifNull(${text}, '')` : text;
  }
  if (to === 'dynamic') {
    switch (from) {
      case 'string':
        return explicit ? `if(isValidJSON(${x}), ${x}, toJSONString(${x}))` : `toJSONString(${x})`;
      case 'datetime':
        return `toJSONString(${rfc3339Sql(x)})`;
      case 'bool':
        return `if(${x}, 'true', 'false')`;
      case 'real':
        return `if(isFinite(${x}), toString(${x}), NULL)`;
      default:
        return `toString(${x})`;
    }
  }
  if (from === 'dynamic') {
    const text = jsonText(x);
    if (to === 'int') {
      return `multiIf(${jsonType(x)} IN ('Int64', 'UInt64'), toInt64OrNull(${x}), ${jsonType(x)} = 'Double', accurateCastOrNull(trunc(toFloat64OrNull(${x})), 'Int64'), ${jsonType(x)} = 'Bool', if(${x} = 'true', toInt64(1), toInt64(0)), ${jsonType(x)} = 'String', ${stringTo('int', text)}, NULL)`;
    }
    return stringTo(to, text);
  }
  if (from === 'string') return stringTo(to, x);
  switch (to) {
    case 'int':
      if (from === 'real') return `accurateCastOrNull(trunc(${x}), 'Int64')`;
      return `toInt64(${x})`;
    case 'real':
      return `toFloat64(${x})`;
    case 'bool':
      return `(${x} != 0)`;
    case 'timespan':
      if (from === 'real') return `accurateCastOrNull(trunc(${x}), 'Int64')`;
      return `toInt64(${x})`;
    case 'datetime':
      return `CAST(NULL AS Nullable(Int64))`;
    default:
      return `CAST(${x} AS ${nullableType(to)})`;
  }
}

export const CONVERSION_RULES: RuleTable = {
  cast: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, false),
  convert: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, true),
};
