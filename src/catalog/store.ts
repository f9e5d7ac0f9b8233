// Persists the catalog in the relational store: one row per record (its JSON as served, its
// position in list order) and one row per completed sync. A sync replaces every record in one
// transaction, so readers see the old catalog or the new one, never a mix.
import type { RelationalStore } from '../db/store';
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
}

export async function replaceCatalog(
  store: RelationalStore,
  records: readonly ModelRecord[],
  sync: Omit<SyncRecord, 'id'>,
): Promise<SyncRecord> {
  const { prisma } = store;
  const [, , row] = await prisma.$transaction([
    prisma.catalogModel.deleteMany(),
    prisma.catalogModel.createMany({
      data: records.map((record, position) => ({
        id: record.model_id,
        providerId: record.provider_id,
        position,
        record: JSON.stringify(record),
      })),
    }),
    prisma.catalogSync.create({
      data: {
        source: sync.source,
        sourceKind: sync.sourceKind,
        syncedAt: sync.syncedAt,
        modelsRead: sync.modelsRead,
        modelsSkipped: sync.modelsSkipped,
        modelsWritten: sync.modelsWritten,
        skipReasons: JSON.stringify(sync.skipReasons),
      },
    }),
  ]);
  return { ...sync, id: row.id };
}

/** The stored catalog with the sync that wrote it, or undefined when nothing was imported yet. */
export async function readStoredCatalog(store: RelationalStore): Promise<StoredCatalog | undefined> {
  const { prisma } = store;
  const [rows, sync] = await prisma.$transaction([
    prisma.catalogModel.findMany({ orderBy: { position: 'asc' } }),
    prisma.catalogSync.findFirst({ orderBy: { id: 'desc' } }),
  ]);
  if (!sync || rows.length === 0) return undefined;
  return {
    records: rows.map((row) => JSON.parse(row.record) as ModelRecord),
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
  };
}

/**
 * The id of the newest sync, read through the repository layer (cheap, unlike a Prisma query) so
 * a running server can notice that another process (the sync command, another instance)
 * replaced the catalog.
 */
export function latestSyncId(store: RelationalStore): Promise<number | undefined> {
  return store.repository.catalog.latestSyncId();
}
