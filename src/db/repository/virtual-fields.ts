// The virtual fields of datasets (`virtual_fields`), read on every query over a dataset to
// bind them by name. Definitions are written through Prisma (src/datasets/virtual-fields.ts).
import type { SqlExecutor } from '../sql';

export interface VirtualFieldRow {
  name: string;
  expression: string;
}

export class VirtualFieldRows {
  constructor(private readonly sql: SqlExecutor) {}

  /** The dataset's virtual fields in definition order, each of which may use those before it. */
  async of(datasetId: string): Promise<VirtualFieldRow[]> {
    return this.sql.rows<VirtualFieldRow>('SELECT name, expression FROM virtual_fields WHERE dataset_id = ? ORDER BY position, id', [datasetId]);
  }
}
