// How a metrics dataset is laid out in ClickHouse (EVENT_STORE=clickhouse|chdb), beside the
// dataset tables of the events. The DuckDB layout (../layout.ts) in ClickHouse's terms, shaped
// for several server instances writing at once:
//
// - `<table>_series`: one row per series, a ReplacingMergeTree on `id` keeping the row of the
//   highest `version`. `id` is a 64-bit hash of the series key, so every instance gives a series
//   the same id without asking anyone; writing a series again is harmless. `tags` is a
//   Map(String, String) whose values are the tag's type letter (s, i, f, b) followed by its text
//   (`s` + "GET", `i` + "200"), so a missing tag reads as the empty string and types stay apart.
//   Readers take the latest row per id (FINAL).
// - `<table>_points`: scalar points (`series_id`, `t` seconds, `value`), a MergeTree ordered by
//   (`t`, `series_id`) so a time range reads only its granules.
// - `<table>_dists`: distribution points, ordered likewise; empty arrays stand for the lists a
//   point does not have (ClickHouse arrays cannot be NULL).
// With a cluster (`CLICKHOUSE_CLUSTER`), as for events: replicated `<name>_local` tables on every
// node and Distributed tables over them (see createTablesSql).
import { createHash } from 'node:crypto';
import { createTableSql, onCluster, quoteIdentifier, storedTable } from '../../../engines/clickhouse/layout';
import type { TagValue } from '../../model';
import { metricsTablesOf, TAG_MEMBER } from '../layout';

export { metricsTablesOf, onCluster, quoteIdentifier, storedTable };

/** A float as ClickHouse and DuckDB both write it when it is not finite. */
export function floatText(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(Object.is(value, -0) ? 0 : value);
}

/** A tag value as stored: its type letter (`TAG_MEMBER`) and its text. */
export function storedTag(tag: TagValue): string {
  const text = tag.type === 'float' ? floatText(tag.value) : String(tag.value);
  return `${TAG_MEMBER[tag.type]}${text}`;
}

/** The series id of a series key: the first 64 bits of its SHA-256, the same on every instance. */
export function seriesIdOf(key: string): bigint {
  return createHash('sha256').update(key).digest().readBigUInt64BE(0);
}

/** Each table of a metrics dataset: its columns, its MergeTree engine, order and sharding key. */
function tableDefinitions(table: string) {
  const names = metricsTablesOf(table);
  return [
    {
      name: names.series,
      columns: `id UInt64, metric String, tags Map(String, String), type LowCardinality(String), temporality Nullable(String),
        monotonic Nullable(Bool), unit String, key String, version UInt64`,
      engine: 'ReplacingMergeTree(version)',
      order: 'ORDER BY id',
      shard: 'id',
    },
    {
      name: names.points,
      columns: 'series_id UInt64, t Int64, value Float64',
      engine: 'MergeTree',
      order: 'ORDER BY (t, series_id)',
      shard: 'series_id',
    },
    {
      name: names.dists,
      columns: `series_id UInt64, t Int64, count Float64, sum Nullable(Float64), min Nullable(Float64), max Nullable(Float64),
        bounds Array(Float64), counts Array(Float64), quantiles Array(Float64), qvalues Array(Float64)`,
      engine: 'MergeTree',
      order: 'ORDER BY (t, series_id)',
      shard: 'series_id',
    },
  ];
}

/**
 * The statements creating a dataset's tables. On a cluster, each is a replicated table
 * `<name>_local` on every node and a Distributed table `<name>` over them, sharded by series id,
 * so a series' row and its points share a shard and each shard joins them locally.
 */
export function createTablesSql(table: string, cluster?: string): string[] {
  return tableDefinitions(table).flatMap((definition) => createTableSql(definition.name, definition.columns, definition.engine, definition.order, definition.shard, cluster));
}

export function dropTablesSql(table: string, cluster?: string): string[] {
  const names = tableDefinitions(table).map((definition) => definition.name);
  const all = cluster ? names.flatMap((name) => [name, `${name}_local`]) : names;
  return all.map((name) => `DROP TABLE IF EXISTS ${quoteIdentifier(name)}${onCluster(cluster)} SYNC`);
}

export const SERIES_COLUMNS = ['id', 'metric', 'tags', 'type', 'temporality', 'monotonic', 'unit', 'key', 'version'];
export const POINT_COLUMNS = ['series_id', 't', 'value'];
export const DIST_COLUMNS = ['series_id', 't', 'count', 'sum', 'min', 'max', 'bounds', 'counts', 'quantiles', 'qvalues'];
