// Views (`views`), read when a query names a source that is not a dataset. Definitions are
// written through Prisma (src/datasets/views.ts).
import type { SqlExecutor } from '../sql';

export interface ViewRow {
  id: string;
  name: string;
  aplQuery: string;
}

export class ViewRows {
  constructor(private readonly sql: SqlExecutor) {}

  async byName(orgId: string, name: string): Promise<ViewRow | undefined> {
    const row = await this.sql.row<{ id: string; name: string; apl_query: string }>('SELECT id, name, apl_query FROM views WHERE org_id = ? AND name = ?', [
      orgId,
      name,
    ]);
    return row && { id: row.id, name: row.name, aplQuery: row.apl_query };
  }
}
