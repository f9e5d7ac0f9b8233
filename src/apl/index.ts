// The APL query engine's public face. Endpoints (REST, GraphQL) call these; nothing here
// knows HTTP.
//
//   executeApl(request, deps)               -> QueryResult (APL text + request options)
//   toTabularResponse / toLegacyAplResponse -> the two `queryApl` wire shapes of v1.json
//   executeLegacyQuery(dataset, body, deps) -> the `queryDataset` wire shape of v1.json
//   encodeCursor / decodeCursor             -> cursors for Relay edges (QueryResult.events)
//   runnerOver(eventStore), registerAplFunctions, createDuckDBRunner -> runners over DuckDB
//   installPriceTable(connection, rows)      -> the catalog's prices, for the genai_* functions
export { type AplRequest, DEFAULT_PAGE_SIZE, type EngineDeps, executeApl, executeQuery, type PreparedQuery, prepareQuery } from './execution/execute';
export type { QueryResult, QueryStatus, ResultTable, ResultField, EventRows, FieldMeta } from './execution/result';
export type { QueryRunner, RowValue, RunOptions } from './execution/runner';
export { createDuckDBRunner, registerAplFunctions } from '../engines/duckdb/apl-runner';
export { ensurePriceTable, installPriceTable, priceBoundaries } from '../engines/duckdb/price-table';
export { type PriceTableRow } from '../engines/price-rows';
export { runnerOver, type SqlQueryable } from './execution/store-runner';
export { type CursorPosition, decodeCursor, encodeCursor } from './execution/cursor';
export { parseQuery, parseExpression } from './syntax/parser';
export { tokenize } from './syntax/lexer';
export type { CompiledSql, SqlDialect, SqlValue } from './dialect/dialect';
export { duckdbDialect } from './dialect/duckdb';
export {
  toTabularResponse,
  toLegacyAplResponse,
  toMatches,
  toTimeseries,
  resultRows,
  type TabularResponse,
  type Entry,
  type EntryGroup,
  type Interval,
  type Timeseries,
} from './wire';
export {
  executeLegacyQuery,
  legacyToQuery,
  filterToExpr,
  type LegacyQueryRequest,
  type LegacyQueryResponse,
  type LegacyFilter,
  type LegacyAggregation,
} from './legacy-query';
export { parseRequestTime, formatDateTime, formatTimespan } from './time';
export { describeVirtualFields } from './semantic/virtual-fields';
export { datasetNamesOf, type ViewSource } from './semantic/analyzer';
export type { AplType } from './semantic/plan';
