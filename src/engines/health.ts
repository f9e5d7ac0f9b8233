// Whether an engine's database can serve, as stores report it to the health check: the same
// shape for every engine, so the server reports DuckDB and ClickHouse alike.
export interface EngineHealth {
  state: 'ok' | 'recovering' | 'failed';
  /** Why the engine is not ok: the fatal error it is recovering from. */
  reason?: string;
}
