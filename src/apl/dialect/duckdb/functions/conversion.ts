// Conversions between APL types: implicit ones (`cast`) and the to*() functions (`convert`),
// which give null for a value that does not convert instead of failing the query.
import type { AplType } from '../../../semantic/plan';
import { SQL_TYPE } from '../values';
import { goDurationSql, rfc3339Sql } from '../formatting';
import { datetimeFromText, timespanFromText } from '../parsing';
import type { RuleTable } from './rule';

const STRICT_INTEGER = `'\\s*[+-]?\\d+\\s*'`;

function stringTo(to: AplType, s: string): string {
  switch (to) {
    case 'int':
      return `CASE WHEN regexp_full_match(${s}, ${STRICT_INTEGER}) THEN TRY_CAST(trim(${s}) AS BIGINT) END`;
    case 'real':
      return `TRY_CAST(${s} AS DOUBLE)`;
    case 'bool':
      // The spellings Go's strconv.ParseBool accepts; anything else is null.
      return `CASE ${s} WHEN 'true' THEN TRUE WHEN 'True' THEN TRUE WHEN 'TRUE' THEN TRUE WHEN 't' THEN TRUE WHEN 'T' THEN TRUE WHEN '1' THEN TRUE WHEN 'false' THEN FALSE WHEN 'False' THEN FALSE WHEN 'FALSE' THEN FALSE WHEN 'f' THEN FALSE WHEN 'F' THEN FALSE WHEN '0' THEN FALSE END`;
    case 'datetime':
      return datetimeFromText(s);
    case 'timespan':
      return timespanFromText(s);
    case 'dynamic':
      return `to_json(${s})`;
    default:
      return s;
  }
}

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export function convertSql(x: string, from: AplType, to: AplType, explicit: boolean): string {
  if (from === to) return x;
  if (from === 'null') return `CAST(${x} AS ${SQL_TYPE[to]})`;
  if (to === 'string') {
    const text = (() => {
      switch (from) {
        case 'int':
          return `CAST(${x} AS VARCHAR)`;
        case 'real':
          return `CASE WHEN isfinite(${x}) AND ${x} = trunc(${x}) AND abs(${x}) < 1e15 THEN CAST(CAST(${x} AS BIGINT) AS VARCHAR) ELSE CAST(${x} AS VARCHAR) END`;
        case 'bool':
          return explicit ? `CASE WHEN ${x} THEN 'true' ELSE 'false' END` : `CAST(${x} AS VARCHAR)`;
        case 'datetime':
          return rfc3339Sql(x);
        case 'timespan':
          return goDurationSql(x);
        case 'dynamic':
          return `json_extract_string(${x}, '$')`;
        default:
          return `CAST(${x} AS VARCHAR)`;
      }
    })();
    // tostring(null) is the empty string.
    return explicit ? `coalesce(${text}, '')` : text;
  }
  if (to === 'dynamic') {
    switch (from) {
      case 'string':
        return explicit ? `CASE WHEN json_valid(${x}) THEN CAST(${x} AS JSON) ELSE to_json(${x}) END` : `to_json(${x})`;
      case 'datetime':
        return `to_json(${rfc3339Sql(x)})`;
      case 'timespan':
        return `to_json(${goDurationSql(x)})`;
      default:
        return `to_json(${x})`;
    }
  }
  if (from === 'dynamic') {
    const text = `json_extract_string(${x}, '$')`;
    // Numbers in a dynamic value are epoch nanoseconds as datetimes, as for longs.
    if (to === 'datetime') return `CASE WHEN json_type(${x}) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN make_timestamp_ns(TRY_CAST(trunc(TRY_CAST(${text} AS DOUBLE)) AS BIGINT)) ELSE ${stringTo(to, text)} END`;
    if (to === 'bool') return `CASE json_type(${x}) WHEN 'BOOLEAN' THEN ${text} = 'true' WHEN 'VARCHAR' THEN ${stringTo('bool', text)} WHEN 'NULL' THEN NULL ELSE TRY_CAST(${text} AS DOUBLE) <> 0 END`;
    // todouble(true) is 1 as for a bool; implicit conversions (arithmetic, comparisons with
    // numbers) leave a boolean out, as they leave out text.
    if (to === 'real' && explicit) return `CASE json_type(${x}) WHEN 'BOOLEAN' THEN CASE WHEN ${text} = 'true' THEN 1.0 ELSE 0.0 END ELSE ${stringTo('real', text)} END`;
    if (to === 'int') {
      return `CASE json_type(${x}) WHEN 'BIGINT' THEN TRY_CAST(${text} AS BIGINT) WHEN 'UBIGINT' THEN TRY_CAST(${text} AS BIGINT) WHEN 'DOUBLE' THEN TRY_CAST(trunc(TRY_CAST(${text} AS DOUBLE)) AS BIGINT) WHEN 'BOOLEAN' THEN CASE WHEN ${text} = 'true' THEN 1 ELSE 0 END WHEN 'VARCHAR' THEN ${stringTo('int', text)} END`;
    }
    return stringTo(to, text);
  }
  if (from === 'string') return stringTo(to, x);
  switch (to) {
    case 'int':
      if (from === 'real') return `TRY_CAST(trunc(${x}) AS BIGINT)`;
      if (from === 'datetime') return `epoch_ns(${x})`;
      return `CAST(${x} AS BIGINT)`;
    case 'real':
      if (from === 'datetime') return `CAST(epoch_ns(${x}) AS DOUBLE)`;
      return `CAST(${x} AS DOUBLE)`;
    case 'bool':
      // A datetime is true unless it is the epoch itself.
      if (from === 'datetime') return `(epoch_ns(${x}) <> 0)`;
      return `(${x} <> 0)`;
    case 'timespan':
      if (from === 'real') return `TRY_CAST(trunc(${x}) AS BIGINT)`;
      return `CAST(${x} AS BIGINT)`;
    case 'datetime':
      // Numbers are nanoseconds since the epoch.
      if (from === 'int') return `make_timestamp_ns(${x})`;
      if (from === 'real') return `make_timestamp_ns(TRY_CAST(trunc(${x}) AS BIGINT))`;
      return `CAST(NULL AS TIMESTAMP_NS)`;
    default:
      return `CAST(${x} AS ${SQL_TYPE[to]})`;
  }
}

/** The keys of every object in order, at every depth: one text for equal values. */
const CANONICAL_JSON = 'apl_json_canonical';

export const CONVERSION_RULES: RuleTable = {
  cast: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, false),
  convert: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, true),
  json_parse_or_null: (_w, _e, a) => `CASE WHEN json_valid(${a(0)}) THEN CAST(${a(0)} AS JSON) END`,
  toarray: (_w, _e, a) =>
    `CASE WHEN ${a(0)} IS NULL THEN CAST('[]' AS JSON) ELSE CASE json_type(${a(0)}) WHEN 'ARRAY' THEN ${a(0)} WHEN 'OBJECT' THEN to_json(list_transform(json_keys(${a(0)}), lambda k: json_extract(${a(0)}, concat('$.', to_json(k))))) WHEN 'NULL' THEN CAST('[]' AS JSON) ELSE json_array(${a(0)}) END END`,
  tohex: (_w, _e, a) => `lpad(lower(hex(${a(0)})), CAST(greatest(${a(1)}, length(hex(${a(0)}))) AS INTEGER), '0')`,
  json_canonical: (_w, _e, a) => `${CANONICAL_JSON}(CAST(${a(0)} AS VARCHAR))`,
};
