// Dataset tables laid out as src/fields/ and src/engines/duckdb/layout.ts prescribes, filled with given events, in an
// in-memory DuckDB (or, with TEST_EVENT_STORE=chdb, in ClickHouse embedded through chdb, with
// the ClickHouse dialect); plus the engine wired over them. Column names deliberately differ from
// field names so every test also proves that names are mapped through the schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance, timestampNanosValue } from '@duckdb/node-api';
import { CLICKHOUSE_QUERY_SETTINGS, clickhouseDialect } from '../../../src/apl/dialect/clickhouse';
import { installClickHousePriceTable } from '../../../src/engines/clickhouse/price-table';
import { createClickHouseRunner } from '../../../src/engines/clickhouse/apl-runner';
import { installPriceTable } from '../../../src/engines/duckdb/price-table';
import type { PriceTableRow } from '../../../src/engines/price-rows';
import { ChdbExecutor } from '../../../src/engines/clickhouse/chdb-executor';
import type { ClickHouseExecutor } from '../../../src/engines/clickhouse/executor';
import {
  clickhouseTypeOf,
  columnIdentifier,
  dateTime64Text,
  physicalColumn,
  quoteIdentifier as quoteClickHouse,
  SYSTEM_COLUMNS_SQL,
} from '../../../src/engines/clickhouse/layout';
import { escapeText } from '../../../src/engines/clickhouse/tsv';
import type { DatasetSchema, StoredField } from '../../../src/fields/schema';
import { duckdbTypeOf, quoteIdentifier } from '../../../src/engines/duckdb/layout';
import type { FieldType } from '../../../src/fields/types';
import { SYSTEM_STORED_FIELDS } from '../../../src/fields/system-fields';
import { createDuckDBRunner, datasetNamesOf, type EngineDeps, executeApl, type AplRequest, parseQuery, type QueryResult } from '../../../src/apl';
import { parseDateTime } from '../../../src/apl/time';

export interface TestEvent {
  _time: string;
  _sysTime?: string;
  _rowId?: bigint;
  [field: string]: unknown;
}

/** True when the engine runs on ClickHouse embedded (the `chdb` test project). */
export const ON_CHDB = process.env.TEST_EVENT_STORE === 'chdb';

export interface TestDatabase {
  /** The DuckDB instance and connection (undefined on chdb, whose tests do not use them). */
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  /** The ClickHouse executor on chdb. */
  clickhouse?: ClickHouseExecutor;
  datasets: Map<string, DatasetSchema>;
  /** Views by name: their APL, read over `datasets` (a view's own datasets are not checked). */
  views: Map<string, string>;
  deps: EngineDeps;
  query(apl: string, request?: Omit<AplRequest, 'apl'>): Promise<QueryResult>;
  /** Rows of the first table as objects keyed by field name. */
  rows(apl: string, request?: Omit<AplRequest, 'apl'>): Promise<Record<string, unknown>[]>;
  /** Runs a statement in the engine's own SQL (DuckDB's, or ClickHouse's on chdb). */
  execute(sql: string): Promise<void>;
  /** The first value of the first row of a statement in the engine's own SQL. */
  scalar(sql: string): Promise<unknown>;
  /** A name quoted as an identifier of the engine's SQL. */
  quote(name: string): string;
  /** Replaces the model prices the genai_* functions join, as the engine's store installs them. */
  installPrices(rows: readonly PriceTableRow[]): Promise<void>;
  close(): void | Promise<void>;
}

let nextRowId = 1n;
let nextTable = 0;
/** The catalog snapshot each install on chdb claims (each one newer, so each replaces the last). */
let priceVersion = 0;

/** The engine over the test's datasets and views (a view's own datasets are not checked). */
function engineDeps(datasets: Map<string, DatasetSchema>, views: Map<string, string>, now: string, engine: Pick<EngineDeps, 'runner' | 'dialect'>): EngineDeps {
  return {
    resolveDatasets: async (names) => names.flatMap((name) => (datasets.has(name) ? [datasets.get(name)!] : [])),
    resolveViews: async (names) =>
      names.flatMap((name) => {
        const apl = views.get(name);
        if (apl === undefined) return [];
        const query = parseQuery(apl);
        return [{ name, query, datasets: datasetNamesOf(query).flatMap((read) => (datasets.has(read) ? [datasets.get(read)!] : [])) }];
      }),
    listDatasets: async () => [...datasets.keys()],
    ...engine,
    maxQueryRows: 65_000,
    queryTimeoutMs: 30_000,
    cursorKey: 'test-cursor-key',
    now: () => parseDateTime(now)!,
  };
}

export async function createTestDatabase(now = '2024-05-01T00:00:00Z'): Promise<TestDatabase> {
  if (ON_CHDB) return createChdbDatabase(now);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const datasets = new Map<string, DatasetSchema>();
  const views = new Map<string, string>();
  const deps = engineDeps(datasets, views, now, { runner: createDuckDBRunner(instance) });
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
    async execute(sql) {
      await connection.run(sql);
    },
    async scalar(sql) {
      return (await connection.runAndReadAll(sql)).getRows()[0]?.[0];
    },
    quote: quoteIdentifier,
    installPrices: (rows) => installPriceTable(connection, rows),
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

async function createChdbDatabase(now: string): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-chdb-'));
  const executor = await ChdbExecutor.open(dir, { ...CLICKHOUSE_QUERY_SETTINGS, mutations_sync: 2, lightweight_deletes_sync: 2 });
  const datasets = new Map<string, DatasetSchema>();
  const views = new Map<string, string>();
  const deps = engineDeps(datasets, views, now, { runner: createClickHouseRunner(executor), dialect: clickhouseDialect });
  const query = (apl: string, request: Omit<AplRequest, 'apl'> = {}) => executeApl({ apl, ...request }, deps);
  return {
    instance: undefined as never,
    connection: undefined as never,
    clickhouse: executor,
    datasets,
    views,
    deps,
    query,
    async rows(apl, request) {
      return tableRows(await query(apl, request));
    },
    async execute(sql) {
      // Deletes are made synchronous for the user (a SETTINGS clause would end an INSERT's values).
      await executor.command(sql);
    },
    async scalar(sql) {
      return (await executor.query(sql)).rows[0]?.[0];
    },
    quote: quoteClickHouse,
    async installPrices(rows) {
      await installClickHousePriceTable(executor, rows, ++priceVersion);
    },
    async close() {
      await executor.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A value as ClickHouse's TabSeparated input for a column of the field type. */
function clickhouseText(value: unknown, type: FieldType): string {
  if (value === undefined || value === null) return '\\N';
  switch (type) {
    case 'string':
      return escapeText(String(value));
    case 'integer':
    case 'timespan':
      return BigInt(value as number | bigint).toString();
    case 'float':
      return String(Number(value));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'datetime':
      return dateTime64Text(parseDateTime(String(value))!);
    default:
      return escapeText(JSON.stringify(value));
  }
}

async function addClickHouseDataset(executor: ClickHouseExecutor, schema: DatasetSchema, events: TestEvent[]): Promise<void> {
  const userFields = schema.fields.slice(SYSTEM_STORED_FIELDS.length);
  const columns = userFields.map((field) => `${columnIdentifier(field.column)} ${clickhouseTypeOf(field.type)}`);
  await executor.command(
    `CREATE TABLE ${quoteClickHouse(schema.table)} (${[SYSTEM_COLUMNS_SQL, ...columns].join(', ')}) ENGINE = MergeTree ORDER BY (_time, _rowId)`,
  );
  if (events.length === 0) return;
  const lines = events.map((event) => {
    const time = parseDateTime(event._time)!;
    const cells = [
      dateTime64Text(time),
      dateTime64Text(event._sysTime ? parseDateTime(event._sysTime)! : time),
      String(event._rowId ?? nextRowId++),
      ...userFields.map((field) => clickhouseText(event[field.name], field.type)),
    ];
    return cells.join('\t');
  });
  await executor.insert(schema.table, schema.fields.map((field) => physicalColumn(field.column)), Buffer.from(lines.join('\n') + '\n'));
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
  if (db.clickhouse) {
    await addClickHouseDataset(db.clickhouse, schema, events);
    db.datasets.set(name, schema);
    return schema;
  }
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
