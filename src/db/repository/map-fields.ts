// The map field names of datasets (`dataset_map_fields`), read on every ingest request to know
// which objects to keep whole. Declarations are written through Prisma (src/datasets/schema).
import { chunked, type SqlExecutor } from '../sql';

export class MapFieldRows {
  constructor(private readonly sql: SqlExecutor) {}

  async namesOf(datasetId: string): Promise<string[]> {
    const rows = await this.sql.rows<{ name: string }>('SELECT name FROM dataset_map_fields WHERE dataset_id = ? ORDER BY name', [datasetId]);
    return rows.map((row) => row.name);
  }

  /** The names of several datasets in one read (dataset listings). */
  async namesOfMany(datasetIds: readonly string[]): Promise<Map<string, string[]>> {
    const names = new Map<string, string[]>(datasetIds.map((id) => [id, []]));
    if (datasetIds.length === 0) return names;
    for (const chunk of chunked(datasetIds)) {
      const rows = await this.sql.rows<{ dataset_id: string; name: string }>(
        `SELECT dataset_id, name FROM dataset_map_fields WHERE dataset_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY dataset_id, name`,
        chunk,
      );
      for (const row of rows) names.get(row.dataset_id)?.push(row.name);
    }
    return names;
  }
}
