// Coverage of Axiom's reference: every documented scalar function and aggregation (the names of
// the function pages and of the feature table, and the GenAI function pages) is in the engine's
// registries, and every registered name has at least one case in the conformance tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGGREGATE_FUNCTIONS } from '../../../src/apl/semantic/aggregates';
import { SCALAR_FUNCTIONS } from '../../../src/apl/semantic/functions';

const DOCUMENTED_AGGREGATIONS = [
  'arg_max', 'arg_min', 'avg', 'avgif', 'count', 'countif', 'dcount', 'dcountif', 'histogram', 'histogramif',
  'make_list', 'make_list_if', 'make_set', 'make_set_if', 'max', 'maxif', 'min', 'minif', 'percentile',
  'percentileif', 'percentiles_array', 'percentiles_arrayif', 'phrases', 'rate', 'spotlight', 'stdev',
  'stdevif', 'sum', 'sumif', 'topk', 'topkif', 'variance', 'varianceif',
];

const DOCUMENTED_FUNCTIONS = [
  'abs', 'acos', 'ago', 'array_concat', 'array_extract', 'array_iff', 'array_index_of', 'array_length',
  'array_reverse', 'array_rotate_left', 'array_rotate_right', 'array_select_dict', 'array_shift_left',
  'array_shift_right', 'array_slice', 'array_sort_asc', 'array_sort_desc', 'array_split', 'array_sum',
  'asin', 'atan', 'atan2', 'bag_has_key', 'bag_keys', 'bag_pack', 'bag_zip', 'base64_decode_toarray',
  'base64_decode_tostring', 'base64_encode_fromarray', 'base64_encode_tostring', 'bin', 'bin_auto', 'case',
  'ceiling', 'coalesce', 'column_ifexists', 'cos', 'cot', 'countof', 'countof_regex', 'cursor_current',
  'datetime_add', 'datetime_diff', 'datetime_part', 'dayofmonth', 'dayofweek', 'dayofyear', 'degrees',
  'dynamic_to_json', 'endofday', 'endofmonth', 'endofweek', 'endofyear', 'ensure_field', 'exp', 'exp10',
  'exp2', 'extract', 'extract_all', 'find_pair', 'floor', 'format_bytes', 'format_ipv4', 'format_ipv4_mask',
  'format_sql', 'format_url', 'gamma', 'geo_info_from_ip_address', 'getmonth', 'gettype', 'getyear',
  'has_any_ipv4', 'has_any_ipv4_prefix', 'has_ipv4', 'has_ipv4_prefix', 'hash', 'hash_md5', 'hash_sha1',
  'hash_sha256', 'hash_sha512', 'hourofday', 'iff', 'indexof', 'indexof_regex', 'ingestion_time',
  'ipv4_compare', 'ipv4_is_in_any_range', 'ipv4_is_in_range', 'ipv4_is_match', 'ipv4_is_private',
  'ipv4_netmask_suffix', 'ipv6_compare', 'ipv6_is_in_any_range', 'ipv6_is_in_range', 'ipv6_is_match',
  'isarray', 'isascii', 'isbool', 'iscc', 'isempty', 'isfinite', 'isimei', 'isinf', 'isint', 'ismap',
  'isnan', 'isnotempty', 'isnotnull', 'isnull', 'isreal', 'isstring', 'isutf8', 'len', 'log', 'log10',
  'log2', 'loggamma', 'max_of', 'min_of', 'monthofyear', 'not', 'now', 'pack_array', 'pack_dictionary',
  'pair', 'parse_bytes', 'parse_csv', 'parse_ipv4', 'parse_ipv4_mask', 'parse_json', 'parse_pair',
  'parse_path', 'parse_sql', 'parse_url', 'parse_urlquery', 'pi', 'pow', 'quote', 'radians', 'rand', 'range',
  'regex_quote', 'replace', 'replace_regex', 'replace_string', 'reverse', 'round', 'series_abs',
  'series_acos', 'series_add', 'series_asin', 'series_atan', 'series_ceiling', 'series_cos',
  'series_cosine_similarity', 'series_divide', 'series_dot_product', 'series_equals', 'series_exp',
  'series_fft', 'series_fill_backward', 'series_fill_const', 'series_fill_forward', 'series_fill_linear',
  'series_fir', 'series_floor', 'series_greater', 'series_greater_equals', 'series_ifft', 'series_iir',
  'series_less', 'series_less_equals', 'series_log', 'series_magnitude', 'series_max', 'series_min',
  'series_multiply', 'series_not_equals', 'series_pearson_correlation', 'series_pow', 'series_sign',
  'series_sin', 'series_stats', 'series_stats_dynamic', 'series_subtract', 'series_sum', 'series_tan',
  'set_difference', 'set_has_element', 'set_intersect', 'set_union', 'sign', 'sin', 'split', 'sqrt',
  'startofday', 'startofmonth', 'startofweek', 'startofyear', 'strcat', 'strcat_array', 'strcat_delim',
  'strcmp', 'string_size', 'strip_ansi_escapes', 'strlen', 'strrep', 'substring', 'tan', 'toarray', 'tobool',
  'todatetime', 'todouble', 'todynamic', 'tohex', 'toint', 'tolong', 'tolower', 'toreal', 'tostring',
  'totimespan', 'totitle', 'toupper', 'translate', 'trim', 'trim_end', 'trim_end_regex', 'trim_regex',
  'trim_space', 'trim_start', 'trim_start_regex', 'unicode_codepoints_from_string',
  'unicode_codepoints_to_string', 'unixtime_microseconds_todatetime', 'unixtime_milliseconds_todatetime',
  'unixtime_nanoseconds_todatetime', 'unixtime_seconds_todatetime', 'url_decode', 'url_encode',
  'week_of_year',
];

/** The GenAI function pages (genai-functions/*.mdx). */
const DOCUMENTED_GENAI_FUNCTIONS = [
  'genai_concat_contents', 'genai_conversation_turns', 'genai_cost', 'genai_estimate_tokens',
  'genai_extract_assistant_response', 'genai_extract_function_results', 'genai_extract_system_prompt',
  'genai_extract_tool_calls', 'genai_extract_user_prompt', 'genai_get_content_by_index',
  'genai_get_content_by_role', 'genai_get_pricing', 'genai_get_role', 'genai_has_tool_calls',
  'genai_input_cost', 'genai_is_truncated', 'genai_message_roles', 'genai_output_cost',
];

/** The text of every conformance test file. */
function testSources(): string {
  const folder = import.meta.dirname;
  return readdirSync(folder)
    .filter((file) => file.startsWith('conformance') && file.endsWith('.test.ts') && file !== 'conformance-coverage.test.ts')
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('\n');
}

describe('coverage of the documented language', () => {
  it('registers every documented aggregation', () => {
    expect(DOCUMENTED_AGGREGATIONS.filter((name) => !AGGREGATE_FUNCTIONS[name])).toEqual([]);
    expect(DOCUMENTED_AGGREGATIONS).toHaveLength(33);
  });

  it('registers every documented scalar function', () => {
    expect(DOCUMENTED_FUNCTIONS.filter((name) => !SCALAR_FUNCTIONS[name])).toEqual([]);
    expect(DOCUMENTED_FUNCTIONS).toHaveLength(240);
  });

  it('registers every documented GenAI function', () => {
    expect(DOCUMENTED_GENAI_FUNCTIONS.filter((name) => !SCALAR_FUNCTIONS[name])).toEqual([]);
    expect(DOCUMENTED_GENAI_FUNCTIONS).toHaveLength(18);
  });

  it('has a conformance case for every registered function and aggregation', () => {
    const sources = testSources();
    const untested = [...Object.keys(SCALAR_FUNCTIONS), ...Object.keys(AGGREGATE_FUNCTIONS)].filter((name) => !new RegExp(`(?<![A-Za-z0-9_])${name}\\(`).test(sources));
    expect(untested).toEqual([]);
  });
});
