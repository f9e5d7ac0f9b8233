// A value as ingest hands it to an engine for one column, before the engine converts it to the
// column's type: the same input for DuckDB's data chunks and ClickHouse's tab-separated rows.

/** A duration (ingest's `Timespan`), which engines store as its signed whole nanoseconds. */
export interface TimespanValue {
  readonly nanoseconds: bigint;
}

/** A stored value before conversion to its column's type (objects only in map fields). */
export type ColumnValue = string | number | boolean | unknown[] | TimespanValue | Record<string, unknown>;
