// The SQLite executor answers a repeated read from memory only while the database is unchanged:
// a write by this process (through an executor of any connection, through Prisma, through
// another store over the same file) is seen by the very next read; a commit by another process
// is seen from the next turn of the event loop on, the earliest anything could have told this
// process about it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/db/sqlite';
import { SqliteExecutor } from '../../../src/db/sqlite-executor';
import type { SqliteRelationalStore } from '../../../src/db/store';

describe('remembered SQLite reads', () => {
  let dir: string;
  let store: SqliteRelationalStore;
  let other: SqliteRelationalStore;
  /** Statements of the test's own, on the store's connection. */
  let sql: SqliteExecutor;
  const byHash = (hash: string) => store.repository.tokens.bySecretHash(hash);
  const memberships = () => store.repository.tokens.membershipsOfUser('u1');
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-remembered-'));
    store = await openSqliteStore(path.join(dir, 'eventdeck.db'));
    other = await openSqliteStore(path.join(dir, 'eventdeck.db'));
    sql = new SqliteExecutor(store.sqlite);
    await store.prisma.organization.create({ data: { id: 'org-a', name: 'A' } });
    await store.prisma.organization.create({ data: { id: 'org-b', name: 'B' } });
    await store.prisma.user.create({ data: { id: 'u1', name: 'Ann', email: 'ann@example.com' } });
    await store.prisma.token.create({ data: { id: 't1', orgId: 'org-a', kind: 'api', name: 'one', secretHash: 'h1', datasetCapabilities: '{}' } });
  });
  afterAll(async () => {
    await other?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a repeated statement once while nothing changes, and hands out copies nobody can alter', async () => {
    const select = 'SELECT id, name FROM organizations ORDER BY id';
    const first = await sql.rows<{ id: string; name: string }>(select);
    const second = await sql.rows<{ id: string; name: string }>(select);
    expect(second).toEqual([
      { id: 'org-a', name: 'A' },
      { id: 'org-b', name: 'B' },
    ]);
    // The same row objects: the second answer came from memory.
    expect(second[0]).toBe(first[0]);
    // Each caller gets its own array; the rows themselves are frozen.
    second.pop();
    expect(await sql.rows(select)).toHaveLength(2);
    expect(() => {
      (first[0] as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });

  it('sees a write through Prisma (another connection) on the next read', async () => {
    expect((await byHash('h1'))?.datasetCapabilities).toBe('{}');
    await store.prisma.token.update({ where: { id: 't1' }, data: { datasetCapabilities: '{"logs":{"query":["read"]}}' } });
    expect((await byHash('h1'))?.datasetCapabilities).toBe('{"logs":{"query":["read"]}}');
    await store.prisma.$transaction(async (tx) => {
      await tx.token.update({ where: { id: 't1' }, data: { orgId: 'org-b' } });
    });
    expect((await byHash('h1'))?.orgId).toBe('org-b');
    await store.prisma.token.delete({ where: { id: 't1' } });
    expect(await byHash('h1')).toBeUndefined();
  });

  it('sees a write through this connection\'s executor on the next read', async () => {
    expect(await memberships()).toEqual([]);
    await sql.run("INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('u1', 'org-a', 'user', '2026-01-01 00:00:00')");
    expect(await memberships()).toEqual([{ orgId: 'org-a', role: 'user' }]);
    await sql.batch([{ sql: "UPDATE memberships SET role = 'admin' WHERE user_id = ?", params: ['u1'] }]);
    expect(await memberships()).toEqual([{ orgId: 'org-a', role: 'admin' }]);
  });

  it('sees a write by another store over the same file on the next read', async () => {
    await store.prisma.token.create({ data: { id: 't2', orgId: 'org-b', kind: 'api', name: 'two', secretHash: 'h2' } });
    expect((await byHash('h2'))?.orgId).toBe('org-b');
    await new SqliteExecutor(other.sqlite).run("UPDATE tokens SET org_id = 'org-a' WHERE id = 't2'");
    expect((await byHash('h2'))?.orgId).toBe('org-a');
    await other.prisma.token.update({ where: { id: 't2' }, data: { orgId: 'org-b' } });
    expect((await byHash('h2'))?.orgId).toBe('org-b');
  });

  it('sees a commit by another process from the next turn of the event loop on', async () => {
    // A connection this process does not know of stands for another process.
    const outside = new Database(path.join(dir, 'eventdeck.db'));
    try {
      await store.prisma.token.create({ data: { id: 't3', orgId: 'org-a', kind: 'api', name: 'three', secretHash: 'h3' } });
      expect((await byHash('h3'))?.orgId).toBe('org-a');
      outside.prepare("UPDATE tokens SET org_id = 'org-b' WHERE id = 't3'").run();
      // Within the turn that read the old organization, the store was last asked at that read...
      expect((await byHash('h3'))?.orgId).toBe('org-a');
      // ...and any later event (a request, a timer) reads the commit.
      await nextTurn();
      expect((await byHash('h3'))?.orgId).toBe('org-b');
      outside.prepare("DELETE FROM tokens WHERE id = 't3'").run();
      await nextTurn();
      expect(await byHash('h3')).toBeUndefined();
    } finally {
      outside.close();
    }
  });

  it('runs a write that returns rows every time, and reads after it see it', async () => {
    const insert = "INSERT INTO server_settings (key, value) VALUES ('counter', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value";
    const read = "SELECT value FROM server_settings WHERE key = 'counter'";
    expect(await sql.rows(insert)).toEqual([{ value: '1' }]);
    expect(await sql.row(read)).toEqual({ value: '1' });
    expect(await sql.rows(insert)).toEqual([{ value: '2' }]);
    expect(await sql.row(read)).toEqual({ value: '2' });
  });

  it('reads a large answer afresh each time instead of keeping it', async () => {
    const many = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT i FROM n';
    const first = await sql.rows<{ i: number }>(many);
    const second = await sql.rows<{ i: number }>(many);
    expect(second.map((row) => row.i)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(second[0]).not.toBe(first[0]);
  });
});
