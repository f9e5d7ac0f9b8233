// Notifier management (v2 `/notifiers`): list, get, create, update, delete within the caller's
// organization, under the `notifiers` capability; and the per-notifier delivery log. Settings are
// stored as given; every view masks the secrets.
import type { Principal } from '../auth/principal';
import { requireOrgCapability } from '../auth/principal';
import type { PrismaClient } from '../db/store';
import { invalidInput, notFound } from '../errors';
import { newNotifierId } from './ids';
import { isTestNotificationId } from './notifier-test';
import { type ChannelConfig, type ChannelName, maskedConfig, parseNotifierInput } from './notifier-definitions';

export interface NotifierRecord {
  id: string;
  orgId: string;
  name: string;
  channel: ChannelName;
  config: ChannelConfig;
  disabledUntil: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A notifier as the API shows it (Axiom's NotifierWithId), secrets masked. */
export interface NotifierView {
  id: string;
  name: string;
  properties: Record<string, Record<string, unknown>>;
  disabledUntil?: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: number;
  notificationId: string;
  monitorId: string;
  action: string;
  attempt: number;
  /** `delivered`, `retrying` (failed, will be tried again), `failed` (given up) or `skipped`. */
  outcome: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
  /** A test notification sent by hand ("Send test notification"), not an alert. */
  test: boolean;
}

interface NotifierRow {
  id: string;
  orgId: string;
  name: string;
  channel: string;
  config: string;
  disabledUntil: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export function notifierRecord(row: NotifierRow): NotifierRecord {
  return { ...row, channel: row.channel as ChannelName, config: JSON.parse(row.config) as ChannelConfig };
}

export function notifierView(record: NotifierRecord): NotifierView {
  return {
    id: record.id,
    name: record.name,
    properties: { [record.channel]: maskedConfig(record.channel, record.config) },
    ...(record.disabledUntil ? { disabledUntil: record.disabledUntil.toISOString() } : {}),
    createdAt: record.createdAt.toISOString(),
    createdBy: record.createdBy,
    updatedAt: record.updatedAt.toISOString(),
  };
}

export class NotifierService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: { denyPrivateTargets: boolean },
  ) {}

  async list(principal: Principal): Promise<NotifierRecord[]> {
    requireOrgCapability(principal, 'notifiers', 'read');
    const rows = await this.prisma.notifier.findMany({ where: { orgId: principal.orgId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(notifierRecord);
  }

  async get(principal: Principal, id: string): Promise<NotifierRecord> {
    requireOrgCapability(principal, 'notifiers', 'read');
    return this.find(principal.orgId, id);
  }

  private async find(orgId: string, id: string): Promise<NotifierRecord> {
    const row = await this.prisma.notifier.findFirst({ where: { id, orgId } });
    if (!row) throw notFound(`notifier "${id}" not found`);
    return notifierRecord(row);
  }

  async create(principal: Principal, body: unknown): Promise<NotifierRecord> {
    requireOrgCapability(principal, 'notifiers', 'create');
    const input = await parseNotifierInput(body, this.options);
    const row = await this.prisma.notifier.create({
      data: {
        id: newNotifierId(),
        orgId: principal.orgId,
        name: input.name,
        channel: input.channel,
        config: JSON.stringify(input.config),
        disabledUntil: input.disabledUntil ?? null,
        createdBy: principal.userId ?? principal.tokenId,
      },
    });
    return notifierRecord(row);
  }

  /** Replaces the notifier's definition (PUT); masked secrets sent back keep their stored values. */
  async update(principal: Principal, id: string, body: unknown): Promise<NotifierRecord> {
    requireOrgCapability(principal, 'notifiers', 'update');
    const existing = await this.find(principal.orgId, id);
    const input = await parseNotifierInput(body, { ...this.options, previous: existing });
    const row = await this.prisma.notifier.update({
      where: { id },
      data: { name: input.name, channel: input.channel, config: JSON.stringify(input.config), disabledUntil: input.disabledUntil ?? null },
    });
    return notifierRecord(row);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'notifiers', 'delete');
    await this.find(principal.orgId, id);
    await this.prisma.notifier.delete({ where: { id } });
  }

  /** Ids among `ids` that are no notifier of the organization (for monitor validation). */
  async unknownIds(orgId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = await this.prisma.notifier.findMany({ where: { orgId, id: { in: ids } }, select: { id: true } });
    const known = new Set(found.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  }

  /** The notifier's delivery attempts, newest first, optionally from `before` (an attempt id) on. */
  async deliveries(principal: Principal, id: string, options: { limit?: number; before?: number } = {}): Promise<DeliveryView[]> {
    requireOrgCapability(principal, 'notifiers', 'read');
    await this.find(principal.orgId, id);
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidInput('limit must be a whole number from 1 to 1000');
    const rows = await this.prisma.notifierDelivery.findMany({
      where: { notifierId: id, ...(options.before !== undefined ? { id: { lt: options.before } } : {}) },
      orderBy: { id: 'desc' },
      take: limit,
    });
    return rows.map((row) => ({
      id: row.id,
      notificationId: row.outboxId,
      monitorId: row.monitorId,
      action: row.action,
      attempt: row.attempt,
      outcome: row.outcome,
      statusCode: row.statusCode,
      error: row.error,
      durationMs: row.durationMs,
      attemptedAt: row.attemptedAt.toISOString(),
      test: isTestNotificationId(row.outboxId),
    }));
  }
}
