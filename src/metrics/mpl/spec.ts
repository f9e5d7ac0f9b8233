// The description of MPL served by `OPTIONS /v1/query/_mpl` (Markdown), written for people and
// agents composing queries. The function tables come from the standard library itself.
import { AUTO_INTERVAL_POINTS, MAX_GRID_STEPS } from './semantic/analyzer';
import { BUCKET_SPEC_TAG, HISTOGRAM_TAG, QUANTILE_TAG } from './semantic/plan';
import { ALIGN_FUNCTIONS, BUCKET_FUNCTIONS, COMPUTE_FUNCTIONS, GROUP_FUNCTIONS, MAP_FUNCTIONS } from './semantic/stdlib';
import { MAX_SERIES } from './execution/execute';

const table = (rows: [string, string][]) => ['| function | what it does |', '| --- | --- |', ...rows.map(([name, doc]) => `| \`${name}\` | ${doc} |`)].join('\n');

export function describeMpl(): string {
  const mapRows: [string, string][] = MAP_FUNCTIONS.filter((fn) => !/::(le|ge|ne)$/.test(fn.name)).map((fn) => [fn.arg === 'number' ? `${fn.name}(n)` : fn.name, fn.doc]);
  mapRows.push(['+ n, - n, * n, / n', 'Arithmetic with a number, e.g. `map * 100`']);
  return `# MPL: the Metrics Processing Language

A query reads one metric of one metrics dataset (kind \`otel:metrics:v1\`), keeps the series
(metric + tags) its filters select, and transforms their points through a pipeline:

\`\`\`
set custom_unit = "ms";                       // directives first (optional)
param $service: string;                       // then parameters (optional)
\`my-metrics\`:\`http.server.duration\`[1h..] as latency
| where \`service.name\` == $service and \`http.status_code\` >= 500
| align to 5m using avg
| group by \`http.route\` using max
\`\`\`

Run it with \`POST /v1/query/_mpl\` and \`{"mpl": "...", "startTime": "now-1h", "endTime": "now", "params": {"param__service": "\\"checkout\\""}}\`.
Answers (\`format=metrics-v2\`, the default): \`{"metadata": {"group_keys", "warnings", "unit", "custom_unit", "ignore_unit"}, "series": [{"metric", "tags", "start", "resolution", "data", "summary"}]}\`;
\`data[i]\` is the value at \`start + i * resolution\` (Unix seconds), \`null\` where there is none; \`summary\` is the last value.
\`format=metrics-v1\` answers the bare list of series.

## Source

\`<dataset>:<metric>[<start>..<end>] as <alias>\`; the range and the alias are optional (without a range the
request's startTime/endTime apply). Times: a duration ago (\`1h\`), a Unix timestamp in seconds, an RFC 3339
time (\`2025-03-01T13:00:00Z\`), or \`+\`/\`-\` a duration from the other end (\`[2025-03-01T13:00:00Z..+1h]\`).
Durations: \`ms\` (rounded to seconds), \`s\`, \`m\`, \`h\`, \`d\`, \`w\`, \`M\` (30 days), \`y\` (365 days).
Identifiers are ASCII letters, digits and \`_\` starting with a letter; quote anything else in backquotes.
\`| sample 0.5\` right after the source keeps a stable half of the series.

## Filters (right after the source)

\`| where <expr>\` (\`filter\` is a deprecated alias); several \`where\` combine with \`and\`.
\`<tag> == | != | < | <= | > | >= <value>\`, \`<tag> == #/regex/\` (full match of the value's text),
\`<tag> is string | int | float | bool\`, \`and\`, \`or\`, \`not\`, parentheses.
Values: \`"string"\`, \`42\`, \`3.14\`, \`true\`/\`false\`, \`inf\`, \`$param\`. Tags keep their types: \`code == 200\` matches
an integer (or float) tag 200, \`code == "200"\` a string tag; a missing tag matches no comparison (so \`!=\` holds).

## map (per point)

${table(mapRows)}

\`fill\` and \`interpolate\` complete the steps of an aligned series (align first).

## align [to <duration> [over <duration>]] using <function>

Aggregates each series over time windows aligned to the epoch (\`over\`: a trailing sliding window, a multiple
of the step). Without \`to\`, one window covers the whole range.

${table(Object.entries(ALIGN_FUNCTIONS).map(([name, fn]) => [name, fn.doc]))}

## group [by <tags>] using <function>

Combines series with equal values of the tags (all series without \`by\`), at each time.

${table(Object.entries(GROUP_FUNCTIONS).map(([name, fn]) => [name, fn.doc]))}

## bucket [by <tags>] [to <duration>] using <function>(<specs>)

Specs: quantiles between 0 and 1, \`count\`, \`avg\`, \`sum\`, \`min\`, \`max\`; each spec is a series tagged \`${BUCKET_SPEC_TAG}\`
(\`p99\`, \`count\`, ...).

${table(Object.entries(BUCKET_FUNCTIONS).map(([name, fn]) => [`${name}(${fn.args})`, fn.doc]))}

Histogram metrics also read as scalar series, one per view, tagged \`${HISTOGRAM_TAG}\` = \`count\`, \`sum\`, \`min\`, \`max\`
(summaries: \`count\`, \`sum\`, and \`quantile\` with the \`${QUANTILE_TAG}\` tag).

## Other operators

- \`| as <name>\`: renames the metric.
- \`| replace <tag> ~ #s/<regex>/<replacement>/\`: rewrites a tag where the regex fully matches (\`$1\` refers to groups).
- \`| replace <new> = <old>\`: renames a tag; \`| replace <new> = <old> ~ #s/.../.../\` derives a tag from another.
- \`| join <tags> from <dataset>:<metric> by <tags>\`: adds tags of another metric's series with equal \`by\` tags.
- \`| extend <tag> = <value>, ...\`: adds tags (after an aggregation); strings may use \`\${tag}\` and \`\${$param}\`.

## compute

\`( <query>, <query> ) | compute <name> using <operator>\` pairs series with equal tags and combines values at
equal times (strict intersection; fill with \`map fill::const(n)\` to keep one-sided steps).

${table(Object.entries(COMPUTE_FUNCTIONS).map(([name, fn]) => [name, fn.doc]))}

## Directives and parameters

\`set custom_unit = "ms";\` sets the unit of the answer. \`param $name: <type>;\` declares a parameter (\`Dataset\`,
\`Duration\`, \`Regex\`, \`string\`, \`int\`, \`float\`, \`bool\`) whose value, an MPL literal, comes in the request's \`params\`
as \`param__name\` (or as a \`param__name\` query parameter). \`$__interval\` is a step suited to the range (at most
${AUTO_INTERVAL_POINTS} steps) and \`$__rate_interval\` four of them. A query without \`align\` is averaged per \`$__interval\`.

## Limits

At most ${MAX_SERIES} series per answer and ${MAX_GRID_STEPS} steps per series. Errors are \`400\` with
\`{"error", "message"}\` giving the line and column.
`;
}
