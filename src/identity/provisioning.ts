// Temporary organizations for automated agents (v2 `POST /orgs/provision`, unauthenticated):
// an organization owned by a synthetic agent user, an API token with every capability, and a
// claim URL, both shown once. A person claims the organization with a personal token
// (`POST /v2/orgs/{id}/claim?token=...`): they become its owner, the agent user goes, the API
// token keeps working, and the organization stops expiring. Unclaimed organizations are deleted
// with all their data 24 hours after provisioning, by a sweep that runs once per deployment
// under a lease. Each client address may provision a few organizations a day
// (`PROVISIONED_ORGS_PER_DAY`), counted in the relational store so every instance agrees.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Identity } from '../auth/authenticator';
import { ALL_DATASET_ACTIONS, ALL_ORG_ACTIONS, ALL_VIEW_ACTIONS } from '../auth/roles';
import { generateId, generateOrgId, generateTokenSecret, hashTokenSecret } from '../auth/secrets';
import type { LeaderHandle, Leases } from '../db/lease';
import type { PrismaClient } from '../db/store';
import { forbidden, notFound, rateLimited } from '../errors';
import type { DatasetStorage } from '../datasets/datasets';
import { parseInput } from '../lib/validation';
import { EDGE_DEPLOYMENT, type OrgService, type OrgView, requireEdgeDeployment } from './orgs';

export const PROVISIONED_ORG_TTL_MS = 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;
export const PROVISIONING_LEASE = 'provisioned-orgs';

const provisionSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(255).optional(),
  edgeDeployment: z.string().optional(),
});

export interface ProvisionedOrg {
  id: string;
  name: string;
  defaultEdgeDeployment: string;
  expiresAt: string;
  claimUrl: string;
  token: string;
}

/** The email of an organization's synthetic agent user (a reserved domain that never delivers). */
function agentEmail(orgId: string): string {
  return `agent+${orgId}@provisioned.invalid`;
}

export class ProvisioningService {
  private job: LeaderHandle | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly orgs: OrgService,
    private readonly storage: Pick<DatasetStorage, 'dropTable'>,
    private readonly leases: Leases,
    private readonly logger: Logger,
    private readonly perClientPerDay: number,
  ) {}

  /** Provisions an organization for the client at `clientAddress`; `baseUrl` is where it reached the server. */
  async provision(body: unknown, clientAddress: string, baseUrl: string, now = new Date()): Promise<ProvisionedOrg> {
    if (this.perClientPerDay <= 0) throw forbidden('provisioning organizations is turned off on this server');
    const input = parseInput(provisionSchema, body ?? {});
    requireEdgeDeployment(input.edgeDeployment);
    const recent = await this.prisma.organization.count({
      where: { provisionedFrom: clientAddress, createdAt: { gt: new Date(now.getTime() - DAY_MS) } },
    });
    if (recent >= this.perClientPerDay) {
      throw rateLimited(`at most ${this.perClientPerDay} organizations a day can be provisioned from one address; retry later`);
    }
    const name = input.name ?? `Agent Org ${randomBytes(4).toString('hex')}`;
    const id = generateOrgId(name);
    const agentId = generateId();
    const claimSecret = generateId();
    const token = generateTokenSecret('api');
    const expiresAt = new Date(now.getTime() + PROVISIONED_ORG_TTL_MS);
    await this.prisma.$transaction([
      this.prisma.organization.create({
        data: { id, name, createdAt: now, expiresAt, claimSecretHash: hashTokenSecret(claimSecret), provisionedFrom: clientAddress },
      }),
      this.prisma.user.create({ data: { id: agentId, name: 'Agent', email: agentEmail(id) } }),
      this.prisma.membership.create({ data: { userId: agentId, orgId: id, role: 'owner' } }),
      this.prisma.token.create({
        data: {
          id: generateId(),
          orgId: id,
          kind: 'api',
          name: 'provisioned',
          description: 'issued when the organization was provisioned',
          secretHash: hashTokenSecret(token),
          datasetCapabilities: JSON.stringify({ '*': ALL_DATASET_ACTIONS }),
          orgCapabilities: JSON.stringify(ALL_ORG_ACTIONS),
          viewCapabilities: JSON.stringify({ '*': ALL_VIEW_ACTIONS }),
          createdBy: agentId,
        },
      }),
    ]);
    return {
      id,
      name,
      defaultEdgeDeployment: EDGE_DEPLOYMENT,
      expiresAt: expiresAt.toISOString(),
      claimUrl: `${baseUrl}/v2/orgs/${encodeURIComponent(id)}/claim?token=${claimSecret}`,
      token,
    };
  }

  /** The caller (a personal token's user) becomes the owner of the unclaimed organization. */
  async claim(identity: Identity, orgId: string, secret: string | undefined, now = new Date()): Promise<OrgView> {
    if (identity.kind !== 'personal') throw forbidden('claim an organization with a personal token');
    const unclaimed = await this.prisma.organization.findUnique({ where: { id: orgId } });
    // A wrong secret, an unknown or an already claimed organization all look the same.
    if (!unclaimed?.claimSecretHash || !secret || unclaimed.claimSecretHash !== hashTokenSecret(secret) || (unclaimed.expiresAt && unclaimed.expiresAt <= now)) {
      throw notFound(`no organization "${orgId}" to claim with this token`);
    }
    const userId = identity.userId!;
    await this.prisma.$transaction(async (tx) => {
      const claimed = await tx.organization.updateMany({
        where: { id: orgId, claimSecretHash: unclaimed.claimSecretHash },
        data: { claimSecretHash: null, expiresAt: null },
      });
      if (claimed.count === 0) throw notFound(`no organization "${orgId}" to claim with this token`);
      const agent = await tx.user.findUnique({ where: { email: agentEmail(orgId) } });
      if (agent) await tx.token.updateMany({ where: { orgId, createdBy: agent.id }, data: { createdBy: userId } });
      await tx.membership.upsert({
        where: { userId_orgId: { userId, orgId } },
        create: { userId, orgId, role: 'owner' },
        update: { role: 'owner' },
      });
      if (agent) await tx.user.delete({ where: { id: agent.id } });
    });
    return this.orgs.view(await this.orgs.record(orgId), 'owner');
  }

  /** Deletes every unclaimed organization past its expiry, with its datasets' events; returns their ids. */
  async sweep(now = new Date()): Promise<string[]> {
    const expired = await this.prisma.organization.findMany({ where: { expiresAt: { lte: now } }, include: { datasets: true } });
    const deleted: string[] = [];
    for (const org of expired) {
      // Claimed in the meantime: its expiry is gone and it stays.
      const gone = await this.prisma.$transaction(async (tx) => {
        const { count } = await tx.organization.deleteMany({ where: { id: org.id, expiresAt: { lte: now } } });
        if (count > 0) await tx.user.deleteMany({ where: { email: agentEmail(org.id) } });
        return count > 0;
      });
      if (!gone) continue;
      deleted.push(org.id);
      for (const dataset of org.datasets) {
        await this.storage.dropTable(dataset.id, dataset.tableName).catch((error: unknown) =>
          this.logger.warn({ err: error, dataset: dataset.id }, 'could not drop the events of an expired organization'),
        );
      }
    }
    if (deleted.length > 0) this.logger.info({ organizations: deleted }, 'deleted unclaimed provisioned organizations');
    return deleted;
  }

  /** Sweeps every `intervalMs` on the instance holding the lease. */
  start(intervalMs = 60_000): void {
    this.job ??= this.leases.every(
      PROVISIONING_LEASE,
      intervalMs,
      async () => {
        await this.sweep().catch((error: unknown) => this.logger.error({ err: error }, 'provisioned organization sweep failed'));
      },
      { logger: this.logger },
    );
  }

  async stop(): Promise<void> {
    await this.job?.stop();
    this.job = undefined;
  }
}
