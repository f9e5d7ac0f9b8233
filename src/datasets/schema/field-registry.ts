// The schema of each dataset, for ingest and queries, and its mirror in the relational store.
//
// The event store is the source of truth: a table's columns, their types, and (as column
// comments) the field names that differ from their column names all commit with the events.
// `schemaOf` serves that layout as a `DatasetSchema` (from memory for an embedded store, read
// afresh from a shared one). The `dataset_fields` rows
// (which also carry what users set: unit, description, hidden) follow each schema change
// through the repository layer, and are brought back in step at start in case a crash fell
// between the two commits.
import type { Repository } from '../../db/repository';
import { METRICS_KIND } from '../datasets';
import type { DatasetSchema, StoredField } from '../../fields/schema';
import { SYSTEM_STORED_FIELDS } from '../../fields/system-fields';
import type { EventStore, StoredColumn } from '../../events/store/store';

/** A dataset as storage sees it: its id, its name and the table holding its events. */
export interface DatasetRef {
  id: string;
  name: string;
  tableName: string;
  /** The dataset kind, when known (metrics datasets hold no events). */
  kind?: string;
}

export class FieldRegistry {
  private readonly cache = new Map<string, { columns: readonly StoredColumn[]; name: string; schema: DatasetSchema }>();

  constructor(
    private readonly repository: Repository,
    private readonly store: EventStore,
  ) {}

  /** The dataset's layout: system fields, then user fields in the order they appeared. */
  async schemaOf(dataset: DatasetRef): Promise<DatasetSchema> {
    const columns = await this.store.layoutOf(dataset.tableName);
    if (!columns) return { name: dataset.name, table: dataset.tableName, fields: [...SYSTEM_STORED_FIELDS] };
    const cached = this.cache.get(dataset.tableName);
    if (cached && cached.columns === columns && cached.name === dataset.name) return cached.schema;
    const fields: StoredField[] = columns.map((column) => ({
      name: column.field,
      column: column.column,
      type: column.type,
      ...(column.storedAs ? { storedAs: column.storedAs } : {}),
    }));
    const schema: DatasetSchema = { name: dataset.name, table: dataset.tableName, fields };
    this.cache.set(dataset.tableName, { columns, name: dataset.name, schema });
    return schema;
  }

  /** User fields only (the registry rows), as the table holds them. */
  async userColumns(tableName: string): Promise<StoredColumn[]> {
    return ((await this.store.layoutOf(tableName)) ?? []).slice(SYSTEM_STORED_FIELDS.length);
  }

  /** Records fields that appeared or changed type (after their DuckDB commit). */
  async recordFields(datasetId: string, fields: { field: string; column: string; type: string }[]): Promise<void> {
    if (fields.length === 0) return;
    await this.repository.fields.upsert(
      datasetId,
      fields.map((field) => ({ name: field.field, type: field.type, columnName: field.column })),
    );
  }

  async removeFields(datasetId: string, names: string[]): Promise<void> {
    if (names.length === 0) return;
    await this.repository.fields.remove(datasetId, names);
  }

  /** True while the dataset is registered (false once deleted through any instance). */
  isRegistered(datasetId: string): Promise<boolean> {
    return this.repository.datasets.exists(datasetId);
  }

  forget(tableName: string): void {
    this.cache.delete(tableName);
  }

  /**
   * Brings every events dataset's registry rows in step with its table (and creates tables that
   * are missing). Returns the number of rows changed.
   *
   * With `addOnly`, rows are only added for fields the registry lacks: when this instance's
   * event store is its own (DuckDB) but the relational store is shared with other instances,
   * each of which saw other events, no single table is the whole truth. (A shared event store,
   * ClickHouse, is the whole truth.)
   */
  async reconcile({ addOnly = false }: { addOnly?: boolean } = {}): Promise<number> {
    // Metrics datasets keep series and points in the metrics store, not an events table.
    const datasets = (await this.repository.datasets.tables()).filter((dataset) => dataset.kind !== METRICS_KIND);
    for (const dataset of datasets) if (!this.store.hasTable(dataset.tableName)) await this.store.createTable(dataset.tableName);
    const statements = [];
    let changed = 0;
    for (const dataset of datasets) {
      const columns = await this.userColumns(dataset.tableName);
      const rows = new Map((await this.repository.fields.of(dataset.id)).map((row) => [row.name, row]));
      const upserts = [];
      for (const column of columns) {
        const row = rows.get(column.field);
        rows.delete(column.field);
        if (row && (addOnly || (row.type === column.type && row.columnName === column.column))) continue;
        upserts.push({ name: column.field, type: column.type, columnName: column.column });
      }
      const stale = addOnly ? [] : [...rows.keys()];
      statements.push(
        ...this.repository.fields.upsertStatements(dataset.id, upserts),
        ...this.repository.fields.removeStatements(dataset.id, stale),
      );
      changed += upserts.length + stale.length;
    }
    await this.repository.fields.apply(statements);
    return changed;
  }
}
