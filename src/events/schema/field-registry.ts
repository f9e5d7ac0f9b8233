// The schema of each dataset, for ingest and queries, and its mirror in SQLite.
//
// DuckDB is the source of truth: a table's columns, their types, and (as column comments) the
// field names that differ from their column names all commit with the events. `schemaOf`
// serves that layout as a `DatasetSchema` from memory. The `dataset_fields` rows in SQLite
// (which also carry what users set: unit, description, hidden) follow each schema change
// through prepared statements, and are brought back in step at start in case a crash fell
// between the two commits.
import type Database from 'better-sqlite3';
import type { DatasetSchema, StoredField } from '../layout';
import { SYSTEM_STORED_FIELDS } from '../layout';
import type { EventStore, StoredColumn } from '../store/event-store';

/** A dataset as storage sees it: its id, its name and the table holding its events. */
export interface DatasetRef {
  id: string;
  name: string;
  tableName: string;
  /** The dataset kind, when known (metrics datasets hold no events). */
  kind?: string;
}

interface FieldRow {
  name: string;
  type: string;
  column_name: string;
}

const nowForPrisma = () => new Date().toISOString().replace('Z', '+00:00');

export class FieldRegistry {
  private readonly cache = new Map<string, { columns: readonly StoredColumn[]; name: string; schema: DatasetSchema }>();
  private readonly upsert: Database.Statement<[string, string, string, string, string]>;
  private readonly remove: Database.Statement<[string, string]>;
  private readonly rowsOf: Database.Statement<[string], FieldRow>;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly store: EventStore,
  ) {
    this.upsert = sqlite.prepare(
      `INSERT INTO dataset_fields (dataset_id, name, type, column_name, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (dataset_id, name) DO UPDATE SET type = excluded.type, column_name = excluded.column_name`,
    );
    this.remove = sqlite.prepare('DELETE FROM dataset_fields WHERE dataset_id = ? AND name = ?');
    this.rowsOf = sqlite.prepare('SELECT name, type, column_name FROM dataset_fields WHERE dataset_id = ?');
  }

  /** The dataset's layout: system fields, then user fields in the order they appeared. */
  schemaOf(dataset: DatasetRef): DatasetSchema {
    const columns = this.store.columnsOf(dataset.tableName);
    if (!columns) return { name: dataset.name, table: dataset.tableName, fields: [...SYSTEM_STORED_FIELDS] };
    const cached = this.cache.get(dataset.tableName);
    if (cached && cached.columns === columns && cached.name === dataset.name) return cached.schema;
    const fields: StoredField[] = columns.map((column) => ({ name: column.field, column: column.column, type: column.type }));
    const schema: DatasetSchema = { name: dataset.name, table: dataset.tableName, fields };
    this.cache.set(dataset.tableName, { columns, name: dataset.name, schema });
    return schema;
  }

  /** User fields only (the registry rows), as the table holds them. */
  userColumns(tableName: string): StoredColumn[] {
    return (this.store.columnsOf(tableName) ?? []).slice(SYSTEM_STORED_FIELDS.length);
  }

  /** Records fields that appeared or changed type (after their DuckDB commit). */
  recordFields(datasetId: string, fields: { field: string; column: string; type: string }[]): void {
    if (fields.length === 0) return;
    const createdAt = nowForPrisma();
    this.sqlite.transaction(() => {
      for (const field of fields) this.upsert.run(datasetId, field.field, field.type, field.column, createdAt);
    })();
  }

  removeFields(datasetId: string, names: string[]): void {
    if (names.length === 0) return;
    this.sqlite.transaction(() => {
      for (const name of names) this.remove.run(datasetId, name);
    })();
  }

  forget(tableName: string): void {
    this.cache.delete(tableName);
  }

  /**
   * Brings every dataset's registry rows in step with its table (and creates tables that are
   * missing). Returns the number of rows changed.
   */
  async reconcile(): Promise<number> {
    const datasets = this.sqlite.prepare('SELECT id, table_name FROM datasets').all() as { id: string; table_name: string }[];
    for (const dataset of datasets) if (!this.store.hasTable(dataset.table_name)) await this.store.createTable(dataset.table_name);
    let changed = 0;
    this.sqlite.transaction(() => {
      for (const dataset of datasets) {
        const columns = this.userColumns(dataset.table_name);
        const rows = new Map(this.rowsOf.all(dataset.id).map((row) => [row.name, row]));
        const createdAt = nowForPrisma();
        for (const column of columns) {
          const row = rows.get(column.field);
          rows.delete(column.field);
          if (row && row.type === column.type && row.column_name === column.column) continue;
          this.upsert.run(dataset.id, column.field, column.type, column.column, createdAt);
          changed++;
        }
        for (const stale of rows.keys()) {
          this.remove.run(dataset.id, stale);
          changed++;
        }
      }
    })();
    return changed;
  }
}
