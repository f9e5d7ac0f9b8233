// API token management (v2 `/tokens`): list, get, create, regenerate, delete. A token can only
// hand out capabilities its creator holds (and is bounded by them again on every request, see
// authenticator.ts), and its secret is returned once, at creation.
import { z } from 'zod';
import type { PrismaClient } from '../db/store';
import { forbidden, invalidInput, notFound } from '../errors';
import { firstMissing, parseStored } from './capabilities';
import { datasetCapabilitiesSchema, orgCapabilitiesSchema, viewCapabilitiesSchema } from './capability-schemas';
import { type DatasetCapabilities, type OrgCapabilities, type Principal, requireOrgCapability, type ViewCapabilities } from './principal';
import { generateId, generateTokenSecret, hashTokenSecret } from './secrets';
import { parseInput } from '../lib/validation';

const dateTime = z.iso
  .datetime({ offset: true, message: 'must be an RFC 3339 date-time' })
  .transform((text) => new Date(text));

const createTokenSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(255),
  description: z.string().max(1024).default(''),
  expiresAt: dateTime.nullable().optional(),
  datasetCapabilities: datasetCapabilitiesSchema.default({}),
  orgCapabilities: orgCapabilitiesSchema.default({}),
  viewCapabilities: viewCapabilitiesSchema.default({}),
});

const regenerateTokenSchema = z.object({
  existingTokenExpiresAt: dateTime,
  newTokenExpiresAt: dateTime.nullable().optional(),
  newToken: createTokenSchema.optional(),
});

export type CreateTokenInput = z.input<typeof createTokenSchema>;

export interface ApiTokenView {
  id: string;
  name: string;
  description: string;
  expiresAt: string | null;
  datasetCapabilities: DatasetCapabilities;
  orgCapabilities: OrgCapabilities;
  viewCapabilities: ViewCapabilities;
  samlAuthenticated: boolean;
  createdAt: string;
}

export type CreatedApiToken = ApiTokenView & { token: string };

interface TokenRecord {
  id: string;
  name: string;
  description: string;
  expiresAt: Date | null;
  datasetCapabilities: string;
  orgCapabilities: string;
  viewCapabilities: string;
  createdAt: Date;
}

function viewOf(token: TokenRecord): ApiTokenView {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    datasetCapabilities: parseStored<DatasetCapabilities>(token.datasetCapabilities),
    orgCapabilities: parseStored<OrgCapabilities>(token.orgCapabilities),
    viewCapabilities: parseStored<ViewCapabilities>(token.viewCapabilities),
    samlAuthenticated: false,
    createdAt: token.createdAt.toISOString(),
  };
}

/** Refuses to grant anything the creator could not do itself. */
function requireCanGrant(
  principal: Principal,
  input: { datasetCapabilities: DatasetCapabilities; orgCapabilities: OrgCapabilities; viewCapabilities?: ViewCapabilities },
) {
  const missing = firstMissing(
    { datasetCapabilities: principal.datasetCapabilities, orgCapabilities: principal.orgCapabilities, viewCapabilities: principal.viewCapabilities ?? {} },
    { datasetCapabilities: input.datasetCapabilities, orgCapabilities: input.orgCapabilities, viewCapabilities: input.viewCapabilities ?? {} },
  );
  if (missing) throw forbidden(`cannot grant ${missing}: the calling token lacks it`);
}

function rejectPastExpiry(date: Date | null | undefined, field: string, now: Date) {
  if (date && date.getTime() <= now.getTime()) throw invalidInput(`${field} must be in the future`);
}

export class TokenService {
  constructor(private readonly prisma: PrismaClient) {}

  async list(principal: Principal): Promise<ApiTokenView[]> {
    requireOrgCapability(principal, 'apiTokens', 'read');
    const tokens = await this.prisma.token.findMany({ where: { orgId: principal.orgId, kind: 'api' }, orderBy: { createdAt: 'asc' } });
    return tokens.map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<ApiTokenView> {
    requireOrgCapability(principal, 'apiTokens', 'read');
    return viewOf(await this.find(principal, id));
  }

  async create(principal: Principal, body: unknown, now = new Date()): Promise<CreatedApiToken> {
    requireOrgCapability(principal, 'apiTokens', 'create');
    const input = parseInput(createTokenSchema, body);
    rejectPastExpiry(input.expiresAt, 'expiresAt', now);
    requireCanGrant(principal, input);
    return this.insert(principal, input, input.expiresAt ?? null);
  }

  async regenerate(principal: Principal, id: string, body: unknown, now = new Date()): Promise<CreatedApiToken> {
    requireOrgCapability(principal, 'apiTokens', 'update');
    const input = parseInput(regenerateTokenSchema, body ?? {});
    const existing = await this.find(principal, id);
    const template = input.newToken ?? {
      name: existing.name,
      description: existing.description,
      datasetCapabilities: parseStored<DatasetCapabilities>(existing.datasetCapabilities),
      orgCapabilities: parseStored<OrgCapabilities>(existing.orgCapabilities),
      viewCapabilities: parseStored<ViewCapabilities>(existing.viewCapabilities),
      expiresAt: undefined,
    };
    const newExpiry = input.newTokenExpiresAt !== undefined ? input.newTokenExpiresAt : (template.expiresAt ?? null);
    rejectPastExpiry(newExpiry, 'newTokenExpiresAt', now);
    requireCanGrant(principal, template);
    // The old secret keeps working until the moment the caller chose (possibly now).
    const expiry = input.existingTokenExpiresAt < now ? now : input.existingTokenExpiresAt;
    await this.prisma.token.update({ where: { id: existing.id }, data: { expiresAt: expiry } });
    return this.insert(principal, template, newExpiry);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    requireOrgCapability(principal, 'apiTokens', 'delete');
    const token = await this.find(principal, id);
    await this.prisma.token.delete({ where: { id: token.id } });
  }

  private async find(principal: Principal, id: string) {
    const token = await this.prisma.token.findFirst({ where: { id, orgId: principal.orgId, kind: 'api' } });
    if (!token) throw notFound(`API token "${id}" not found`);
    return token;
  }

  private async insert(
    principal: Principal,
    input: {
      name: string;
      description: string;
      datasetCapabilities: DatasetCapabilities;
      orgCapabilities: OrgCapabilities;
      viewCapabilities?: ViewCapabilities;
    },
    expiresAt: Date | null,
  ): Promise<CreatedApiToken> {
    const secret = generateTokenSecret('api');
    const token = await this.prisma.token.create({
      data: {
        id: generateId(),
        orgId: principal.orgId,
        kind: 'api',
        name: input.name,
        description: input.description,
        secretHash: hashTokenSecret(secret),
        datasetCapabilities: JSON.stringify(input.datasetCapabilities),
        orgCapabilities: JSON.stringify(input.orgCapabilities),
        viewCapabilities: JSON.stringify(input.viewCapabilities ?? {}),
        expiresAt,
        createdBy: principal.userId,
      },
    });
    return { ...viewOf(token), token: secret };
  }
}
