// The catalog's cheap change check: the id of the newest sync, polled by every running server
// so a sync written anywhere (another instance, the sync command) is loaded everywhere.
import type { SqlExecutor } from '../sql';

export class CatalogRows {
  constructor(private readonly sql: SqlExecutor) {}

  async latestSyncId(): Promise<number | undefined> {
    const row = await this.sql.row<{ id: number | null }>('SELECT max(id) AS id FROM catalog_syncs');
    return row?.id ?? undefined;
  }
}
