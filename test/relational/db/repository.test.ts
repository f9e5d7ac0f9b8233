// The repository layer on whichever provider the test project selects (SQLite here, PostgreSQL
// in the `postgres` project): rows written through Prisma, as management does, read back
// through the hot-path statements with the same values and types on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelationalStore } from '../../../src/db/store';
import { openTestStore, type TestStore } from '../../helpers/store';

describe('repository', () => {
  let test: TestStore;
  let store: RelationalStore;

  beforeAll(async () => {
    test = await openTestStore();
    store = test.store;
    const { prisma } = store;
    await prisma.organization.create({ data: { id: 'org-a', name: 'A' } });
    await prisma.organization.create({ data: { id: 'org-b', name: 'B' } });
    await prisma.user.create({ data: { id: 'u1', name: 'Ann', email: 'ann@example.com' } });
    await prisma.membership.create({ data: { userId: 'u1', orgId: 'org-b', role: 'admin', createdAt: new Date('2026-01-01T00:00:00Z') } });
    await prisma.membership.create({ data: { userId: 'u1', orgId: 'org-a', role: 'user', createdAt: new Date('2026-02-01T00:00:00Z') } });
  });
  afterAll(async () => {
    await test?.destroy();
  });

  it('finds a token by the hash of its secret, times and nulls as written', async () => {
    await store.prisma.token.create({
      data: {
        id: 't-api',
        orgId: 'org-a',
        kind: 'api',
        name: 'ingest',
        secretHash: 'hash-api',
        datasetCapabilities: '{"logs":{"ingest":["create"]}}',
        expiresAt: new Date('2030-05-06T07:08:09.123Z'),
        createdBy: 'u1',
      },
    });
    await store.prisma.token.create({ data: { id: 't-personal', userId: 'u1', kind: 'personal', name: 'me', secretHash: 'hash-personal' } });
    expect(await store.repository.tokens.bySecretHash('hash-api')).toEqual({
      id: 't-api',
      orgId: 'org-a',
      userId: null,
      kind: 'api',
      datasetCapabilities: '{"logs":{"ingest":["create"]}}',
      orgCapabilities: '{}',
      viewCapabilities: '{}',
      expiresAt: new Date('2030-05-06T07:08:09.123Z'),
      createdBy: 'u1',
    });
    expect(await store.repository.tokens.bySecretHash('hash-personal')).toMatchObject({ userId: 'u1', orgId: null, expiresAt: null, createdBy: null });
    expect(await store.repository.tokens.bySecretHash('no-such-hash')).toBeUndefined();
  });

  it('reads a member\'s base role and the roles of their groups, custom definitions included', async () => {
    const { prisma } = store;
    await prisma.role.create({ data: { id: 'r-custom', orgId: 'org-a', name: 'ingesters', datasetCapabilities: '{"logs":{"ingest":["create"]}}' } });
    await prisma.role.create({ data: { id: 'r-other-org', orgId: 'org-b', name: 'elsewhere', orgCapabilities: '{"users":["read"]}' } });
    await prisma.group.create({ data: { id: 'g1', orgId: 'org-a', name: 'ops', roles: { create: [{ role: 'r-custom' }, { role: 'read-only' }] }, members: { create: [{ userId: 'u1' }] } } });
    // A group of another organization, holding a role id of this one: not counted in org-a.
    await prisma.group.create({ data: { id: 'g2', orgId: 'org-b', name: 'ops', roles: { create: [{ role: 'r-other-org' }] }, members: { create: [{ userId: 'u1' }] } } });
    const grants = await store.repository.access.grantsOf('org-a', 'u1');
    const sorted = [...grants].sort((a, b) => (a.via + a.role < b.via + b.role ? -1 : 1));
    expect(sorted).toEqual([
      { via: 'base', role: 'user', custom: null },
      { via: 'group', role: 'r-custom', custom: { datasetCapabilities: '{"logs":{"ingest":["create"]}}', orgCapabilities: '{}', viewCapabilities: '{}' } },
      { via: 'group', role: 'read-only', custom: null },
    ]);
    expect(await store.repository.access.grantsOf('org-b', 'u1')).toEqual(
      expect.arrayContaining([
        { via: 'base', role: 'admin', custom: null },
        { via: 'group', role: 'r-other-org', custom: { datasetCapabilities: '{}', orgCapabilities: '{"users":["read"]}', viewCapabilities: '{}' } },
      ]),
    );
    // Not a member: nothing, even with a group membership left behind.
    await prisma.user.create({ data: { id: 'u-outsider', name: 'Out', email: 'out@example.com' } });
    await prisma.groupMember.create({ data: { groupId: 'g1', userId: 'u-outsider' } });
    expect(await store.repository.access.grantsOf('org-a', 'u-outsider')).toEqual([]);
    expect(await store.repository.access.grantsOf('org-a', 'nobody')).toEqual([]);
  });

  it('finds the annotations meeting a time window, with their datasets', async () => {
    const { prisma } = store;
    const at = (iso: string) => new Date(iso);
    const make = (id: string, orgId: string, time: string, endTime: string | null, datasets: string[]) =>
      prisma.annotation.create({
        data: { id, orgId, type: 'deploy', time: at(time), endTime: endTime ? at(endTime) : null, createdBy: 'u1', datasets: { create: datasets.map((dataset) => ({ dataset })) } },
      });
    await make('ann_early', 'org-a', '2026-05-01T10:00:00.000Z', null, ['web']);
    await make('ann_span', 'org-a', '2026-05-01T09:00:00.000Z', '2026-05-01T12:00:00.000Z', ['api', 'web']);
    await make('ann_edge', 'org-a', '2026-05-01T11:00:00.000Z', null, ['api']);
    await make('ann_late', 'org-a', '2026-05-01T13:00:00.000Z', null, ['web']);
    await make('ann_other', 'org-b', '2026-05-01T11:00:00.000Z', null, ['web']);
    const window = await store.repository.annotations.overlapping('org-a', at('2026-05-01T10:30:00.000Z'), at('2026-05-01T11:00:00.000Z'));
    // Newest first; the span meets the window although it starts before it; bounds are inclusive.
    expect(window.map((a) => a.id)).toEqual(['ann_edge', 'ann_span']);
    expect(window[1]).toEqual({
      id: 'ann_span',
      type: 'deploy',
      title: null,
      description: null,
      url: null,
      time: at('2026-05-01T09:00:00.000Z'),
      endTime: at('2026-05-01T12:00:00.000Z'),
      datasets: ['api', 'web'],
    });
    expect((await store.repository.annotations.overlapping('org-a', undefined, undefined)).map((a) => a.id)).toEqual([
      'ann_late',
      'ann_edge',
      'ann_early',
      'ann_span',
    ]);
    expect((await store.repository.annotations.overlapping('org-a', at('2026-05-01T12:00:00.001Z'), undefined)).map((a) => a.id)).toEqual(['ann_late']);
  });

  it('lists a user\'s memberships oldest first', async () => {
    expect(await store.repository.tokens.membershipsOfUser('u1')).toEqual([
      { orgId: 'org-b', role: 'admin' },
      { orgId: 'org-a', role: 'user' },
    ]);
    expect(await store.repository.tokens.membershipsOfUser('nobody')).toEqual([]);
  });

  it('resolves datasets by name, lists them in code-point order, and finds those with retention', async () => {
    const created = new Date('2026-03-04T05:06:07.890Z');
    for (const [id, name, retention] of [
      ['d1', 'web', { retentionDays: 7, useRetentionPeriod: true }],
      ['d2', 'Zeta', { retentionDays: 30, useRetentionPeriod: false }],
      ['d3', 'a-b', {}],
      ['d4', 'B', { retentionDays: 0, useRetentionPeriod: true }],
    ] as const) {
      await store.prisma.dataset.create({ data: { id, orgId: 'org-a', name, tableName: `ds_${id}`, createdBy: 'u1', createdAt: created, ...retention } });
    }
    await store.prisma.dataset.create({ data: { id: 'd5', orgId: 'org-b', name: 'web', tableName: 'ds_d5', createdBy: 'u1' } });

    const web = await store.repository.datasets.byName('org-a', 'web');
    expect(web).toMatchObject({ id: 'd1', orgId: 'org-a', name: 'web', description: '', kind: 'axiom:events:v1', retentionDays: 7, useRetentionPeriod: true, tableName: 'ds_d1', createdBy: 'u1', createdAt: created });
    expect(web!.updatedAt).toBeInstanceOf(Date);
    expect((await store.repository.datasets.byName('org-a', 'Zeta'))!.useRetentionPeriod).toBe(false);
    expect(await store.repository.datasets.byName('org-a', 'WEB')).toBeUndefined();
    // Upper case before lower case, "-" before letters: byte order, as on SQLite.
    expect((await store.repository.datasets.ofOrg('org-a')).map((d) => d.name)).toEqual(['B', 'Zeta', 'a-b', 'web']);
    expect(await store.repository.datasets.exists('d3')).toBe(true);
    expect(await store.repository.datasets.exists('d9')).toBe(false);
    expect((await store.repository.datasets.tables()).map((d) => d.tableName).sort()).toEqual(['ds_d1', 'ds_d2', 'ds_d3', 'ds_d4', 'ds_d5']);
    expect(await store.repository.datasets.withRetention()).toEqual([{ id: 'd1', name: 'web', tableName: 'ds_d1', retentionDays: 7 }]);
  });

  it('records fields in batches, keeps what users set, and removes them', async () => {
    const many = Array.from({ length: 450 }, (_, i) => ({ name: `f${i}`, type: 'integer', columnName: `f${i}` }));
    await store.repository.fields.upsert('d1', many);
    expect((await store.repository.fields.of('d1')).length).toBe(450);
    await store.prisma.datasetField.update({ where: { datasetId_name: { datasetId: 'd1', name: 'f7' } }, data: { unit: 'ms', hidden: true } });
    await store.prisma.datasetField.update({ where: { datasetId_name: { datasetId: 'd1', name: 'f8' } }, data: { description: 'eight' } });
    // A widened field keeps its metadata.
    await store.repository.fields.upsert('d1', [{ name: 'f7', type: 'float', columnName: 'f7' }]);
    expect((await store.repository.fields.of('d1')).find((f) => f.name === 'f7')).toEqual({ name: 'f7', type: 'float', columnName: 'f7' });
    const described = await store.repository.fields.described('d1');
    expect(described.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'f7', unit: 'ms', description: '', hidden: true },
      { name: 'f8', unit: '', description: 'eight', hidden: false },
    ]);
    await store.repository.fields.remove('d1', many.slice(0, 300).map((f) => f.name));
    expect((await store.repository.fields.of('d1')).map((f) => f.name).sort()).toEqual(many.slice(300).map((f) => f.name).sort());
  });

  it("reads a dataset's virtual fields in definition order", async () => {
    for (const [id, name, position] of [
      ['v1', 'later', 2],
      ['v2', 'first', 1],
      ['v3', 'tie-b', 3],
      ['v0', 'tie-a', 3],
    ] as const) {
      await store.prisma.virtualField.create({ data: { id, datasetId: 'd2', name, expression: `${name} + 1`, position, createdBy: 'u1' } });
    }
    await store.prisma.virtualField.create({ data: { id: 'v9', datasetId: 'd3', name: 'other', expression: '1', position: 1, createdBy: 'u1' } });
    expect(await store.repository.virtualFields.of('d2')).toEqual([
      { name: 'first', expression: 'first + 1' },
      { name: 'later', expression: 'later + 1' },
      { name: 'tie-a', expression: 'tie-a + 1' },
      { name: 'tie-b', expression: 'tie-b + 1' },
    ]);
    expect(await store.repository.virtualFields.of('d9')).toEqual([]);
  });

  it('finds a view by organization and name', async () => {
    await store.prisma.view.create({ data: { id: 'w1', orgId: 'org-a', name: 'errors', aplQuery: "['web'] | where status >= 500", createdBy: 'u1' } });
    expect(await store.repository.views.byName('org-a', 'errors')).toEqual({ id: 'w1', name: 'errors', aplQuery: "['web'] | where status >= 500" });
    expect(await store.repository.views.byName('org-b', 'errors')).toBeUndefined();
    expect(await store.repository.views.byName('org-a', 'Errors')).toBeUndefined();
  });

  it('rolls a failing batch back whole', async () => {
    const good = store.repository.fields.upsertStatements('d2', [{ name: 'ok', type: 'string', columnName: 'ok' }]);
    const bad = store.repository.fields.upsertStatements('no-such-dataset', [{ name: 'x', type: 'string', columnName: 'x' }]);
    await expect(store.repository.fields.apply([...good, ...bad])).rejects.toThrow();
    expect(await store.repository.fields.of('d2')).toEqual([]);
  });

  it('creates a setting once: the first value stays', async () => {
    expect(await store.repository.settings.getOrCreate('cursor_key', () => 'first')).toBe('first');
    expect(await store.repository.settings.getOrCreate('cursor_key', () => 'second')).toBe('first');
    const another = await test.another();
    expect(await another.repository.settings.getOrCreate('cursor_key', () => 'third')).toBe('first');
  });

  it('reports the newest catalog sync', async () => {
    expect(await store.repository.catalog.latestSyncId()).toBeUndefined();
    const sync = { source: 's', sourceKind: 'litellm', syncedAt: new Date(), modelsRead: 0, modelsSkipped: 0, modelsWritten: 0 };
    await store.prisma.catalogSync.create({ data: sync });
    const second = await store.prisma.catalogSync.create({ data: sync });
    expect(await store.repository.catalog.latestSyncId()).toBe(second.id);
  });

  it('sees writes made through another store over the same database at once', async () => {
    const another = await test.another();
    await another.prisma.token.delete({ where: { id: 't-api' } });
    expect(await store.repository.tokens.bySecretHash('hash-api')).toBeUndefined();
    await another.prisma.dataset.delete({ where: { id: 'd3' } });
    expect(await store.repository.datasets.byName('org-a', 'a-b')).toBeUndefined();
  });
});
