// The SQL migrations are written by hand (the Prisma CLI cannot run here), so this test proves
// they create exactly the tables, columns, keys and indexes that prisma/schema.prisma declares,
// and that the generated client can write and read every model through them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, readMigrations } from '../src/db/migrate';
import { openRelationalStore, type RelationalStore } from '../src/db/sqlite';
import { parsePrismaSchema, SQLITE_TYPE_OF } from './helpers/prisma-schema';

const models = parsePrismaSchema(readFileSync(new URL('../prisma/schema.prisma', import.meta.url), 'utf8'));

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
    const { prisma } = store;
    await prisma.organization.create({ data: { id: 'org1', name: 'Org' } });
    await prisma.user.create({ data: { id: 'u1', name: 'Ann', email: 'ann@example.com' } });
    await prisma.membership.create({ data: { userId: 'u1', orgId: 'org1', role: 'owner' } });
    await prisma.token.create({
      data: { id: 't1', orgId: 'org1', userId: 'u1', kind: 'personal', name: 'p', secretHash: 'h1', expiresAt: new Date('2030-01-01T00:00:00Z') },
    });
    await prisma.dataset.create({
      data: { id: 'd1', orgId: 'org1', name: 'logs', tableName: 'ds_d1', createdBy: 'u1', fields: { create: [{ name: 'a.b', type: 'string', columnName: 'a.b' }] } },
    });
    await prisma.catalogModel.create({ data: { id: 'gpt-4o', providerId: 'openai', position: 0, record: '{}' } });
    await prisma.catalogSync.create({
      data: { source: 's', sourceKind: 'litellm', syncedAt: new Date(), modelsRead: 1, modelsSkipped: 0, modelsWritten: 1 },
    });
    await prisma.serverSetting.create({ data: { key: 'k', value: 'v' } });
    await prisma.notifier.create({ data: { id: 'n1', orgId: 'org1', name: 'hook', channel: 'webhook', config: '{}', createdBy: 'u1' } });
    await prisma.monitor.create({
      data: {
        id: 'm1',
        orgId: 'org1',
        name: 'm',
        type: 'Threshold',
        aplQuery: "['logs'] | count",
        intervalMinutes: 1,
        rangeMinutes: 5,
        createdBy: 'u1',
        state: { create: { nextRunAt: new Date('2030-01-01T00:00:00Z') } },
        history: { create: [{ checkId: 'c1', name: 'm', state: 'open', timestamp: new Date() }] },
      },
    });
    await prisma.notificationOutbox.create({ data: { id: 'o1', orgId: 'org1', monitorId: 'm1', notifierId: 'n1', payload: '{}', nextAttemptAt: new Date() } });
    await prisma.notifierDelivery.create({
      data: { notifierId: 'n1', outboxId: 'o1', monitorId: 'm1', action: 'Open', attempt: 1, outcome: 'delivered', durationMs: 3, attemptedAt: new Date() },
    });
    const monitor = await prisma.monitor.findUniqueOrThrow({ where: { id: 'm1' }, include: { state: true, history: true } });
    expect(monitor).toMatchObject({ notifierIds: '[]', triggerFromNRuns: 1, secondDelay: 0, threshold: null, state: { alerts: '{}' } });
    expect(monitor.history).toHaveLength(1);
    expect((await prisma.notificationOutbox.findUniqueOrThrow({ where: { id: 'o1' } })).status).toBe('pending');
    await prisma.monitor.delete({ where: { id: 'm1' } });
    expect(await prisma.monitorState.count()).toBe(0);
    expect(await prisma.monitorHistory.count()).toBe(0);

    const dataset = await prisma.dataset.findUniqueOrThrow({ where: { orgId_name: { orgId: 'org1', name: 'logs' } }, include: { fields: true } });
    expect(dataset.fields[0]).toMatchObject({ name: 'a.b', hidden: false, unit: '' });
    expect(dataset.useRetentionPeriod).toBe(false);
    const token = await prisma.token.findUniqueOrThrow({ where: { secretHash: 'h1' } });
    expect(token.expiresAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(token.datasetCapabilities).toBe('{}');

    await prisma.organization.delete({ where: { id: 'org1' } });
    expect(await prisma.dataset.count()).toBe(0);
    expect(await prisma.datasetField.count()).toBe(0);
    expect(await prisma.token.count()).toBe(0);
    expect(await prisma.notifier.count()).toBe(0);
    expect(await prisma.notifierDelivery.count()).toBe(0);
    await expect(
      prisma.catalogModel.create({ data: { id: 'gpt-4o', providerId: 'x', position: 1, record: '{}' } }),
    ).rejects.toThrow();
  });
});
