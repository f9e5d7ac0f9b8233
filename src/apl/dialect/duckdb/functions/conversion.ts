// Conversions between APL types: implicit ones (`cast`) and the to*() functions (`convert`),
// which give null for a value that does not convert instead of failing the query.
import type { AplType } from '../../../semantic/plan';
import { SQL_TYPE } from '../expressions';
import { goDurationSql, rfc3339Sql } from '../formatting';
import type { RuleTable } from './rule';

const STRICT_INTEGER = `'\\s*[+-]?\\d+\\s*'`;

function stringTo(to: AplType, s: string): string {
  switch (to) {
    case 'int':
      return `CASE WHEN regexp_full_match(${s}, ${STRICT_INTEGER}) THEN TRY_CAST(trim(${s}) AS BIGINT) END`;
    case 'real':
      return `TRY_CAST(${s} AS DOUBLE)`;
    case 'bool':
      return `CASE lower(trim(${s})) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE WHEN '1' THEN TRUE WHEN '0' THEN FALSE END`;
    case 'datetime':
      return `TRY_CAST(${s} AS TIMESTAMP_NS)`;
    case 'timespan':
      return `CAST(round(epoch(TRY_CAST(${s} AS INTERVAL)) * 1000000000) AS BIGINT)`;
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
      default:
        return `to_json(${x})`;
    }
  }
  if (from === 'dynamic') {
    const text = `json_extract_string(${x}, '$')`;
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
      return `(${x} <> 0)`;
    case 'timespan':
      if (from === 'real') return `TRY_CAST(trunc(${x}) AS BIGINT)`;
      return `CAST(${x} AS BIGINT)`;
    case 'datetime':
      return `CAST(NULL AS TIMESTAMP_NS)`;
    default:
      return `CAST(${x} AS ${SQL_TYPE[to]})`;
  }
}

// ---- dates ------------------------------------------------------------------------------------

export const CONVERSION_RULES: RuleTable = {
  cast: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, false),
  convert: (_w, e, a) => convertSql(a(0), e.args[0]!.type, e.type, true),
};
