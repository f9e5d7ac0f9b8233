// The field registry rows (`dataset_fields`): written when ingest adds or widens a field (or
// vacuum drops one), read by the start-up reconciliation and for the metadata users set
// (unit, description, hidden) that every query answer carries.
import { chunked, readBoolean, type SqlExecutor, type SqlStatement, valuesPlaceholders } from '../sql';

export interface FieldRow {
  name: string;
  type: string;
  columnName: string;
}

export interface FieldDescription {
  name: string;
  unit: string;
  description: string;
  hidden: boolean;
}

export class FieldRows {
  constructor(private readonly sql: SqlExecutor) {}

  async of(datasetId: string): Promise<FieldRow[]> {
    const rows = await this.sql.rows<{ name: string; type: string; column_name: string }>(
      'SELECT name, type, column_name FROM dataset_fields WHERE dataset_id = ?',
      [datasetId],
    );
    return rows.map((row) => ({ name: row.name, type: row.type, columnName: row.column_name }));
  }

  /** Fields of the dataset with anything set by users. */
  async described(datasetId: string): Promise<FieldDescription[]> {
    const rows = await this.sql.rows<{ name: string; unit: string; description: string; hidden: unknown }>(
      `SELECT name, unit, description, hidden FROM dataset_fields
       WHERE dataset_id = ? AND (unit <> '' OR description <> '' OR hidden = TRUE)`,
      [datasetId],
    );
    return rows.map((row) => ({ name: row.name, unit: row.unit, description: row.description, hidden: readBoolean(row.hidden) }));
  }

  /** Statements that record fields as they now are (type and column), keeping what users set. */
  upsertStatements(datasetId: string, fields: readonly FieldRow[], now = new Date()): SqlStatement[] {
    return chunked(fields).map((chunk) => ({
      sql: `INSERT INTO dataset_fields (dataset_id, name, type, column_name, created_at) VALUES ${valuesPlaceholders(chunk.length, 5)}
            ON CONFLICT (dataset_id, name) DO UPDATE SET type = excluded.type, column_name = excluded.column_name`,
      params: chunk.flatMap((field) => [datasetId, field.name, field.type, field.columnName, now]),
    }));
  }

  removeStatements(datasetId: string, names: readonly string[]): SqlStatement[] {
    return chunked(names).map((chunk) => ({
      sql: `DELETE FROM dataset_fields WHERE dataset_id = ? AND name IN (${chunk.map(() => '?').join(', ')})`,
      params: [datasetId, ...chunk],
    }));
  }

  async upsert(datasetId: string, fields: readonly FieldRow[]): Promise<void> {
    await this.sql.batch(this.upsertStatements(datasetId, fields));
  }

  async remove(datasetId: string, names: readonly string[]): Promise<void> {
    await this.sql.batch(this.removeStatements(datasetId, names));
  }

  /** Runs registry writes (from the statement builders above) in one transaction. */
  async apply(statements: readonly SqlStatement[]): Promise<void> {
    await this.sql.batch(statements);
  }
}
