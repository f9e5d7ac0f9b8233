// A user's own personal tokens (`/v2/user/tokens`): list, create and revoke. A personal token acts
// for its user in every organization they belong to, with their role there, so only the user
// manages them, from a session or another personal token of theirs; API tokens, which act for an
// organization, cannot. Secrets are stored as digests and shown once, at creation.
import { z } from 'zod';
import type { Identity } from '../auth/authenticator';
import { generateId, generateTokenSecret, hashTokenSecret } from '../auth/secrets';
import type { PrismaClient } from '../db/store';
import { forbidden, invalidInput, notFound } from '../errors';
import { parseInput } from '../lib/validation';

export interface PersonalTokenView {
  id: string;
  name: string;
  description: string;
  expiresAt: string | null;
  createdAt: string;
}

export type CreatedPersonalToken = PersonalTokenView & { token: string };

const createSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(255),
  description: z.string().max(1024).default(''),
  expiresAt: z.iso
    .datetime({ offset: true, message: 'must be an RFC 3339 date-time' })
    .transform((text) => new Date(text))
    .nullable()
    .optional(),
});

function viewOf(token: { id: string; name: string; description: string; expiresAt: Date | null; createdAt: Date }): PersonalTokenView {
  return { id: token.id, name: token.name, description: token.description, expiresAt: token.expiresAt?.toISOString() ?? null, createdAt: token.createdAt.toISOString() };
}

/** The user behind a personal token or a session; API tokens act for no user. */
function ownerOf(identity: Identity): string {
  if (identity.kind !== 'personal' || !identity.userId) throw forbidden('API tokens do not act for a user; use a personal token or the console');
  return identity.userId;
}

export class PersonalTokenService {
  /** The time source; tests replace it. */
  clock: () => number = Date.now;

  constructor(private readonly prisma: PrismaClient) {}

  async list(identity: Identity): Promise<PersonalTokenView[]> {
    const userId = ownerOf(identity);
    const tokens = await this.prisma.token.findMany({ where: { userId, kind: 'personal' }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
    return tokens.map(viewOf);
  }

  async create(identity: Identity, body: unknown): Promise<CreatedPersonalToken> {
    const userId = ownerOf(identity);
    const input = parseInput(createSchema, body);
    if (input.expiresAt && input.expiresAt.getTime() <= this.clock()) throw invalidInput('expiresAt must be in the future');
    const secret = generateTokenSecret('personal');
    const token = await this.prisma.token.create({
      data: {
        id: generateId(),
        userId,
        kind: 'personal',
        name: input.name,
        description: input.description,
        secretHash: hashTokenSecret(secret),
        expiresAt: input.expiresAt ?? null,
        createdAt: new Date(this.clock()),
        createdBy: userId,
      },
    });
    return { ...viewOf(token), token: secret };
  }

  /** Revokes one of the user's personal tokens; it is refused from the next request on. */
  async delete(identity: Identity, id: string): Promise<void> {
    const userId = ownerOf(identity);
    const { count } = await this.prisma.token.deleteMany({ where: { id, userId, kind: 'personal' } });
    if (count === 0) throw notFound(`personal token "${id}" not found`);
  }
}
