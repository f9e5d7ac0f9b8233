// One import of the catalog: read a source, map and sort its entries, replace the stored
// catalog in one transaction. Used at first start and by `npm run sync`. Any failure before the
// transaction commits leaves the previous catalog as it was.
import type { RelationalStore } from '../db/store';
import { buildCatalog } from './build';
import { loadFallbackData } from './fallback';
import { readCatalogSource, SOURCE_FETCH_TIMEOUT_MS } from './source';
import { replaceCatalog, type SyncRecord } from './store';

/** A source to read, or (`document`) one already read from `source`. */
export type CatalogSourceRequest = { kind: 'litellm'; source: string; document?: unknown } | { kind: 'fallback' };

export type SyncProgress = (message: string) => void;

export interface SyncOptions {
  onProgress?: SyncProgress;
  timeoutMs?: number;
  now?: () => Date;
}

function withoutMilliseconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

export async function importCatalog(
  store: RelationalStore,
  request: CatalogSourceRequest,
  { onProgress = () => {}, timeoutMs = SOURCE_FETCH_TIMEOUT_MS, now = () => new Date() }: SyncOptions = {},
): Promise<SyncRecord> {
  let source: string;
  let document: unknown;
  if (request.kind === 'fallback') {
    onProgress('reading the bundled fallback data set');
    const fallback = await loadFallbackData();
    source = fallback.description;
    document = fallback.entries;
  } else {
    source = request.source;
    onProgress(`reading ${source}`);
    document = request.document ?? (await readCatalogSource(source, timeoutMs));
  }

  onProgress('mapping model entries');
  const built = buildCatalog(document);
  const modelsSkipped = built.modelsRead - built.records.length;
  onProgress(`read ${built.modelsRead} entries; writing ${built.records.length} models`);

  return replaceCatalog(store, built.records, {
    source,
    sourceKind: request.kind,
    syncedAt: withoutMilliseconds(now()),
    modelsRead: built.modelsRead,
    modelsSkipped,
    modelsWritten: built.records.length,
    skipReasons: built.skipReasons,
  });
}
