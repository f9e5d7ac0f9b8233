// Persists the catalog in the relational store: one row per record (its JSON as served, its
// position in list order), one row per completed sync, and the price history (see
// price-history.ts). A sync replaces every record and extends the history in one transaction, so
// readers see the old catalog or the new one, never a mix.
import type { RelationalStore } from '../db/store';
import { type PricePeriod, planPriceChanges, pricesOf, type StoredPricePeriod } from './price-history';
import type { ModelRecord } from './record';

export type SourceKind = 'litellm' | 'fallback';

export interface SyncRecord {
  id: number;
  source: string;
  sourceKind: SourceKind;
  syncedAt: Date;
  modelsRead: number;
  modelsSkipped: number;
  modelsWritten: number;
  skipReasons: Record<string, number>;
}

export interface StoredCatalog {
  records: ModelRecord[];
  sync: SyncRecord;
  /** Every price period, of current and of removed models. */
  prices: PricePeriod[];
}

type PriceRow = {
  id: number;
  modelId: string;
  providerId: string;
  validFrom: Date | null;
  validTo: Date | null;
  inputCostPerToken: number;
  outputCostPerToken: number;
  cacheReadCostPerToken: number | null;
  cacheWriteCostPerToken: number | null;
};

const periodOf = (row: PriceRow): StoredPricePeriod => ({
  id: row.id,
  modelId: row.modelId,
  providerId: row.providerId,
  validFrom: row.validFrom,
  validTo: row.validTo,
  inputCostPerToken: row.inputCostPerToken,
  outputCostPerToken: row.outputCostPerToken,
  cacheReadCostPerToken: row.cacheReadCostPerToken,
  cacheWriteCostPerToken: row.cacheWriteCostPerToken,
});

export async function replaceCatalog(
  store: RelationalStore,
  records: readonly ModelRecord[],
  sync: Omit<SyncRecord, 'id'>,
): Promise<SyncRecord> {
  const row = await store.prisma.$transaction(
    async (tx) => {
      await tx.catalogModel.deleteMany();
      await tx.catalogModel.createMany({
        data: records.map((record, position) => ({
          id: record.model_id,
          providerId: record.provider_id,
          position,
          record: JSON.stringify(record),
        })),
      });
      const created = await tx.catalogSync.create({
        data: {
          source: sync.source,
          sourceKind: sync.sourceKind,
          syncedAt: sync.syncedAt,
          modelsRead: sync.modelsRead,
          modelsSkipped: sync.modelsSkipped,
          modelsWritten: sync.modelsWritten,
          skipReasons: JSON.stringify(sync.skipReasons),
        },
      });
      const open = (await tx.catalogPrice.findMany({ where: { validTo: null } })).map(periodOf);
      const known = new Set((await tx.catalogPrice.findMany({ select: { modelId: true }, distinct: ['modelId'] })).map((p) => p.modelId));
      const changes = planPriceChanges(open, known, records, sync.syncedAt);
      if (changes.close.length > 0) {
        await tx.catalogPrice.updateMany({ where: { id: { in: changes.close } }, data: { validTo: sync.syncedAt } });
      }
      if (changes.open.length > 0) {
        await tx.catalogPrice.createMany({ data: changes.open.map((period) => ({ ...period, syncId: created.id })) });
      }
      return created;
    },
    { timeout: 60_000 },
  );
  return { ...sync, id: row.id };
}

/** The stored catalog with the sync that wrote it, or undefined when nothing was imported yet. */
export async function readStoredCatalog(store: RelationalStore): Promise<StoredCatalog | undefined> {
  const { prisma } = store;
  const [rows, sync, priceRows] = await prisma.$transaction([
    prisma.catalogModel.findMany({ orderBy: { position: 'asc' } }),
    prisma.catalogSync.findFirst({ orderBy: { id: 'desc' } }),
    prisma.catalogPrice.findMany({ orderBy: { id: 'asc' } }),
  ]);
  if (!sync || rows.length === 0) return undefined;
  const records = rows.map((row) => JSON.parse(row.record) as ModelRecord);
  let prices: PricePeriod[] = priceRows.map(periodOf);
  if (prices.length === 0) prices = await seedPriceHistory(store, records, sync.id);
  return {
    records,
    sync: {
      id: sync.id,
      source: sync.source,
      sourceKind: sync.sourceKind === 'fallback' ? 'fallback' : 'litellm',
      syncedAt: sync.syncedAt,
      modelsRead: sync.modelsRead,
      modelsSkipped: sync.modelsSkipped,
      modelsWritten: sync.modelsWritten,
      skipReasons: JSON.parse(sync.skipReasons) as Record<string, number>,
    },
    prices,
  };
}

/**
 * A catalog imported before the history existed gets one open period per model, reaching back
 * to the beginning: its prices are the only ones known.
 */
async function seedPriceHistory(store: RelationalStore, records: readonly ModelRecord[], syncId: number): Promise<PricePeriod[]> {
  const periods: PricePeriod[] = records.map((record) => ({
    modelId: record.model_id,
    providerId: record.provider_id,
    validFrom: null,
    validTo: null,
    ...pricesOf(record),
  }));
  await store.prisma.$transaction(async (tx) => {
    if ((await tx.catalogPrice.count()) > 0) return;
    await tx.catalogPrice.createMany({ data: periods.map((period) => ({ ...period, syncId })) });
  });
  return (await store.prisma.catalogPrice.findMany({ orderBy: { id: 'asc' } })).map(periodOf);
}

/**
 * The id of the newest sync, read through the repository layer (cheap, unlike a Prisma query) so
 * a running server can notice that another process (the sync command, another instance)
 * replaced the catalog.
 */
export function latestSyncId(store: RelationalStore): Promise<number | undefined> {
  return store.repository.catalog.latestSyncId();
}
