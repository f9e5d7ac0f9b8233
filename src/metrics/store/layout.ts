// How a metrics dataset is laid out in the embedded engine. The store writes this layout, the
// MPL dialect reads it; both go through these names so they cannot drift apart.
//
// - `<table>_series`: one row per series: `id` (UINTEGER, assigned by the store), `metric`,
//   `tags` (a map from tag name to a typed value: string, int, float or bool, sorted by name),
//   the metric's `type`, `temporality`, `monotonic` and `unit` as its latest points said, and
//   `key`, the series identity as text (metric, point class and tags).
// - `<table>_points`: scalar points (gauges, sums): `series_id`, `t` (seconds since the epoch)
//   and `value`. Three narrow columns, appended in arrival order, compress to a few bytes each.
// - `<table>_dists`: distribution points (histograms, exponential histograms as explicit
//   buckets, summaries): `series_id`, `t`, `count`, `sum`, `min`, `max`, `bounds` (upper bounds,
//   the last bucket unbounded), `counts`, `quantiles` and `qvalues`.
// A query selects series on the small series table first and reads the points of those ids only.
import { quoteIdentifier } from '../../engines/duckdb/layout';

export { quoteIdentifier };

/** The typed value of a tag: exactly one member is set. */
export const TAG_VALUE_TYPE = 'UNION(s VARCHAR, i BIGINT, f DOUBLE, b BOOLEAN)';
export const TAGS_TYPE = `MAP(VARCHAR, ${TAG_VALUE_TYPE})`;

/**
 * The letter of each tag type: the union member holding it here, and in ClickHouse the first
 * character of a stored tag value.
 */
export const TAG_MEMBER = { string: 's', int: 'i', float: 'f', bool: 'b' } as const;

/**
 * A tag map as a list of {k: name, t: member (s, i, f, b), v: value as text}: JSON cannot hold
 * every double (inf, nan) and JavaScript every BIGINT, so values leave as text with their type.
 */
export function tagEntriesSql(tags: string): string {
  return `list_transform(map_entries(${tags}), lambda e: {'k': e.key, 't': union_tag(e.value), 'v': CAST(e.value AS VARCHAR)})`;
}

export interface MetricsTables {
  series: string;
  points: string;
  dists: string;
}

/** The (unquoted) table names of a metrics dataset whose base name is `table`. */
export function metricsTablesOf(table: string): MetricsTables {
  return { series: `${table}_series`, points: `${table}_points`, dists: `${table}_dists` };
}

export function createTablesSql(table: string): string[] {
  const names = metricsTablesOf(table);
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(names.series)} (
      id UINTEGER NOT NULL, metric VARCHAR NOT NULL, tags ${TAGS_TYPE} NOT NULL, type VARCHAR NOT NULL,
      temporality VARCHAR, monotonic BOOLEAN, unit VARCHAR NOT NULL, key VARCHAR NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(names.points)} (series_id UINTEGER NOT NULL, t BIGINT NOT NULL, value DOUBLE NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(names.dists)} (
      series_id UINTEGER NOT NULL, t BIGINT NOT NULL, count DOUBLE NOT NULL, sum DOUBLE, min DOUBLE, max DOUBLE,
      bounds DOUBLE[], counts DOUBLE[], quantiles DOUBLE[], qvalues DOUBLE[])`,
  ];
}

export function dropTablesSql(table: string): string[] {
  const names = metricsTablesOf(table);
  return [names.points, names.dists, names.series].map((name) => `DROP TABLE IF EXISTS ${quoteIdentifier(name)}`);
}

/** The base name of a metrics dataset's series table, or undefined for other tables. */
export function baseOfSeriesTable(name: string): string | undefined {
  return name.endsWith('_series') ? name.slice(0, -'_series'.length) : undefined;
}
