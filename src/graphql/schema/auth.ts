// GraphQL for users and API tokens: the current user and the members of the organization, the
// organization's API tokens, and mutations to create, regenerate and delete them. Same services
// as /v2/user, /v2/users and /v2/tokens.
import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { ApiTokenView, CreatedApiToken } from '../../auth/tokens';
import type { MemberView } from '../../identity/users';
import { DomainError } from '../../errors';
import { builder } from './builder';
import { restBody } from './rest-body';

/** Node lookups answer null for what the caller cannot see instead of failing the query. */
export async function nullWhenMissing<T>(load: () => Promise<T> | T): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'forbidden')) return null;
    throw error;
  }
}

/** Lookups by a name or id answer null for what does not exist, and refuse what the caller may not read. */
export async function nullWhenNotFound<T>(load: () => Promise<T> | T): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return null;
    throw error;
  }
}

const UserRole = builder.objectRef<{ id: string; name: string }>('UserRole').implement({
  description: "A member's base role: owner, admin, user, read-only, none, or a custom role (its id and name)",
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
  }),
});

export type UserNode = MemberView & { orgId: string; timeZone?: string | null };

export const User = builder.objectRef<UserNode>('User');
builder.node(User, {
  description: 'A member of the organization the request acts in',
  id: { resolve: (user) => user.id },
  loadOne: (id, context) =>
    nullWhenMissing(async () => {
      const principal = context.principal();
      if (principal.kind === 'personal' && principal.userId === id) return context.services.identity.users.current(principal);
      return { ...(await context.services.identity.users.get(principal, id)), orgId: principal.orgId };
    }),
  fields: (t) => ({
    userId: t.exposeString('id', { description: 'The id used by the REST API (/v2/users/{id})' }),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    organizationId: t.exposeString('orgId', { description: 'The organization this request acts in' }),
    role: t.field({ type: UserRole, resolve: (user) => user.role }),
    timeZone: t.string({
      nullable: true,
      description: "The IANA time zone the viewer chose for showing times (null when unset, and for other members)",
      resolve: (user) => user.timeZone ?? null,
    }),
  }),
});

export const ApiToken = builder.objectRef<ApiTokenView>('ApiToken');
builder.node(ApiToken, {
  description: 'An API token of the organization; its secret is only ever shown at creation',
  id: { resolve: (token) => token.id },
  loadOne: (id, context) => nullWhenMissing(() => context.services.auth.tokens.get(context.principal(), id)),
  fields: (t) => ({
    tokenId: t.exposeString('id', { description: 'The id used by the REST API (/v2/tokens/{id})' }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (token) => token.expiresAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (token) => token.createdAt }),
    datasetCapabilities: t.field({ type: 'JSON', resolve: (token) => token.datasetCapabilities }),
    orgCapabilities: t.field({ type: 'JSON', resolve: (token) => token.orgCapabilities }),
    viewCapabilities: t.field({ type: 'JSON', resolve: (token) => token.viewCapabilities }),
  }),
});

const CreatedApiTokenRef = builder.objectRef<CreatedApiToken>('CreatedApiToken').implement({
  description: 'A new API token with its secret, which is not shown again',
  fields: (t) => ({
    token: t.field({ type: ApiToken, resolve: (created) => created }),
    secret: t.exposeString('token'),
  }),
});

const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    expiresAt: t.field({ type: 'DateTime' }),
    datasetCapabilities: t.field({ type: 'JSON', description: 'As in /v2/tokens: {"<dataset or *>": {"ingest": ["create"], ...}}' }),
    orgCapabilities: t.field({ type: 'JSON', description: 'As in /v2/tokens: {"datasets": ["read"], ...}' }),
    viewCapabilities: t.field({ type: 'JSON', description: 'As in /v2/tokens: {"<view or *>": {"query": ["read"]}}' }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: User,
    description: 'The user the personal token acts for',
    resolve: (_root, _args, context) => context.services.identity.users.current(context.principal()),
  }),
  apiTokens: t.connection({
    type: ApiToken,
    description: "The organization's API tokens",
    resolve: async (_root, args, context) =>
      resolveArrayConnection({ args }, await context.services.auth.tokens.list(context.principal())),
  }),
}));

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: CreatedApiTokenRef,
    args: { input: t.arg({ type: CreateApiTokenInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.auth.tokens.create(context.principal(), restBody(input)),
  }),
  regenerateApiToken: t.field({
    type: CreatedApiTokenRef,
    description: 'Issues a new secret; the old one stops working at existingTokenExpiresAt (default: now)',
    args: {
      id: t.arg.string({ required: true, description: 'The token id (ApiToken.tokenId)' }),
      existingTokenExpiresAt: t.arg({ type: 'DateTime' }),
      newTokenExpiresAt: t.arg({ type: 'DateTime' }),
    },
    resolve: (_root, args, context) =>
      context.services.auth.tokens.regenerate(context.principal(), args.id, {
        existingTokenExpiresAt: (args.existingTokenExpiresAt ?? new Date()).toISOString(),
        ...(args.newTokenExpiresAt ? { newTokenExpiresAt: args.newTokenExpiresAt.toISOString() } : {}),
      }),
  }),
  deleteApiToken: t.field({
    type: 'ID',
    description: 'Deletes the token and returns its id',
    args: { id: t.arg.string({ required: true, description: 'The token id (ApiToken.tokenId)' }) },
    resolve: async (_root, { id }, context) => {
      await context.services.auth.tokens.delete(context.principal(), id);
      return id;
    },
  }),
}));
