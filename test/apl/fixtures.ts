// Dataset tables laid out as src/events/layout.ts prescribes, filled with given events, in an
// in-memory DuckDB; plus the engine wired over them. Column names deliberately differ from
// field names so every test also proves that names are mapped through the schema.
import { type DuckDBConnection, DuckDBInstance, timestampNanosValue } from '@duckdb/node-api';
import {
  type DatasetSchema,
  duckdbTypeOf,
  type FieldType,
  quoteIdentifier,
  type StoredField,
  SYSTEM_STORED_FIELDS,
} from '../../src/events/layout';
import { createDuckDBRunner, datasetNamesOf, type EngineDeps, executeApl, type AplRequest, parseQuery, type QueryResult } from '../../src/apl';
import { parseDateTime } from '../../src/apl/time';

export interface TestEvent {
  _time: string;
  _sysTime?: string;
  _rowId?: bigint;
  [field: string]: unknown;
}

export interface TestDatabase {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  datasets: Map<string, DatasetSchema>;
  /** Views by name: their APL, read over `datasets` (a view's own datasets are not checked). */
  views: Map<string, string>;
  deps: EngineDeps;
  query(apl: string, request?: Omit<AplRequest, 'apl'>): Promise<QueryResult>;
  /** Rows of the first table as objects keyed by field name. */
  rows(apl: string, request?: Omit<AplRequest, 'apl'>): Promise<Record<string, unknown>[]>;
  close(): void;
}

let nextRowId = 1n;
let nextTable = 0;

export async function createTestDatabase(now = '2024-05-01T00:00:00Z'): Promise<TestDatabase> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const datasets = new Map<string, DatasetSchema>();
  const views = new Map<string, string>();
  const deps: EngineDeps = {
    resolveDatasets: async (names) => names.flatMap((name) => (datasets.has(name) ? [datasets.get(name)!] : [])),
    resolveViews: async (names) =>
      names.flatMap((name) => {
        const apl = views.get(name);
        if (apl === undefined) return [];
        const query = parseQuery(apl);
        return [{ name, query, datasets: datasetNamesOf(query).flatMap((read) => (datasets.has(read) ? [datasets.get(read)!] : [])) }];
      }),
    listDatasets: async () => [...datasets.keys()],
    runner: createDuckDBRunner(instance),
    maxQueryRows: 65_000,
    queryTimeoutMs: 30_000,
    cursorKey: 'test-cursor-key',
    now: () => parseDateTime(now)!,
  };
  const query = (apl: string, request: Omit<AplRequest, 'apl'> = {}) => executeApl({ apl, ...request }, deps);
  return {
    instance,
    connection,
    datasets,
    views,
    deps,
    query,
    async rows(apl, request) {
      return tableRows(await query(apl, request));
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

export function tableRows(result: QueryResult): Record<string, unknown>[] {
  const { fields, columns } = result.table;
  const count = columns[0]?.length ?? 0;
  return Array.from({ length: count }, (_, row) => Object.fromEntries(fields.map((field, i) => [field.name, columns[i]![row]])));
}

/** Creates a dataset table with user fields in the given order and appends the events. */
export async function addDataset(
  db: TestDatabase,
  name: string,
  fields: { name: string; type: FieldType; storedAs?: 'VARIANT' }[],
  events: TestEvent[],
): Promise<DatasetSchema> {
  const table = `events_${nextTable++}`;
  const userFields: StoredField[] = fields.map((field, i) => ({ ...field, column: `f${i}_${field.name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}` }));
  const schema: DatasetSchema = { name, table, fields: [...SYSTEM_STORED_FIELDS, ...userFields] };
  // Mixed fields are appended as JSON text; those kept as VARIANT are converted afterwards.
  const columns = schema.fields.map((field) => `${quoteIdentifier(field.column)} ${duckdbTypeOf(field.type)}`);
  await db.connection.run(`CREATE TABLE ${quoteIdentifier(table)} (${columns.join(', ')})`);
  const appender = await db.connection.createAppender(table);
  for (const event of events) {
    const time = parseDateTime(event._time)!;
    appender.appendTimestampNanoseconds(timestampNanosValue(time));
    appender.appendTimestampNanoseconds(timestampNanosValue(event._sysTime ? parseDateTime(event._sysTime)! : time));
    appender.appendBigInt(event._rowId ?? nextRowId++);
    for (const field of userFields) {
      const value = event[field.name];
      if (value === undefined || value === null) appender.appendNull();
      else if (field.type === 'string') appender.appendVarchar(String(value));
      else if (field.type === 'integer' || field.type === 'timespan') appender.appendBigInt(BigInt(value as number | bigint));
      else if (field.type === 'float') appender.appendDouble(Number(value));
      else if (field.type === 'boolean') appender.appendBoolean(Boolean(value));
      else if (field.type === 'datetime') appender.appendTimestampNanoseconds(timestampNanosValue(parseDateTime(String(value))!));
      else appender.appendVarchar(JSON.stringify(value));
    }
    appender.endRow();
  }
  appender.closeSync();
  for (const field of userFields.filter((f) => f.storedAs === 'VARIANT')) {
    const column = quoteIdentifier(field.column);
    await db.connection.run(`ALTER TABLE ${quoteIdentifier(table)} ALTER COLUMN ${column} TYPE VARIANT USING CAST(${column} AS VARIANT)`);
  }
  db.datasets.set(name, schema);
  return schema;
}
