// Organizations (v2 `/orgs`): each holds its own datasets, tokens, roles, groups and shared
// objects, invisible from every other. A caller lists the organizations it belongs to (an API
// token: its own), creates new ones with a personal token (becoming their owner), and renames
// one where its base role is owner or admin. An organization another caller cannot reach is
// "not found", never someone else's data.
import { z } from 'zod';
import type { Identity } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import { generateOrgId } from '../auth/secrets';
import type { PrismaClient } from '../db/store';
import { forbidden, invalidInput, notFound } from '../errors';
import { parseInput } from '../lib/validation';

/** The one deployment an organization's data lives in, as Axiom names edge deployments. */
export const EDGE_DEPLOYMENT = 'local';

export interface OrgRecord {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
}

export interface OrgView {
  id: string;
  name: string;
  plan: string;
  planCreated: string;
  lastUsageSync: string;
  paymentStatus: 'na';
  primaryEmail: string;
  role?: string;
  defaultEdgeDeployment: string;
  metaCreated: string;
  metaModified: string;
  /** Set while a provisioned organization waits to be claimed: when it is deleted otherwise. */
  expiresAt?: string;
  license: Record<string, unknown>;
}

export interface OrgLimits {
  maxFieldsPerDataset: number;
}

const orgName = z.string().trim().min(1, 'is required').max(255);
const createOrgSchema = z.object({ name: orgName, edgeDeployment: z.string().optional() });
const updateOrgSchema = z.object({ name: orgName });

/** Finds the principal acting in an organization, for routes whose path names it. */
export type PrincipalIn = (identity: Identity, orgId: string) => Promise<Principal | undefined>;

export class OrgService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly principalIn: PrincipalIn,
    private readonly limits: OrgLimits,
  ) {}

  async list(identity: Identity): Promise<OrgView[]> {
    if (identity.kind === 'api') return [await this.get(identity, identity.orgId!)];
    const memberships = await this.prisma.membership.findMany({
      where: { userId: identity.userId! },
      include: { org: true },
      orderBy: [{ createdAt: 'asc' }, { orgId: 'asc' }],
    });
    return Promise.all(memberships.map((m) => this.view(m.org, m.role)));
  }

  async get(identity: Identity, id: string): Promise<OrgView> {
    const principal = await this.reach(identity, id);
    return this.view(await this.record(id), principal.role);
  }

  /** Creates an organization whose owner is the caller (personal tokens only). */
  async create(identity: Identity, body: unknown): Promise<OrgView> {
    if (identity.kind !== 'personal') throw forbidden('API tokens belong to one organization; create organizations with a personal token');
    const input = parseInput(createOrgSchema, body);
    requireEdgeDeployment(input.edgeDeployment);
    const id = generateOrgId(input.name);
    const org = await this.prisma.organization.create({
      data: { id, name: input.name, memberships: { create: { userId: identity.userId!, role: 'owner' } } },
    });
    return this.view(org, 'owner');
  }

  async update(identity: Identity, id: string, body: unknown): Promise<OrgView> {
    const principal = await this.reach(identity, id);
    if (principal.kind !== 'personal' || (principal.role !== 'owner' && principal.role !== 'admin')) {
      throw forbidden('only owners and admins of the organization can change it, with a personal token');
    }
    const input = parseInput(updateOrgSchema, body);
    const org = await this.prisma.organization.update({ where: { id }, data: { name: input.name } });
    return this.view(org, principal.role);
  }

  /** The principal acting in the organization, or 404 when the token has no access there. */
  async reach(identity: Identity, id: string): Promise<Principal> {
    const principal = await this.principalIn(identity, id);
    if (!principal) throw notFound(`organization "${id}" not found`);
    return principal;
  }

  async record(id: string): Promise<OrgRecord> {
    const org = await this.prisma.organization.findUnique({ where: { id } });
    if (!org) throw notFound(`organization "${id}" not found`);
    return org;
  }

  async view(org: OrgRecord, role: string | undefined): Promise<OrgView> {
    const owner = await this.prisma.membership.findFirst({
      where: { orgId: org.id, role: 'owner' },
      include: { user: true },
      orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    });
    const created = org.createdAt.toISOString();
    const plan = org.expiresAt ? 'personal' : 'enterprise';
    return {
      id: org.id,
      name: org.name,
      plan,
      planCreated: created,
      lastUsageSync: org.updatedAt.toISOString(),
      paymentStatus: 'na',
      primaryEmail: owner?.user.email ?? '',
      ...(role !== undefined ? { role } : {}),
      defaultEdgeDeployment: EDGE_DEPLOYMENT,
      metaCreated: created,
      metaModified: org.updatedAt.toISOString(),
      ...(org.expiresAt ? { expiresAt: org.expiresAt.toISOString() } : {}),
      // A self-hosted server enforces its own configured limits; zero means "not limited".
      license: {
        id: `${org.id}-license`,
        tier: plan,
        issuer: 'eventdeck',
        issuedTo: org.id,
        issuedAt: created,
        validFrom: created,
        expiresAt: org.expiresAt?.toISOString() ?? null,
        monthlyIngestGb: 0,
        monthlyQueryGbHours: 0,
        apiRateLimitPerSecond: 0,
        maxUsers: 0,
        maxDatasets: 0,
        maxMonitors: 0,
        maxFields: this.limits.maxFieldsPerDataset,
        maxEndpoints: 0,
        maxQueryWindowSeconds: 0,
        maxAuditWindowSeconds: 0,
        withAuths: ['personal', 'api'],
        features: { rbac: true },
        billingPeriodStart: created,
        billingPeriodEnd: created,
        defaultEdgeDeployment: EDGE_DEPLOYMENT,
        edgeDeployments: [EDGE_DEPLOYMENT],
      },
    };
  }
}

export function requireEdgeDeployment(value: string | undefined): void {
  if (value !== undefined && value !== EDGE_DEPLOYMENT) {
    throw invalidInput(`edgeDeployment: unknown edge deployment "${value}" (this server has "${EDGE_DEPLOYMENT}")`);
  }
}
