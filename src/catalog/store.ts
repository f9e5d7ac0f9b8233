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

/**
 * Rows written or read by one Prisma query. Prisma's query compiler (WebAssembly) takes a whole
 * query, data included, into its linear memory, which grows to the largest query it saw and never
 * shrinks: the whole catalog in one query (some 2,500 models with their JSON) left 27 MB there
 * for the life of the process. In slices of this many rows it stays a few MB.
 */
const ROWS_PER_QUERY = 200;

function slices<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_QUERY) result.push(items.slice(start, start + ROWS_PER_QUERY));
  return result;
}

/** Every row of a query read in slices: `page(after)` returns the rows past `after` by `keyOf`, in order. */
async function readAll<Row>(page: (after: number) => Promise<Row[]>, keyOf: (row: Row) => number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let after = -1; ; ) {
    const slice = await page(after);
    rows.push(...slice);
    if (slice.length < ROWS_PER_QUERY) return rows;
    after = keyOf(slice.at(-1)!);
  }
}

/** The whole price history, oldest period first. */
const readPrices = (client: Pick<RelationalStore['prisma'], 'catalogPrice'>) =>
  readAll((after) => client.catalogPrice.findMany({ where: { id: { gt: after } }, orderBy: { id: 'asc' }, take: ROWS_PER_QUERY }), (row) => row.id);

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
      for (const [index, slice] of slices(records).entries()) {
        await tx.catalogModel.createMany({
          data: slice.map((record, offset) => ({
            id: record.model_id,
            providerId: record.provider_id,
            position: index * ROWS_PER_QUERY + offset,
            record: JSON.stringify(record),
          })),
        });
      }
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
      for (const slice of slices(changes.open)) {
        await tx.catalogPrice.createMany({ data: slice.map((period) => ({ ...period, syncId: created.id })) });
      }
      return created;
    },
    { timeout: 60_000 },
  );
  return { ...sync, id: row.id };
}

/** The stored catalog with the sync that wrote it, or undefined when nothing was imported yet. */
export async function readStoredCatalog(store: RelationalStore): Promise<StoredCatalog | undefined> {
  const { rows, sync, priceRows } = await store.prisma.$transaction(
    async (tx) => ({
      rows: await readAll((after) => tx.catalogModel.findMany({ where: { position: { gt: after } }, orderBy: { position: 'asc' }, take: ROWS_PER_QUERY }), (row) => row.position),
      sync: await tx.catalogSync.findFirst({ orderBy: { id: 'desc' } }),
      priceRows: await readPrices(tx),
    }),
    { timeout: 60_000 },
  );
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
    for (const slice of slices(periods)) await tx.catalogPrice.createMany({ data: slice.map((period) => ({ ...period, syncId })) });
  });
  return (await readPrices(store.prisma)).map(periodOf);
}

/**
 * The id of the newest sync, read through the repository layer (cheap, unlike a Prisma query) so
 * a running server can notice that another process (the sync command, another instance)
 * replaced the catalog.
 */
export function latestSyncId(store: RelationalStore): Promise<number | undefined> {
  return store.repository.catalog.latestSyncId();
}
