// Dataset resolution on the ingest and query paths, and the scans background work needs.
import { readBoolean, readTime, type SqlExecutor } from '../sql';

export interface DatasetRow {
  id: string;
  orgId: string;
  name: string;
  description: string;
  kind: string;
  retentionDays: number;
  useRetentionPeriod: boolean;
  tableName: string;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface RetainedDataset {
  id: string;
  name: string;
  tableName: string;
  retentionDays: number;
}

interface StoredDataset {
  id: string;
  org_id: string;
  name: string;
  description: string;
  kind: string;
  retention_days: number;
  use_retention_period: unknown;
  table_name: string;
  created_by: string;
  created_at: unknown;
  updated_at: unknown;
}

const COLUMNS =
  'id, org_id, name, description, kind, retention_days, use_retention_period, table_name, created_by, created_at, updated_at';

function datasetOf(row: StoredDataset): DatasetRow {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    retentionDays: Number(row.retention_days),
    useRetentionPeriod: readBoolean(row.use_retention_period),
    tableName: row.table_name,
    createdBy: row.created_by,
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
  };
}

export class DatasetRows {
  constructor(private readonly sql: SqlExecutor) {}

  async byName(orgId: string, name: string): Promise<DatasetRow | undefined> {
    const row = await this.sql.row<StoredDataset>(`SELECT ${COLUMNS} FROM datasets WHERE org_id = ? AND name = ?`, [orgId, name]);
    return row && datasetOf(row);
  }

  /** The organization's datasets by name (in code-point order, whatever the database's collation). */
  async ofOrg(orgId: string): Promise<DatasetRow[]> {
    const rows = await this.sql.rows<StoredDataset>(`SELECT ${COLUMNS} FROM datasets WHERE org_id = ?`, [orgId]);
    return rows.map(datasetOf).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.sql.row('SELECT 1 AS found FROM datasets WHERE id = ?', [id])) !== undefined;
  }

  /** Every dataset's id and event table. */
  async tables(): Promise<{ id: string; tableName: string; kind: string }[]> {
    const rows = await this.sql.rows<{ id: string; table_name: string; kind: string }>('SELECT id, table_name, kind FROM datasets');
    return rows.map((row) => ({ id: row.id, tableName: row.table_name, kind: row.kind }));
  }

  /** Datasets whose retention period is in force. */
  async withRetention(): Promise<RetainedDataset[]> {
    const rows = await this.sql.rows<{ id: string; name: string; table_name: string; retention_days: number }>(
      'SELECT id, name, table_name, retention_days FROM datasets WHERE use_retention_period = TRUE AND retention_days > 0',
    );
    return rows.map((row) => ({ id: row.id, name: row.name, tableName: row.table_name, retentionDays: Number(row.retention_days) }));
  }
}
