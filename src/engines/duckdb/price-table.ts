// Puts the catalog's prices where DuckDB queries join them (`genai.prices`, see
// src/apl/dialect/duckdb/pricing.ts). The rows are appended to a staging table, then the price table
// is replaced by one statement, so a query sees the previous prices or the new ones, never a mix.
import type { DuckDBConnection } from '@duckdb/node-api';
import { PRICE_COLUMNS, PRICE_SCHEMA, PRICE_TABLE } from '../../apl/dialect/duckdb/pricing';
import type { PriceTableRow } from '../price-rows';

const STAGING = 'genai_price_staging';

/** Creates the (empty) price table if the database has none, so pricing queries always bind. */
export async function ensurePriceTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE SCHEMA IF NOT EXISTS ${PRICE_SCHEMA}`);
  await connection.run(`CREATE TABLE IF NOT EXISTS ${PRICE_TABLE} (${PRICE_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})`);
}

/** Replaces the price table with `rows`. */
export async function installPriceTable(connection: DuckDBConnection, rows: readonly PriceTableRow[]): Promise<void> {
  await connection.run(`CREATE SCHEMA IF NOT EXISTS ${PRICE_SCHEMA}`);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${STAGING} (key VARCHAR, date_from INTEGER, date_to INTEGER, valid_from BIGINT, valid_to BIGINT,
      model_id VARCHAR, provider VARCHAR, input DOUBLE, output DOUBLE, cache_read DOUBLE, cache_write DOUBLE)`,
  );
  try {
    const appender = await connection.createAppender(STAGING, 'main', 'temp');
    try {
      for (const row of rows) {
        appender.appendVarchar(row.key);
        appender.appendInteger(row.dateFrom);
        appender.appendInteger(row.dateTo);
        if (row.validFrom === null) appender.appendNull();
        else appender.appendBigInt(BigInt(row.validFrom));
        if (row.validTo === null) appender.appendNull();
        else appender.appendBigInt(BigInt(row.validTo));
        appender.appendVarchar(row.modelId);
        appender.appendVarchar(row.providerId);
        appender.appendDouble(row.inputCostPerToken);
        appender.appendDouble(row.outputCostPerToken);
        if (row.cacheReadCostPerToken === null) appender.appendNull();
        else appender.appendDouble(row.cacheReadCostPerToken);
        if (row.cacheWriteCostPerToken === null) appender.appendNull();
        else appender.appendDouble(row.cacheWriteCostPerToken);
        appender.endRow();
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
    const time = (column: string, missing: string) => `coalesce(CAST(epoch_ms(${column}) AS TIMESTAMP_NS), '${missing}'::TIMESTAMP_NS)`;
    await connection.run(
      `CREATE OR REPLACE TABLE ${PRICE_TABLE} AS
       SELECT hash(key) AS genai_key, date_from AS genai_date_from, date_to AS genai_date_to,
              ${time('valid_from', '-infinity')} AS genai_valid_from, ${time('valid_to', 'infinity')} AS genai_valid_to,
              valid_to IS NULL AS genai_latest, model_id AS genai_model_id, provider AS genai_provider,
              input AS genai_input, output AS genai_output, cache_read AS genai_cache_read, cache_write AS genai_cache_write
       FROM temp.main.${STAGING} ORDER BY genai_key`,
    );
  } finally {
    await connection.run(`DROP TABLE IF EXISTS temp.main.${STAGING}`);
  }
}

/** The instants (epoch nanoseconds, ascending) at which some price period of `rows` starts or ends. */
export function priceBoundaries(rows: readonly PriceTableRow[]): bigint[] {
  const instants = new Set<number>();
  for (const row of rows) {
    if (row.validFrom !== null) instants.add(row.validFrom);
    if (row.validTo !== null) instants.add(row.validTo);
  }
  return [...instants].sort((a, b) => a - b).map((ms) => BigInt(ms) * 1_000_000n);
}
