// The ClickHouse event store with CLICKHOUSE_CLUSTER: what it sends a cluster, and that the data
// goes through. No cluster can run here (replicated tables need ClickHouse Keeper), so the store
// talks to ClickHouse embedded (chdb) through an executor that records each statement as the
// store wrote it, checks that ClickHouse's own parser accepts it (`formatQuery`), and runs it in
// its single-node form: without `ON CLUSTER`, ReplicatedMergeTree as MergeTree, and the
// Distributed table as a Merge table over the local one (inserts go to the local table).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_QUERY_SETTINGS } from '../../src/apl/dialect/clickhouse';
import { openRelationalStore, type SqliteRelationalStore } from '../../src/db/store';
import { ChdbExecutor } from '../../src/engines/clickhouse/chdb-executor';
import { ClickHouseEventStore } from '../../src/events/store/clickhouse-store';
import type { ClickHouseExecutor, ClickHouseRows, QuerySettingsOptions } from '../../src/engines/clickhouse/executor';
import { quoteLiteral } from '../../src/engines/clickhouse/layout';
import { DatasetEvents } from '../../src/ingest/dataset-events';
import { IngestService } from '../../src/ingest/ingest-service';
import { FieldRegistry } from '../../src/datasets/schema/field-registry';

const CLUSTER = 'events_cluster';

interface Sent {
  kind: 'command' | 'query' | 'insert';
  sql: string;
  settings: Record<string, unknown>;
}

/** Records, parses and runs single-node what the store sends a cluster. */
class SingleNodeCluster implements ClickHouseExecutor {
  readonly engine = 'clickhouse' as const;
  readonly sent: Sent[] = [];
  constructor(private readonly inner: ChdbExecutor) {}

  private async parse(sql: string): Promise<void> {
    await this.inner.query(`SELECT formatQuery(${quoteLiteral(sql)})`);
  }

  private single(sql: string): string {
    return sql
      .replaceAll(` ON CLUSTER \`${CLUSTER}\``, '')
      .replace('ENGINE = ReplicatedMergeTree', 'ENGINE = MergeTree')
      .replace(/ENGINE = Distributed\('[^']*', currentDatabase\(\), '([^']*)', [^)]*\)/, (_, local: string) => `ENGINE = Merge(currentDatabase(), '^${local}$')`);
  }

  async command(sql: string, options: QuerySettingsOptions = {}): Promise<void> {
    this.sent.push({ kind: 'command', sql, settings: options.settings ?? {} });
    await this.parse(sql);
    await this.inner.command(this.single(sql), options);
  }

  async query(sql: string, options: QuerySettingsOptions = {}): Promise<ClickHouseRows> {
    this.sent.push({ kind: 'query', sql, settings: options.settings ?? {} });
    return this.inner.query(this.single(sql), options);
  }

  async insert(table: string, columns: string[], tsv: Buffer, options: QuerySettingsOptions = {}): Promise<void> {
    this.sent.push({ kind: 'insert', sql: table, settings: options.settings ?? {} });
    await this.inner.insert(`${table}_local`, columns, tsv, { ...options, settings: {} });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

let dir: string;
let cluster: SingleNodeCluster;
let relational: SqliteRelationalStore;
let store: ClickHouseEventStore;
let registry: FieldRegistry;
let events: DatasetEvents;
let ingest: IngestService;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'eventdeck-cluster-'));
  cluster = new SingleNodeCluster(await ChdbExecutor.open(path.join(dir, 'chdb'), { ...CLICKHOUSE_QUERY_SETTINGS }));
  relational = await openRelationalStore(path.join(dir, 'eventdeck.db'));
  relational.sqlite.prepare(`INSERT INTO organizations (id, name, updated_at) VALUES ('org-test', 'test', ?)`).run(new Date().toISOString());
  relational.sqlite
    .prepare(`INSERT INTO datasets (id, org_id, name, table_name, created_by, updated_at) VALUES ('id-web', 'org-test', 'web', 'ds_web', 'test', ?)`)
    .run(new Date().toISOString());
  store = await ClickHouseEventStore.open(cluster, { cluster: CLUSTER });
  registry = new FieldRegistry(relational.repository, store);
  events = new DatasetEvents(store, registry, 1024);
  ingest = new IngestService(events, store);
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await relational?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ref = { id: 'id-web', name: 'web', tableName: 'ds_web' };
const ndjson = (list: object[]) => ({ body: Buffer.from(list.map((event) => JSON.stringify(event)).join('\n')), contentType: 'application/x-ndjson' });
const commands = () => cluster.sent.filter((sent) => sent.kind === 'command').map((sent) => sent.sql);

describe('the ClickHouse store over a cluster', () => {
  it('creates a replicated table on every node and a Distributed table over them', async () => {
    await events.createTable(ref.tableName);
    expect(commands()).toEqual([
      expect.stringMatching(/^CREATE TABLE IF NOT EXISTS `ds_web_local` ON CLUSTER `events_cluster` \(.*\) ENGINE = ReplicatedMergeTree ORDER BY \(`_time`, `_rowId`\)$/),
      "CREATE TABLE IF NOT EXISTS `ds_web` ON CLUSTER `events_cluster` AS `ds_web_local` ENGINE = Distributed('events_cluster', currentDatabase(), 'ds_web_local', `_rowId`)",
    ]);
  });

  it('changes both tables on every node, waiting for every replica, and inserts through the Distributed table', async () => {
    const before = cluster.sent.length;
    const now = Date.now();
    await ingest.ingest(ref, ndjson([{ _time: new Date(now - 3 * 86_400_000).toISOString(), path: '/old' }, { _time: new Date(now).toISOString(), path: '/new', n: 1 }]));
    await ingest.ingest(ref, ndjson([{ n: 'many', path: 7 }]));
    const sent = cluster.sent.slice(before);
    const alters = sent.filter((s) => s.kind === 'command' && s.sql.startsWith('ALTER TABLE'));
    // Every schema change names the cluster, runs on the local and the Distributed table, and waits for all replicas.
    expect(alters.length).toBeGreaterThan(0);
    for (const alter of alters) {
      expect(alter.sql).toMatch(/^ALTER TABLE `ds_web(_local)?` ON CLUSTER `events_cluster` /);
      expect(alter.settings).toMatchObject({ alter_sync: 2, mutations_sync: 2 });
    }
    const added = alters.filter((s) => s.sql.includes('ADD COLUMN')).map((s) => s.sql.slice(0, s.sql.indexOf(' ON CLUSTER')));
    expect(added).toEqual(['ALTER TABLE `ds_web_local`', 'ALTER TABLE `ds_web`']);
    // Widening `path` from text to a mixed field rewrites its values as JSON on the local table only
    // (the Distributed one holds none).
    expect(alters.filter((s) => s.sql.includes(' UPDATE ')).map((s) => s.sql.slice(0, s.sql.indexOf(' ON CLUSTER')))).toEqual(['ALTER TABLE `ds_web_local`']);
    const inserts = sent.filter((s) => s.kind === 'insert');
    expect(inserts.map((s) => s.sql)).toEqual(['ds_web', 'ds_web']);
    for (const insert of inserts) expect(insert.settings).toEqual({ insert_distributed_sync: 1 });

    // Mixed fields hold each value as JSON of its own type.
    const stored = await store.query('SELECT `path`, `n` FROM `ds_web` ORDER BY `_rowId`');
    expect(stored.rows.map((row) => row.map((value) => (value === null ? null : JSON.parse(String(value)))))).toEqual([
      ['/old', null],
      ['/new', 1],
      [7, 'many'],
    ]);
  });

  it('deletes old events on every node, and drops the Distributed table before the local one', async () => {
    const before = cluster.sent.length;
    expect(await events.trim(ref.id, ref.tableName, new Date(Date.now() - 86_400_000))).toBe(1);
    await events.dropTable(ref.id, ref.tableName);
    const sent = cluster.sent.slice(before).filter((s) => s.kind === 'command');
    expect(sent.map((s) => s.sql.replace(/ WHERE .*$/, ''))).toEqual([
      'DELETE FROM `ds_web_local` ON CLUSTER `events_cluster`',
      'DROP TABLE IF EXISTS `ds_web` ON CLUSTER `events_cluster`',
      'DROP TABLE IF EXISTS `ds_web_local` ON CLUSTER `events_cluster`',
    ]);
    expect((await cluster.query("SELECT count() FROM system.tables WHERE name LIKE 'ds\\_web%'")).rows).toEqual([['0']]);
  });
});
