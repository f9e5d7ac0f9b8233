// The SQL migrations are written by hand (the Prisma CLI cannot run here), so this test proves
// they create exactly the tables, columns, keys and indexes that prisma/schema.prisma declares,
// and that the generated client can write and read every model through them. It also keeps the
// PostgreSQL side in step: every migration has its PostgreSQL twin, and the derived PostgreSQL
// schema and both generated clients match prisma/schema.prisma. (The PostgreSQL tables
// themselves are checked in test/postgres/migrations.test.ts.)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivePostgresSchema } from '../../scripts/prisma-schemas.mjs';
import { applyMigrations, MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR, readMigrations } from '../../src/db/migrate';
import { openRelationalStore, type RelationalStore } from '../../src/db/store';
import { exerciseEveryModel } from '../helpers/model-roundtrip';
import { foreignKeysOf, parsePrismaSchema, SQLITE_TYPE_OF } from '../helpers/prisma-schema';

const SCHEMA_TEXT = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
const models = parsePrismaSchema(SCHEMA_TEXT);
const REGENERATE = 'run `npm run prisma:generate` after changing prisma/schema.prisma';

describe('PostgreSQL twins and generated files', () => {
  it('gives every SQLite migration a PostgreSQL twin of the same name, and nothing else', () => {
    const sqlite = readMigrations(MIGRATIONS_DIR).map((migration) => migration.name);
    const postgres = readMigrations(POSTGRES_MIGRATIONS_DIR).map((migration) => migration.name);
    for (const name of sqlite) {
      expect(postgres, `prisma/migrations/${name} needs its twin prisma/postgres/migrations/${name}/migration.sql`).toContain(name);
    }
    for (const name of postgres) expect(sqlite, `prisma/postgres/migrations/${name} has no SQLite original`).toContain(name);
  });

  it('derives the PostgreSQL schema from prisma/schema.prisma, and it is current', () => {
    const derived = derivePostgresSchema(SCHEMA_TEXT);
    expect(derived).toContain('provider = "postgresql"');
    expect(derived).not.toContain('provider = "sqlite"');
    // Same models, field for field.
    expect(parsePrismaSchema(derived)).toEqual(models);
    const onDisk = new URL('../../prisma/postgres/schema.prisma', import.meta.url);
    expect(existsSync(onDisk), REGENERATE).toBe(true);
    expect(readFileSync(onDisk, 'utf8'), REGENERATE).toBe(derived);
  });

  it('has both clients generated from the current schemas', () => {
    const inlineSchemaOf = (client: string) => {
      const text = readFileSync(new URL(`../../src/generated/${client}/internal/class.ts`, import.meta.url), 'utf8');
      const match = /"inlineSchema":\s*("(?:[^"\\]|\\.)*")/.exec(text);
      expect(match, `no inline schema in src/generated/${client}`).not.toBeNull();
      return JSON.parse(match![1]!) as string;
    };
    // Prisma re-aligns the columns of the schema it embeds: compare with spacing collapsed.
    const spacing = (text: string) => text.replace(/[ \t]+/g, ' ').trim();
    expect(spacing(inlineSchemaOf('prisma')), REGENERATE).toBe(spacing(SCHEMA_TEXT));
    expect(spacing(inlineSchemaOf('prisma-postgres')), REGENERATE).toBe(spacing(derivePostgresSchema(SCHEMA_TEXT)));
  });
});

describe('SQL migrations', () => {
  let dir: string;
  let db: Database.Database;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-migrations-'));
    db = new Database(path.join(dir, 'test.db'));
    applyMigrations(db);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the schema file (sanity check of the test itself)', () => {
    expect(models.map((model) => model.name)).toContain('Dataset');
    expect(models.every((model) => model.fields.length > 0)).toBe(true);
  });

  it('creates exactly the tables of the Prisma schema', () => {
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations'`).all() as { name: string }[]
    ).map((row) => row.name);
    expect(tables.sort()).toEqual(models.map((model) => model.table).sort());
  });

  for (const model of models) {
    it(`table ${model.table} matches model ${model.name}`, () => {
      const columns = db.prepare(`PRAGMA table_info("${model.table}")`).all() as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
        dflt_value: string | null;
      }[];
      expect(columns.map((c) => c.name).sort()).toEqual(model.fields.map((f) => f.column).sort());
      for (const field of model.fields) {
        const column = columns.find((c) => c.name === field.column)!;
        expect(column.type, `${model.table}.${field.column} type`).toBe(SQLITE_TYPE_OF[field.type]);
        const isPk = model.primaryKey.includes(field.column);
        // SQLite reports INTEGER PRIMARY KEY as nullable; Prisma requires it anyway.
        if (!(isPk && column.type === 'INTEGER')) {
          expect(column.notnull === 1, `${model.table}.${field.column} NOT NULL`).toBe(!field.optional);
        }
        const hasDbDefault = column.dflt_value !== null;
        const prismaDbDefault = field.hasDefault && !(isPk && field.type === 'Int'); // autoincrement is not a DEFAULT
        expect(hasDbDefault, `${model.table}.${field.column} default`).toBe(prismaDbDefault);
      }
      const pkColumns = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      expect(pkColumns).toEqual(model.primaryKey);

      const indexList = db.prepare(`PRAGMA index_list("${model.table}")`).all() as { name: string; unique: number; origin: string }[];
      const indexColumns = (name: string) =>
        (db.prepare(`PRAGMA index_info("${name}")`).all() as { name: string }[]).map((row) => row.name);
      const declared = indexList.filter((index) => index.origin === 'c');
      expect(
        declared.filter((index) => index.unique).map((index) => indexColumns(index.name).join(',')).sort(),
      ).toEqual(model.uniques.map((cols) => cols.join(',')).sort());
      expect(
        declared.filter((index) => !index.unique).map((index) => indexColumns(index.name).join(',')).sort(),
      ).toEqual(model.indexes.map((cols) => cols.join(',')).sort());

      const keys = db.prepare(`PRAGMA foreign_key_list("${model.table}")`).all() as { id: number; seq: number; table: string; from: string; to: string; on_delete: string }[];
      const byId = new Map<number, typeof keys>();
      for (const key of keys) byId.set(key.id, [...(byId.get(key.id) ?? []), key]);
      const foreignKeys = [...byId.values()].map((parts) => {
        const sorted = parts.sort((a, b) => a.seq - b.seq);
        return `${sorted.map((p) => p.from).join(',')} -> ${sorted[0]!.table}(${sorted.map((p) => p.to).join(',')}) ON DELETE ${sorted[0]!.on_delete}`;
      });
      expect(foreignKeys.sort()).toEqual(foreignKeysOf(model, models));
    });
  }

  it('is idempotent and refuses an edited migration', () => {
    expect(applyMigrations(db)).toEqual([]);
    const [first, ...rest] = readMigrations();
    expect(() => applyMigrations(db, [{ ...first!, checksum: 'edited' }, ...rest])).toThrow(/was changed/);
  });
});

describe('Prisma client over the migrated database', () => {
  let dir: string;
  let store: RelationalStore;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-prisma-'));
    store = await openRelationalStore(path.join(dir, 'app.db'));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes and reads every model, relations and cascades included', async () => {
    await exerciseEveryModel(store.prisma);
  });
});
