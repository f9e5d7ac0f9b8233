// Writes and reads every model through a Prisma client over freshly migrated tables, relations
// and cascades included: the same checks for the SQLite and the PostgreSQL client.
import { expect } from 'vitest';
import type { PrismaClient } from '../../src/db/store';

export async function exerciseEveryModel(prisma: PrismaClient): Promise<void> {
  await prisma.organization.create({ data: { id: 'org1', name: 'Org' } });
  await prisma.user.create({ data: { id: 'u1', name: 'Ann', email: 'ann@example.com' } });
  await prisma.membership.create({ data: { userId: 'u1', orgId: 'org1', role: 'owner' } });
  await prisma.token.create({
    data: { id: 't1', orgId: 'org1', userId: 'u1', kind: 'personal', name: 'p', secretHash: 'h1', expiresAt: new Date('2030-01-01T00:00:00Z') },
  });
  await prisma.dataset.create({
    data: { id: 'd1', orgId: 'org1', name: 'logs', tableName: 'ds_d1', createdBy: 'u1', fields: { create: [{ name: 'a.b', type: 'string', columnName: 'a.b' }] } },
  });
  await prisma.datasetMapField.create({ data: { datasetId: 'd1', name: 'attributes.custom' } });
  await prisma.virtualField.create({ data: { id: 'v1', datasetId: 'd1', name: 'kb', expression: 'bytes / 1024', position: 1, createdBy: 'u1' } });
  await expect(prisma.virtualField.create({ data: { id: 'v2', datasetId: 'd1', name: 'kb', expression: '1', position: 2, createdBy: 'u1' } })).rejects.toThrow();
  await prisma.view.create({ data: { id: 'w1', orgId: 'org1', name: 'errors', aplQuery: "['logs'] | where level == 'error'", createdBy: 'u1' } });
  await expect(prisma.view.create({ data: { id: 'w2', orgId: 'org1', name: 'errors', aplQuery: "['logs']", createdBy: 'u1' } })).rejects.toThrow();
  await prisma.catalogModel.create({ data: { id: 'gpt-4o', providerId: 'openai', position: 0, record: '{}' } });
  const firstSync = await prisma.catalogSync.create({
    data: { source: 's', sourceKind: 'litellm', syncedAt: new Date(), modelsRead: 1, modelsSkipped: 0, modelsWritten: 1 },
  });
  const secondSync = await prisma.catalogSync.create({
    data: { source: 's', sourceKind: 'litellm', syncedAt: new Date(), modelsRead: 1, modelsSkipped: 0, modelsWritten: 1 },
  });
  expect(secondSync.id).toBeGreaterThan(firstSync.id);
  await prisma.serverSetting.create({ data: { key: 'k', value: 'v' } });
  const expiresAt = new Date('2031-02-03T04:05:06.789Z');
  await prisma.lease.create({ data: { name: 'job', holder: 'here', acquiredAt: new Date('2031-02-03T04:00:00Z'), expiresAt } });
  expect((await prisma.lease.findUniqueOrThrow({ where: { name: 'job' } })).expiresAt.toISOString()).toBe(expiresAt.toISOString());

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
  expect(await prisma.virtualField.findUniqueOrThrow({ where: { datasetId_name: { datasetId: 'd1', name: 'kb' } } })).toMatchObject({ description: '', type: '', unit: '', position: 1 });
  expect(dataset.useRetentionPeriod).toBe(false);
  const token = await prisma.token.findUniqueOrThrow({ where: { secretHash: 'h1' } });
  expect(token.expiresAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  expect(token.datasetCapabilities).toBe('{}');

  await prisma.organization.delete({ where: { id: 'org1' } });
  expect(await prisma.dataset.count()).toBe(0);
  expect(await prisma.datasetField.count()).toBe(0);
  expect(await prisma.datasetMapField.count()).toBe(0);
  expect(await prisma.virtualField.count()).toBe(0);
  expect(await prisma.view.count()).toBe(0);
  expect(await prisma.token.count()).toBe(0);
  expect(await prisma.membership.count()).toBe(0);
  expect(await prisma.notifier.count()).toBe(0);
  expect(await prisma.notifierDelivery.count()).toBe(0);
  await expect(prisma.catalogModel.create({ data: { id: 'gpt-4o', providerId: 'x', position: 1, record: '{}' } })).rejects.toThrow();
}
