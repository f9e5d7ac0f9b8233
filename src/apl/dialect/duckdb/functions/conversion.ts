// Conversions on DuckDB: reading text (../parsing.ts) and JSON, writing JSON, and the conversion
// functions of its own (the shared part is ../../functions/conversion.ts).
import type { AplType } from '../../../semantic/plan';
import { SQL_TYPE } from '../values';
import { goDurationSql, rfc3339Sql } from '../formatting';
import { datetimeFromText, timespanFromText } from '../parsing';
import { type Converter, conversionRules, converter, type ValueCodecs } from '../../functions/conversion';
import type { RuleTable } from './rule';
import { DUCKDB_SPELLING } from './spelling';

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

/** A dynamic value as type `to`. */
function fromDynamic(x: string, to: AplType, explicit: boolean): string {
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

/** A value of type `from` as JSON. */
function toDynamic(x: string, from: AplType, explicit: boolean): string {
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

const DUCKDB_CODECS: ValueCodecs = {
  nullableType: (type) => SQL_TYPE[type],
  text: (x) => `CAST(${x} AS VARCHAR)`,
  boolText: (x) => `CAST(${x} AS VARCHAR)`,
  datetimeText: rfc3339Sql,
  timespanText: goDurationSql,
  jsonText: (x) => `json_extract_string(${x}, '$')`,
  toDynamic,
  fromDynamic,
  fromText: (x, to) => stringTo(to, x),
};

/** Converts SQL `x` of APL type `from` to `to`; `explicit` marks the to*() functions. */
export const convertSql: Converter = converter(DUCKDB_SPELLING, DUCKDB_CODECS);

/** The keys of every object in order, at every depth: one text for equal values. */
const CANONICAL_JSON = 'apl_json_canonical';

export const CONVERSION_RULES: RuleTable = {
  ...conversionRules(convertSql),
  json_parse_or_null: (_w, _e, a) => `CASE WHEN json_valid(${a(0)}) THEN CAST(${a(0)} AS JSON) END`,
  toarray: (_w, _e, a) =>
    `CASE WHEN ${a(0)} IS NULL THEN CAST('[]' AS JSON) ELSE CASE json_type(${a(0)}) WHEN 'ARRAY' THEN ${a(0)} WHEN 'OBJECT' THEN to_json(list_transform(json_keys(${a(0)}), lambda k: json_extract(${a(0)}, concat('$.', to_json(k))))) WHEN 'NULL' THEN CAST('[]' AS JSON) ELSE json_array(${a(0)}) END END`,
  tohex: (_w, _e, a) => `lpad(lower(hex(${a(0)})), CAST(greatest(${a(1)}, length(hex(${a(0)}))) AS INTEGER), '0')`,
  json_canonical: (_w, _e, a) => `${CANONICAL_JSON}(CAST(${a(0)} AS VARCHAR))`,
};
