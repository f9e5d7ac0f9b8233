// The catalog's prices as a query engine looks them up: one row per (name range, price period).
// A row says: a model name whose lookup key is `key` and whose date stamp lies in
// [dateFrom, dateTo) (see model-names.ts) names `modelId`, and events timed in
// [validFrom, validTo) pay these per-token prices. Rows of one key never overlap, so a lookup
// finds at most one row. Built once per catalog version from the snapshot; engines materialize
// it (DuckDB joins it as a table).
import { buildNameIndex, type NamedModel, nameRanges } from './model-names';
import type { PriceTableRow } from '../engines/price-rows';
import type { PricePeriod } from './price-history';
import type { ModelRecord } from './record';

/** One row of the engines' price tables, as the catalog builds it. */
export type PriceRow = PriceTableRow;

export function buildPriceRows(records: readonly ModelRecord[], periods: readonly PricePeriod[]): PriceRow[] {
  const periodsByModel = new Map<string, PricePeriod[]>();
  for (const period of periods) {
    const list = periodsByModel.get(period.modelId) ?? [];
    list.push(period);
    periodsByModel.set(period.modelId, list);
  }
  const current = new Set(records.map((record) => record.model_id));
  const models: NamedModel[] = records.map((record) => ({ modelId: record.model_id, providerId: record.provider_id, current: true }));
  const removed = [...periodsByModel.keys()].filter((id) => !current.has(id)).sort();
  for (const modelId of removed) {
    const list = periodsByModel.get(modelId)!;
    models.push({ modelId, providerId: list[list.length - 1]!.providerId, current: false });
  }

  const rows: PriceRow[] = [];
  for (const range of nameRanges(buildNameIndex(models))) {
    for (const period of periodsByModel.get(range.model.modelId) ?? []) {
      rows.push({
        key: range.key,
        dateFrom: range.dateFrom,
        dateTo: range.dateTo,
        validFrom: period.validFrom ? period.validFrom.getTime() : null,
        validTo: period.validTo ? period.validTo.getTime() : null,
        modelId: period.modelId,
        providerId: period.providerId,
        inputCostPerToken: period.inputCostPerToken,
        outputCostPerToken: period.outputCostPerToken,
        cacheReadCostPerToken: period.cacheReadCostPerToken,
        cacheWriteCostPerToken: period.cacheWriteCostPerToken,
      });
    }
  }
  return rows;
}
