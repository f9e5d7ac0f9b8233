// The PostgreSQL twins of the SQL migrations, applied to a fresh database, create exactly the
// tables, columns (types, nullability, defaults, the "C" collation on text), keys, indexes and
// foreign keys that prisma/schema.prisma declares, as information_schema and the catalogs
// report them; the PostgreSQL client writes and reads every model through them.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS_DIR, readMigrations } from '../../src/db/migrate';
import { applyPostgresMigrations } from '../../src/db/migrate-postgres';
import { openRelationalStore, type RelationalStore } from '../../src/db/store';
import { exerciseEveryModel } from '../helpers/model-roundtrip';
import type { TestDatabase } from '../helpers/postgres';
import { foreignKeysOf, parsePrismaSchema, POSTGRES_TYPE_OF } from '../helpers/prisma-schema';
import { freshPostgresDatabase } from '../helpers/server';

const models = parsePrismaSchema(readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8'));

interface ColumnInfo {
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  collation_name: string | null;
  datetime_precision: number | null;
}

describe('PostgreSQL migrations', () => {
  let database: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await applyPostgresMigrations(client);
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('creates exactly the tables of the Prisma schema', async () => {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    expect(rows.map((row) => row.table_name).sort()).toEqual(models.map((model) => model.table).sort());
  });

  for (const model of models) {
    it(`table ${model.table} matches model ${model.name}`, async () => {
      const { rows: columns } = await client.query<ColumnInfo>(
        `SELECT column_name, data_type, is_nullable, column_default, collation_name, datetime_precision
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [model.table],
      );
      expect(columns.map((c) => c.column_name).sort()).toEqual(model.fields.map((f) => f.column).sort());
      for (const field of model.fields) {
        const column = columns.find((c) => c.column_name === field.column)!;
        const where = `${model.table}.${field.column}`;
        expect(column.data_type, `${where} type`).toBe(POSTGRES_TYPE_OF[field.type]);
        if (field.type === 'DateTime') expect(column.datetime_precision, `${where} precision`).toBe(3);
        // Names sort and compare by code point, as on SQLite, whatever the database's locale.
        if (field.type === 'String') expect(column.collation_name, `${where} must be TEXT COLLATE "C"`).toBe('C');
        expect(column.is_nullable === 'NO', `${where} NOT NULL`).toBe(!field.optional);
        // Prisma's autoincrement is a sequence default here, so every @default has a column default.
        expect(column.column_default !== null, `${where} default`).toBe(field.hasDefault);
      }

      const { rows: indexes } = await client.query<{ unique: boolean; primary: boolean; columns: string[] }>(
        `SELECT ix.indisunique AS unique, ix.indisprimary AS primary,
                array(SELECT a.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                      JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
         FROM pg_index ix WHERE ix.indrelid = $1::regclass`,
        [`"${model.table}"`],
      );
      expect(indexes.filter((index) => index.primary).map((index) => index.columns)).toEqual([model.primaryKey]);
      const secondary = indexes.filter((index) => !index.primary);
      expect(secondary.filter((index) => index.unique).map((index) => index.columns.join(',')).sort()).toEqual(
        model.uniques.map((cols) => cols.join(',')).sort(),
      );
      expect(secondary.filter((index) => !index.unique).map((index) => index.columns.join(',')).sort()).toEqual(
        model.indexes.map((cols) => cols.join(',')).sort(),
      );

      const { rows: keys } = await client.query<{ definition: string }>(
        `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
        [`"${model.table}"`],
      );
      const foreignKeys = keys.map(({ definition }) => {
        const match = /^FOREIGN KEY \((.+?)\) REFERENCES (\S+?)\((.+?)\)/.exec(definition)!;
        const onDelete = /ON DELETE (SET NULL|SET DEFAULT|NO ACTION|CASCADE|RESTRICT)/.exec(definition)?.[1] ?? 'NO ACTION';
        const unquote = (list: string) => list.replaceAll('"', '').split(', ').join(',');
        return `${unquote(match[1]!)} -> ${match[2]!.replaceAll('"', '')}(${unquote(match[3]!)}) ON DELETE ${onDelete}`;
      });
      expect(foreignKeys.sort()).toEqual(foreignKeysOf(model, models));
    });
  }

  it('is idempotent and refuses an edited migration', async () => {
    expect(await applyPostgresMigrations(client)).toEqual([]);
    const [first, ...rest] = readMigrations(POSTGRES_MIGRATIONS_DIR);
    await expect(applyPostgresMigrations(client, [{ ...first!, checksum: 'edited' }, ...rest])).rejects.toThrow(/was changed/);
  });

  it('records the history in Prisma\'s table', async () => {
    const { rows } = await client.query<{ migration_name: string; applied_steps_count: number }>(
      'SELECT migration_name, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(readMigrations(POSTGRES_MIGRATIONS_DIR).map((migration) => migration.name));
    expect(rows.every((row) => row.applied_steps_count === 1)).toBe(true);
  });
});

describe('Prisma client over the migrated PostgreSQL database', () => {
  let database: TestDatabase;
  let store: RelationalStore;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    store = await openRelationalStore({ provider: 'postgresql', url: database.url });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('is the PostgreSQL store', () => {
    expect(store.provider).toBe('postgresql');
    expect(store.shared).toBe(true);
  });

  it('writes and reads every model, relations and cascades included', async () => {
    await exerciseEveryModel(store.prisma);
  });

  it('applies the migrations once when instances open the same database together', async () => {
    const other = await freshPostgresDatabase();
    try {
      const stores = await Promise.all([1, 2, 3].map(() => openRelationalStore({ provider: 'postgresql', url: other.url })));
      const count = await stores[0]!.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM "_prisma_migrations"');
      expect(count[0]!.n).toBe(readMigrations(POSTGRES_MIGRATIONS_DIR).length);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await other.drop();
    }
  });
});
