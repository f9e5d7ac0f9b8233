// Puts the catalog's prices where ClickHouse queries join them (`genai_prices`, see
// src/apl/dialect/clickhouse/pricing.ts). Each install fills a table of its own, then swaps it with
// the price table in one EXCHANGE TABLES, so a query sees the previous prices or the new ones,
// never a mix. Several instances may share one ClickHouse: the table's comment names the catalog
// snapshot it holds, an instance skips a snapshot the table already holds (or a newer one), and
// each install's table has a name of its own, so installs that meet do not disturb each other.
import { randomUUID } from 'node:crypto';
import type { ClickHouseExecutor } from './executor';
import { quoteIdentifier, quoteLiteral } from './layout';
import { escapeText } from './tsv';
import { PRICE_TABLE, priceKeySql } from '../../apl/dialect/clickhouse/pricing';
import type { PriceTableRow } from '../price-rows';

/** Bounds of an open period, in epoch nanoseconds: before any event and after every event. */
const SINCE_EVER = -(2n ** 63n);
const STILL_VALID = 2n ** 63n - 1n;

const COLUMNS_SQL = [
  'genai_key_text String',
  `genai_key UInt64 MATERIALIZED ${priceKeySql('genai_key_text')}`,
  'genai_date_from Int32',
  'genai_date_to Int32',
  'genai_valid_from Int64',
  'genai_valid_to Int64',
  'genai_latest Bool',
  'genai_model_id Nullable(String)',
  'genai_provider Nullable(String)',
  'genai_input Nullable(Float64)',
  'genai_output Nullable(Float64)',
  'genai_cache_read Nullable(Float64)',
  'genai_cache_write Nullable(Float64)',
].join(', ');

/** The columns an install writes, in the order of `rowText` (the key's hash is computed by ClickHouse). */
const INSERTED = [
  'genai_key_text',
  'genai_date_from',
  'genai_date_to',
  'genai_valid_from',
  'genai_valid_to',
  'genai_latest',
  'genai_model_id',
  'genai_provider',
  'genai_input',
  'genai_output',
  'genai_cache_read',
  'genai_cache_write',
];

const comment = (version: number | undefined) => (version === undefined ? 'no catalog snapshot' : `catalog snapshot ${version}`);
const createSql = (table: string, version: number | undefined, ifNotExists = false) =>
  `CREATE TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${quoteIdentifier(table)} (${COLUMNS_SQL}) ENGINE = MergeTree ORDER BY genai_key COMMENT ${quoteLiteral(comment(version))}`;

const number = (value: number | null) => (value === null ? '\\N' : String(value));

function rowText(row: PriceTableRow): string {
  return [
    escapeText(row.key),
    String(row.dateFrom),
    String(row.dateTo),
    row.validFrom === null ? SINCE_EVER.toString() : (BigInt(row.validFrom) * 1_000_000n).toString(),
    row.validTo === null ? STILL_VALID.toString() : (BigInt(row.validTo) * 1_000_000n).toString(),
    row.validTo === null ? 'true' : 'false',
    escapeText(row.modelId),
    escapeText(row.providerId),
    number(row.inputCostPerToken),
    number(row.outputCostPerToken),
    number(row.cacheReadCostPerToken),
    number(row.cacheWriteCostPerToken),
  ].join('\t');
}

/** The catalog snapshot a price table holds, by its comment (undefined: none, or no such table). */
async function versionOf(executor: ClickHouseExecutor, table: string): Promise<number | undefined> {
  const { rows } = await executor.query(`SELECT comment FROM system.tables WHERE database = currentDatabase() AND name = ${quoteLiteral(table)}`);
  const match = /^catalog snapshot (\d+)$/.exec(String(rows[0]?.[0] ?? ''));
  return match ? Number(match[1]) : undefined;
}

/**
 * Creates the (empty) price table if the database has none, so pricing queries always bind, and
 * drops what installs of older snapshots left behind (an instance that stopped mid-install).
 */
export async function ensureClickHousePriceTable(executor: ClickHouseExecutor): Promise<void> {
  await executor.command(createSql(PRICE_TABLE, undefined, true));
  const installed = await versionOf(executor, PRICE_TABLE);
  if (installed === undefined) return;
  const { rows } = await executor.query(`SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE ${quoteLiteral(`${PRICE_TABLE}\\_%`)}`);
  for (const [name] of rows as [string][]) {
    const version = new RegExp(`^${PRICE_TABLE}_(\\d+)_[0-9a-f]+$`).exec(name)?.[1];
    if (version !== undefined && Number(version) < installed) await executor.command(`DROP TABLE IF EXISTS ${quoteIdentifier(name)}`);
  }
}

/**
 * Replaces the price table with `rows`, the prices of catalog snapshot `version`, unless it
 * holds that snapshot or a newer one already. Returns whether it replaced the table.
 */
export async function installClickHousePriceTable(executor: ClickHouseExecutor, rows: readonly PriceTableRow[], version: number): Promise<boolean> {
  await executor.command(createSql(PRICE_TABLE, undefined, true));
  const installed = await versionOf(executor, PRICE_TABLE);
  if (installed !== undefined && installed >= version) return false;
  const staging = `${PRICE_TABLE}_${version}_${randomUUID().replaceAll('-', '')}`;
  try {
    await executor.command(createSql(staging, version));
    if (rows.length > 0) await executor.insert(staging, INSERTED, Buffer.from(`${rows.map(rowText).join('\n')}\n`));
    await executor.command(`EXCHANGE TABLES ${quoteIdentifier(staging)} AND ${quoteIdentifier(PRICE_TABLE)}`);
    // Another instance may have installed a newer snapshot meanwhile: that one stays.
    const replaced = await versionOf(executor, staging);
    if (replaced !== undefined && replaced > version) {
      await executor.command(`EXCHANGE TABLES ${quoteIdentifier(staging)} AND ${quoteIdentifier(PRICE_TABLE)}`);
      return false;
    }
    return true;
  } finally {
    await executor.command(`DROP TABLE IF EXISTS ${quoteIdentifier(staging)}`);
  }
}
