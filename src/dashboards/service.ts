// Dashboards (v2 `/dashboards`), addressed by a uid unique in the organization. Every write
// raises `version`; an update must name the version it read (412 with `currentVersion`
// otherwise) unless it asks to overwrite. Creating an existing uid is a 409 unless it asks to
// overwrite. One chart can be changed with a JSON merge patch. Who sees a dashboard follows its
// `owner`: everyone (`X-AXIOM-EVERYONE`), the members of a group, or one user; API tokens see
// those shared with everyone or with a group. A dashboard the caller cannot see is not found.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type Principal, requireOrgCapability } from '../auth/principal';
import { generateSortableId } from '../auth/secrets';
import type { PrismaClient } from '../db/store';
import { conflict, type DomainError, invalidInput, notFound, preconditionFailed } from '../errors';
import { parseInput } from '../lib/validation';
import {
  chartPatchRequestSchema,
  DASHBOARD_UID,
  DASHBOARD_UID_RULE,
  dashboardDocumentSchema,
  EVERYONE,
  upsertRequestSchema,
} from './document';
import { mergePatch } from './merge-patch';

export interface DashboardResource {
  id: string;
  uid: string;
  version: number;
  dashboard: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
}

export interface DashboardWrite {
  status: 'created' | 'updated';
  dashboard: DashboardResource;
  overwritten?: boolean;
}

interface StoredDashboard {
  id: string;
  uid: string;
  version: number;
  owner: string;
  document: string;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

const pageSchema = z.object({
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(100),
  offset: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(0),
});

function resourceOf(row: StoredDashboard): DashboardResource {
  return {
    id: row.id,
    uid: row.uid,
    version: row.version,
    dashboard: JSON.parse(row.document) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
  };
}

function actor(principal: Principal): string {
  return principal.userId ?? principal.tokenId;
}

/** Machine-readable codes of DashboardError, by what went wrong. */
const codes = {
  notFound: (uid: string, what = `dashboard "${uid}" not found`) => notFound(what, { code: 'not_found', uid }),
  exists: (uid: string) => conflict(`a dashboard with uid "${uid}" already exists; send "overwrite": true to replace it`, { code: 'already_exists', uid }),
  stale: (uid: string, currentVersion: number, sent: number | undefined): DomainError =>
    preconditionFailed(
      sent === undefined
        ? `updating dashboard "${uid}" needs its current version (${currentVersion}), or "overwrite": true`
        : `dashboard "${uid}" is at version ${currentVersion}, not ${sent}: read it again, or send "overwrite": true`,
      { code: 'version_conflict', uid, currentVersion },
    ),
};

export class DashboardService {
  constructor(private readonly prisma: PrismaClient) {}

  async list(principal: Principal, page: { limit?: unknown; offset?: unknown } = {}): Promise<DashboardResource[]> {
    requireOrgCapability(principal, 'dashboards', 'read');
    const { limit, offset } = parseInput(pageSchema, page, 'query parameters');
    const rows = await this.prisma.dashboard.findMany({
      where: { orgId: principal.orgId, owner: { in: await this.audiences(principal) } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
    });
    return rows.map(resourceOf);
  }

  async get(principal: Principal, uid: string): Promise<DashboardResource> {
    requireOrgCapability(principal, 'dashboards', 'read');
    return resourceOf(await this.visible(principal, uid));
  }

  /** POST: creates (201), or replaces an existing uid when `overwrite` is set (200). */
  async create(principal: Principal, body: unknown): Promise<DashboardWrite> {
    requireOrgCapability(principal, 'dashboards', 'create');
    const request = parseInput(upsertRequestSchema, body);
    const document = await this.validDocument(principal, request.dashboard);
    const uid = request.uid ?? (document.uid as string | undefined) ?? randomBytes(8).toString('hex');
    requireMatchingUid(uid, document);
    const existing = await this.prisma.dashboard.findUnique({ where: { orgId_uid: { orgId: principal.orgId, uid } } });
    if (existing) {
      if (!request.overwrite) throw codes.exists(uid);
      requireOrgCapability(principal, 'dashboards', 'update');
      await this.visible(principal, uid);
      return this.replace(principal, existing, document, undefined, true);
    }
    return this.insert(principal, uid, document);
  }

  /** PUT: updates the dashboard at `uid` (creating it when there is none). */
  async update(principal: Principal, uid: string, body: unknown): Promise<DashboardWrite> {
    if (!DASHBOARD_UID.test(uid)) throw invalidInput(`invalid uid "${uid}": ${DASHBOARD_UID_RULE}`);
    const existing = await this.prisma.dashboard.findUnique({ where: { orgId_uid: { orgId: principal.orgId, uid } } });
    requireOrgCapability(principal, 'dashboards', existing ? 'update' : 'create');
    const request = parseInput(upsertRequestSchema, body);
    if (request.uid !== undefined && request.uid !== uid) throw invalidInput(`uid "${request.uid}" in the body does not match "${uid}" in the path`);
    const document = await this.validDocument(principal, request.dashboard);
    requireMatchingUid(uid, document);
    if (!existing) return this.insert(principal, uid, document);
    await this.visible(principal, uid);
    return this.replace(principal, existing, document, request.overwrite ? undefined : (request.version ?? null), request.overwrite);
  }

  async delete(principal: Principal, uid: string): Promise<void> {
    requireOrgCapability(principal, 'dashboards', 'delete');
    const row = await this.visible(principal, uid);
    await this.prisma.dashboard.delete({ where: { id: row.id } });
  }

  /** Applies a JSON merge patch to one chart of the dashboard. */
  async patchChart(principal: Principal, uid: string, chartId: string, body: unknown): Promise<DashboardWrite> {
    requireOrgCapability(principal, 'dashboards', 'update');
    const request = parseInput(chartPatchRequestSchema, body);
    if ('id' in request.chart && request.chart.id !== chartId) {
      throw invalidInput(`chart id ${JSON.stringify(request.chart.id)} in the patch does not match "${chartId}" in the path`);
    }
    const row = await this.visible(principal, uid);
    const document = JSON.parse(row.document) as { charts?: unknown };
    const charts = Array.isArray(document.charts) ? (document.charts as Record<string, unknown>[]) : [];
    const index = charts.findIndex((chart) => chart?.id === chartId);
    if (index < 0) throw codes.notFound(uid, `chart "${chartId}" not found in dashboard "${uid}"`);
    if (!request.overwrite && request.version !== row.version) throw codes.stale(uid, row.version, request.version);
    const patched = [...charts];
    patched[index] = mergePatch(charts[index], request.chart) as Record<string, unknown>;
    const next = await this.validDocument(principal, { ...document, charts: patched });
    return this.replace(principal, row, next, request.overwrite ? undefined : row.version, request.overwrite);
  }

  private async insert(principal: Principal, uid: string, document: Record<string, unknown>): Promise<DashboardWrite> {
    try {
      const row = await this.prisma.dashboard.create({
        data: {
          id: generateSortableId(),
          orgId: principal.orgId,
          uid,
          version: 1,
          owner: document.owner as string,
          document: JSON.stringify(document),
          createdBy: actor(principal),
          updatedBy: actor(principal),
        },
      });
      return { status: 'created', dashboard: resourceOf(row) };
    } catch (error) {
      // Lost a race with another create of the same uid.
      if (await this.prisma.dashboard.findUnique({ where: { orgId_uid: { orgId: principal.orgId, uid } } })) throw codes.exists(uid);
      throw error;
    }
  }

  /**
   * Writes a new version. `expected` is the version the caller read (null: none sent), or
   * undefined to overwrite whatever is there. The check and the write are one statement, so of
   * two writers holding the same version one wins and the other gets a 412.
   */
  private async replace(
    principal: Principal,
    row: StoredDashboard,
    document: Record<string, unknown>,
    expected: number | null | undefined,
    overwrite: boolean,
  ): Promise<DashboardWrite> {
    if (expected === null || (expected !== undefined && expected !== row.version)) throw codes.stale(row.uid, row.version, expected ?? undefined);
    const { count } = await this.prisma.dashboard.updateMany({
      where: { id: row.id, ...(expected !== undefined ? { version: expected } : {}) },
      data: { version: { increment: 1 }, owner: document.owner as string, document: JSON.stringify(document), updatedBy: actor(principal) },
    });
    const current = await this.prisma.dashboard.findUnique({ where: { id: row.id } });
    if (!current) throw codes.notFound(row.uid);
    if (count === 0) throw codes.stale(row.uid, current.version, expected ?? undefined);
    return { status: 'updated', dashboard: resourceOf(current), ...(overwrite ? { overwritten: true } : {}) };
  }

  /** Validates the document and its owner: everyone, a group or a member of the organization. */
  private async validDocument(principal: Principal, document: Record<string, unknown>): Promise<Record<string, unknown>> {
    const valid = parseInput(dashboardDocumentSchema, document, 'dashboard');
    if (valid.owner !== EVERYONE) {
      const [group, member] = await Promise.all([
        this.prisma.group.findFirst({ where: { id: valid.owner, orgId: principal.orgId } }),
        this.prisma.membership.findUnique({ where: { userId_orgId: { userId: valid.owner, orgId: principal.orgId } } }),
      ]);
      if (!group && !member) {
        throw invalidInput(`invalid dashboard: owner: "${valid.owner}" is neither a member, a group of the organization nor X-AXIOM-EVERYONE`);
      }
    }
    // Kept as sent: unknown properties included, in their order.
    return document;
  }

  /** The owners whose dashboards the caller sees. */
  private async audiences(principal: Principal): Promise<string[]> {
    if (principal.kind === 'api' || !principal.userId) {
      const groups = await this.prisma.group.findMany({ where: { orgId: principal.orgId }, select: { id: true } });
      return [EVERYONE, ...groups.map((group) => group.id)];
    }
    const groups = await this.prisma.groupMember.findMany({ where: { userId: principal.userId, group: { orgId: principal.orgId } }, select: { groupId: true } });
    return [EVERYONE, principal.userId, ...groups.map((group) => group.groupId)];
  }

  private async visible(principal: Principal, uid: string): Promise<StoredDashboard> {
    const row = await this.prisma.dashboard.findUnique({ where: { orgId_uid: { orgId: principal.orgId, uid } } });
    if (!row || !(await this.audiences(principal)).includes(row.owner)) throw codes.notFound(uid);
    return row;
  }
}

function requireMatchingUid(uid: string, document: Record<string, unknown>) {
  if (document.uid !== undefined && document.uid !== uid) {
    throw invalidInput(`uid "${String(document.uid)}" in the dashboard does not match "${uid}"`);
  }
}
